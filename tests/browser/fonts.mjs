// The pages on a machine without a CJK font (tests/cli/front_ends.rs starts Chromium with a
// fontconfig that lists only fonts without CJK glyphs): each page (the book, the training
// page, the editor) draws every piece's kanji with the font it carries, where the machine's
// own fonts draw a kanji as an empty box; a reader switches the pieces to letters on the
// page, the choice is kept when the page is opened again, and switching back shows kanji.
// Usage: node fonts.mjs OUT_DIR BOOK.html TRAIN.html EDITOR.html. Exits non-zero on a
// failure.
import { chromium } from "playwright-core";
import { pathToFileURL } from "node:url";
import path from "node:path";
import { check } from "./common.mjs";

const [out, ...pages] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });

// In the page: what `text` draws in `font` (the alpha of a 64×64 canvas), and the same for a
// code point no font has (the empty box, or nothing).
const DRAWN = (args) => {
  const [text, font] = args;
  const draw = (t) => {
    const c = document.createElement("canvas");
    c.width = c.height = 64;
    const g = c.getContext("2d");
    g.font = font;
    g.textBaseline = "top";
    g.fillText(t, 4, 4);
    const d = g.getImageData(0, 0, 64, 64).data;
    const a = [];
    for (let i = 3; i < d.length; i += 4) a.push(d[i]);
    return a;
  };
  const mine = draw(text), none = draw("\u{10FFFD}");
  return { ink: mine.filter((x) => x > 0).length, likeNone: mine.every((x, i) => x === none[i]) };
};

const KANJI = ["鵬", "鷹", "鵰", "鶴", "雉", "鶉", "燕", "鴈", "左", "右"];

for (const [i, file] of pages.entries()) {
  const name = ["book", "train", "editor"][i];
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(pathToFileURL(path.resolve(file)).href);
  await page.waitForSelector(".lbl-k", { state: "attached" });
  await page.evaluate(() => document.fonts.ready);
  // The machine has no CJK font: a kanji the page's font lacks (漢) draws as nothing would.
  const bare = await page.evaluate(DRAWN, ["漢", "40px serif"]);
  check(bare.likeNone, `${name}: this browser has no CJK font (漢 draws as an empty box)`);
  await page.evaluate(() => document.fonts.load("40px 'Tori Pieces'", "鵬鷹鵰鶴雉鶉燕鴈左右"));
  for (const k of KANJI) {
    const d = await page.evaluate(DRAWN, [k, "40px 'Tori Pieces', serif"]);
    check(d.ink > 40 && !d.likeNone, `${name}: ${k} drawn by the page's own font (${d.ink} pixels)`);
  }
  // The pieces on the page are drawn in that font, their kanji shown.
  const shown = await page.evaluate(() => {
    const k = document.querySelector(".lbl-k");
    const l = document.querySelector(".lbl-l");
    return {
      family: getComputedStyle(k).fontFamily,
      kanji: getComputedStyle(k).display !== "none",
      letter: getComputedStyle(l).display !== "none",
    };
  });
  check(shown.family.startsWith('"Tori Pieces"') && shown.kanji && !shown.letter,
    `${name}: pieces show their kanji in the page's font (${shown.family})`);
  await page.screenshot({ path: path.join(out, `fonts-${name}-kanji.png`) });
  // Letters, chosen on the page and kept when it is opened again.
  await page.click("#labels-letters");
  const letters = async () => page.evaluate(() => ({
    root: document.documentElement.dataset.labels,
    kanji: [...document.querySelectorAll(".lbl-k")].some((e) => getComputedStyle(e).display !== "none"),
    letter: [...document.querySelectorAll(".lbl-l")].every((e) => getComputedStyle(e).display !== "none"),
  }));
  let now = await letters();
  check(now.root === "letters" && !now.kanji && now.letter, `${name}: the switch shows letters only`);
  await page.screenshot({ path: path.join(out, `fonts-${name}-letters.png`) });
  // Chromium hands localStorage writes to its storage service asynchronously: reopen
  // until the page shows the choice, for up to 5 s (a person reopens later).
  for (let tries = 0; tries < 10; tries++) {
    await page.reload();
    now = await letters();
    if (now.root === "letters") break;
    await page.waitForTimeout(500);
  }
  check(now.root === "letters" && !now.kanji && now.letter &&
    await page.isChecked("#labels-letters"), `${name}: opened again, it still shows letters`);
  await page.click("#labels-kanji");
  now = await letters();
  check(now.root === "kanji", `${name}: and back to kanji`);
  check(errors.length === 0, `${name}: no errors: ${errors.join("; ")}`);
  await page.close();
}
await browser.close();
