// Drives the training page (toritsume book --interactive) in headless Chromium as a person
// would: solves three problems by clicks (one by a drop, one ending with a final dual's
// move), plays a move that gives no check and sees it rejected with the board restored, plays
// wrong checks and sees each answered by the defence that refutes it, solves one with
// the keyboard alone, steps through a solution, reloads and finds the progress kept, and
// looks at the page at phone width. Usage: node train.mjs PAGE.html SCREENSHOT_DIR
// (CHROMIUM names the browser; /usr/bin/chromium by default). Exits non-zero on a failure.
import { open_page, check } from "./common.mjs";
import path from "node:path";

const { url, out: shots, browser, page, errors } = await open_page();
const message = () => page.textContent("#message");
const sq = (s) => page.click(`#board .sq[data-sq="${s}"]`);
const hand = (k) => page.click(`#hand-b .hand[data-kind="${k}"]`);
const piece = (s) => page.textContent(`#board .sq[data-sq="${s}"]`);
async function open(n) {
  await page.click(`#list .entry[data-n="${n}"]`);
  await page.waitForFunction((n) => document.querySelector("#title").textContent.startsWith("No. " + n + " "), n);
}
// After an attacker move that is not the last: the defence is played, then it is our turn.
async function reply() {
  await page.waitForFunction(() => document.querySelector("#message").textContent.startsWith("Your move"));
}

await page.goto(url);
await page.waitForFunction(() => document.body.dataset.ready === "1");
check(errors.length === 0, "the page loads without errors or network requests");
check((await page.$$("#board .sq")).length === 49, "a 7×7 board");
check((await page.$$("#list .entry")).length === 34, "34 problems in the list (the two no-mates left out)");

// No. 1, mate in 1 by a drop: Cr*1b.
await open(1);
await hand("C");
await sq("1b");
check((await message()).startsWith("Solved in"), "No. 1 solved by a drop");
check((await piece("1b")).includes("鶴"), "the crane stands on 1b");

// No. 14: a wrong first move is rejected and the board restored.
await open(14);
await hand("R");
await sq("7c");
check((await message()).startsWith("Not the solution"), "a wrong move is rejected");
check((await piece("7c")) === "", "the board is restored (7c empty)");
check((await page.$$('#hand-b .hand[data-kind="R"]')).length === 1, "the quail is back in hand");
check((await message()).includes("gives no check"), "R*7c gives no check, and the page says so");

// A wrong check is played and answered by the defence that refutes it, then the board goes
// back: Fa*6b? Phx6b!, and RQ*6b?, which two defences refute.
await hand("F");
await sq("6b");
await page.waitForFunction(() => document.querySelector("#message").textContent.includes("refutes it"));
check((await message()) === "Not the solution: Phx6b refutes it — try again.", "Fa*6b? answered by Phx6b!");
check((await piece("6b")).includes("鵬") && (await piece("6a")) === "", "the phoenix took the falcon on 6b");
await page.waitForTimeout(300); // the defence's short animation
await page.screenshot({ path: path.join(shots, "train-refuted.png") });
await page.waitForFunction(() => document.querySelector('#board .sq[data-sq="6a"]').textContent !== "");
check((await piece("6b")) === "" && (await piece("6a")).includes("鵬"), "then the board goes back");
check((await page.$$('#hand-b .hand[data-kind="F"]')).length === 1, "the falcon is back in hand");
await hand("R");
await sq("6b");
await page.waitForFunction(() => document.querySelector("#message").textContent.includes("refutes it"));
check((await message()) === "Not the solution: Phx7b refutes it (and 1 more defence) — try again.",
  "RQ*6b? answered by Phx7b!, one of two refutations");
await page.waitForFunction(() => document.querySelector('#board .sq[data-sq="6a"]').textContent !== "");
// The right move now.
await hand("F");
await sq("5a");
await reply();
check((await piece("7b")).includes("鵬"), "after a refuted try the solution still plays");

// No. 7: C*2b 1c1b, then the final dual F*1c instead of the main line's F*2a.
await open(7);
await hand("C");
await sq("2b");
await reply();
check((await piece("1b")).includes("鵬"), "the defence 1c1b was played");
await hand("F");
await sq("1c");
check((await message()).startsWith("Solved in"), "No. 7 solved with a final dual's move (F*1c)");

// No. 16, board moves only: 3d3c 3b2a 1a2b 2a1b 1d2c.
await open(16);
await sq("3d"); await sq("3c"); await reply();
await sq("1a"); await sq("2b"); await reply();
await sq("1d"); await sq("2c");
check((await message()).startsWith("Solved in"), "No. 16 solved by board moves");
await page.waitForTimeout(500);
await page.screenshot({ path: path.join(shots, "train-solved.png") });

// No. 3 with the keyboard alone: the crane in hand, then arrows to 2b and Enter.
await open(3);
await page.focus('#hand-b .hand[data-kind="C"]');
await page.keyboard.press("Enter");
await page.focus('#board .sq[data-sq="4d"]');
for (const k of ["ArrowRight", "ArrowRight", "ArrowUp", "ArrowUp"]) await page.keyboard.press(k);
check(await page.evaluate(() => document.activeElement.dataset.sq === "2b"), "arrow keys move over the board");
await page.keyboard.press("Enter");
check((await message()).startsWith("Solved in"), "No. 3 solved with the keyboard");

// A hint, and the solution a move at a time.
await open(5);
await page.click("#hint");
check((await page.$$("#hand-b .hand.hint")).length === 1, "the hint highlights the piece in hand to drop");
await page.click("#solution");
await page.click("#step-next");
check((await page.textContent("#line")).includes("1. Fa*6b"), "the solution steps forward");
await page.click("#step-next");
await page.click("#step-prev");
check((await page.$$("#line .mv")).length === 7, "the whole solution is shown");

// Filters: 7 plies only.
await page.selectOption("#f-length", "7");
const lengths = await page.$$eval("#list .entry", (es) => es.map((e) => e.textContent));
check(lengths.length > 0 && lengths.every((t) => t.includes(" 7 plies")), "the list filtered by length");
// The generated sets carry themes and ratings; the classic set its lengths as themes.
await page.selectOption("#f-theme", "mateIn4");
const themed = await page.$$eval("#list .entry", (es) => es.map((e) => e.textContent));
check(themed.length > 0 && themed.every((t) => t.includes(" 7 plies")), "the list filtered by theme");
await page.selectOption("#f-theme", "");
await page.selectOption("#f-length", "");

// Reload: the progress is kept. Chromium hands the page's localStorage writes to its
// storage service asynchronously, and a reload made at once can, rarely, come before
// them (a person reloads later): reload until the page shows progress, for up to 5 s.
const status = async (n) => page.getAttribute(`#list .entry[data-n="${n}"]`, "data-status");
let reloads = 0;
for (;;) {
  await page.reload();
  await page.waitForFunction(() => document.body.dataset.ready === "1");
  reloads++;
  if (await status(1) !== "new" || reloads >= 10) break;
  await page.waitForTimeout(500);
}
const seen = [1, 7, 16, 3, 14, 5, 2].map(async (n) => n + ":" + await status(n));
check(await status(1) === "solved" && await status(7) === "solved" && await status(16) === "solved" &&
  await status(3) === "solved",
  "after a reload the solved problems are marked solved (" + (await Promise.all(seen)).join(" ") +
  (reloads > 1 ? ", after " + reloads + " reloads" : "") + ")");
check(await status(14) === "failed" && await status(5) === "failed", "and the failed ones failed");
check(await status(2) === "new", "and the others untouched");

// Phone width: nothing wider than the screen.
await page.setViewportSize({ width: 390, height: 844 });
await open(16);
const wide = await page.evaluate(() => document.documentElement.scrollWidth);
check(wide <= 390, "readable at phone width (" + wide + " px wide)");
await page.screenshot({ path: path.join(shots, "train-phone.png"), fullPage: true });
check(errors.length === 0, "no errors on the way: " + errors.join("; "));
await browser.close();
