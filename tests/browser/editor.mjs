// Drives the position editor (toritsume editor) in headless Chromium as a person would: reads
// the position it opens on, empties the board and sets up the README's mate in 7 by clicks,
// sees an impossible piece and a check named and then mended, edits by keys and moves a
// piece, loads a malformed SFEN and is told why, switches White's hand to "as given",
// reloads and finds the position kept in the address, and looks at the page at phone width.
// Prints the SFENs the page gave (`sfen: ...`, `given: ...`) for the caller to solve.
// Usage: node editor.mjs PAGE.html SCREENSHOT_DIR (CHROMIUM names the browser;
// /usr/bin/chromium by default). Exits non-zero on a failure.
import { open_page, check } from "./common.mjs";
import path from "node:path";
import fs from "node:fs";

const { url, out: shots, browser, page, errors } = await open_page();
const sq = (s) => page.click(`#board .sq[data-sq="${s}"]`);
const piece = (s) => page.textContent(`#board .sq[data-sq="${s}"]`);
const tool = (p) => page.click(`#palette .tool[data-piece="${p}"]`);
const more = (side, k) => page.click(`#hand-${side} .count[data-kind="${k}"] .more`);
const sfen = () => page.inputValue("#sfen");
const wrong = async () => (await page.$$eval("#problems li", (l) => l.map((x) => x.textContent)));

await page.goto(url);
await page.waitForFunction(() => document.body.dataset.ready === "1");
check(errors.length === 0, "the page loads without errors or network requests");
check((await page.$$("#board .sq")).length === 49, "a 7×7 board");
check((await sfen()) === "1k5/2SS3/P6/1C5/7/7/7 b FRS 1", "it opens on the position given");
check((await piece("6a")).includes("鵬"), "White's phoenix on 6a");
check((await page.textContent("#verdict")) === "A legal position.", "the position is legal");
check((await page.innerText("#rest")) === "the rest: 鷹 鶴×3 雉×3 鶉左×2 鶉右 燕×13",
  "White holds the rest: a falcon, 3 cranes, 3 pheasants, 2 left quails, a right quail, 13 swallows");

// The README's mate in 7 set up on an empty board by clicks.
await page.click("#clear");
check((await sfen()) === "7/7/7/7/7/7/7 b - 1", "the board emptied");
check((await wrong()).includes("White (the side not to move) has no phoenix"), "an empty board has no White phoenix, and the page says so");
await tool("k"); await sq("6a");
await tool("S"); await sq("5b");
await tool("F"); await sq("7d");
await tool("C"); await sq("6d");
await more("b", "F"); await more("b", "R"); await more("b", "S");
check((await sfen()) === "1k5/2S4/7/FC5/7/7/7 b FRS 1", "the mate in 7 set up by clicks: 1k5/2S4/7/FC5/7/7/7 b FRS 1");
check((await page.textContent("#cmd-solve")) === 'toritsume solve "1k5/2S4/7/FC5/7/7/7 b FRS 1"', "the command that solves it");
check((await page.textContent("#cmd-verify")) === 'toritsume verify "1k5/2S4/7/FC5/7/7/7 b FRS 1"', "the command that verifies it");
console.log("sfen: " + (await sfen()));
// Copy puts the command on the clipboard (or, where the page may not write there, selects
// it for a copy by hand).
await page.context().grantPermissions(["clipboard-read", "clipboard-write"]).catch(() => {});
await page.click("#copy-solve");
await page.waitForFunction(() => document.querySelector("#copied").textContent !== "");
const copied = await page.textContent("#copied");
if (copied === "Copied.") {
  const clip = await page.evaluate(() => navigator.clipboard.readText());
  check(clip === 'toritsume solve "1k5/2S4/7/FC5/7/7/7 b FRS 1"', "Copy put the solve command on the clipboard");
} else {
  const sel = await page.evaluate(() => String(window.getSelection()));
  check(sel === 'toritsume solve "1k5/2S4/7/FC5/7/7/7 b FRS 1"', "Copy selected the solve command for a copy by hand");
}
await page.screenshot({ path: path.join(shots, "editor-desktop.png") });

// An impossible piece and a check, each named, then taken off again.
await tool("S"); await sq("3a");
check((await wrong()).includes("Black swallow on 3a, its last rank, where it could never move"), "a swallow on its last rank is named");
await page.click(`#board .sq[data-sq="3a"]`, { button: "right" });
check((await piece("3a")) === "", "a right click empties 3a");
await tool("C"); await sq("6b");
check((await wrong()).includes("White (the side not to move) is in check"), "a crane on 6b gives check, and the page says so");
await sq("6b");
check((await piece("6b")) === "" && (await wrong()).length === 0, "the same piece clicked again comes off, and the position is legal again");

// Keys: a falcon put on 4d, promoted to an eagle, then taken off.
await page.focus(`#board .sq[data-sq="6d"]`);
await page.keyboard.press("ArrowRight");
await page.keyboard.press("ArrowRight");
await page.keyboard.press("Shift+F");
check((await sfen()).startsWith("1k5/2S4/7/FC1F3/"), "arrows and F put a Black falcon on 4d");
await page.keyboard.press("+");
check((await sfen()).startsWith("1k5/2S4/7/FC1+F3/"), "+ promotes it to an eagle");
await page.keyboard.press("Delete");
check((await sfen()) === "1k5/2S4/7/FC5/7/7/7 b FRS 1", "Delete takes it off");
await page.keyboard.press("Control+z");
check((await sfen()).startsWith("1k5/2S4/7/FC1+F3/"), "Ctrl+Z brings the eagle back");
await page.keyboard.press("Control+z");
check((await sfen()).startsWith("1k5/2S4/7/FC1F3/"), "and again, unpromoted");
await page.keyboard.press("Control+y");
await page.keyboard.press("Control+y");
check((await sfen()) === "1k5/2S4/7/FC5/7/7/7 b FRS 1", "Ctrl+Y twice redoes the promotion and the Delete");
await page.click("#clear");
await page.click("#undo");
check((await sfen()) === "1k5/2S4/7/FC5/7/7/7 b FRS 1", "Undo brings back the board Empty board cleared");
check(await page.isDisabled("#redo") === false, "Redo is there to clear it again");

// The move tool: the crane from 6d to 5e and back.
await page.click("#tool-move");
await sq("6d"); await sq("5e");
check((await sfen()).startsWith("1k5/2S4/7/F6/2C4/"), "the crane moved from 6d to 5e");
await sq("5e"); await sq("6d");
check((await sfen()) === "1k5/2S4/7/FC5/7/7/7 b FRS 1", "and back");

// A malformed SFEN is refused with its reason, the board kept.
await page.fill("#sfen", "1k5/2S4/7/FC5/7/7 b FRS 1");
await page.click("#load");
check((await page.textContent("#load-error")) === "board field: 6 ranks, a board has 7", "a board of 6 ranks is refused, and why");
check((await piece("7d")).includes("鷹"), "the board is kept");
await page.fill("#sfen", "1k5/2S4/7/FC5/7/7/7 b FRS 1");
await page.press("#sfen", "Enter");
check((await page.textContent("#load-error")) === "", "a good SFEN loads with Enter");
// A FEN as pychess-variants writes it (`w` for Black, both hands letter by letter).
await page.fill("#sfen", "1k5/2S4/7/FC5/7/7/7[FRScccppppllrssssssssssssss] w 0 1");
await page.click("#load");
check((await sfen()) === "1k5/2S4/7/FC5/7/7/7 b FRS 1", "a pychess FEN whose White hand is the rest loads as the SFEN");
// A line of a problem file: its SFEN, and its hand as given when the record says so.
await page.fill("#sfen", '{"sfen":"6k/5S1/5S1/7/7/7/7 b L 1","defender_hand":"given","plies":3}');
await page.click("#load");
check((await sfen()) === "6k/5S1/5S1/7/7/7/7 b L 1" && (await page.isChecked("#hand-given")),
  "a problem record loads with its White hand as given (here none)");
// A pychess-variants puzzle record, and an EPD line: their FEN (a phoenix for Black on 1g).
await page.fill("#sfen", '{"_id":"T0001","v":"torishogi","f":"1k5/2S4/7/FC5/7/7/6K[FRScccppppllrssssssssssssss] w 0 1","m":"F@b6"}');
await page.click("#load");
check((await sfen()) === "1k5/2S4/7/FC5/7/7/6K b FRS 1" && !(await page.isChecked("#hand-given")),
  "a pychess-variants record loads by its FEN, White holding the rest");
await page.fill("#sfen", "1k5/2S4/7/FC5/7/7/7[FRScccppppllrssssssssssssss] w - - 0 1;variant torishogi;bm F@b6;eval #4");
await page.click("#load");
check((await sfen()) === "1k5/2S4/7/FC5/7/7/7 b FRS 1", "an EPD line loads by its FEN");
await page.fill("#sfen", '{"v":"minishogi","f":"rbsgk/4p/5/P4/KGSBR[-] w 0 1"}');
await page.click("#load");
check((await page.textContent("#load-error")) === "a puzzle of `minishogi`, not of Tori Shogi (`torishogi`)",
  "a puzzle of another variant is refused");
await page.fill("#sfen", '{"plies":3}');
await page.click("#load");
check((await page.textContent("#load-error")) === "a problem record needs its `sfen`", "a record without an SFEN is refused");
await page.fill("#sfen", "startpos moves 3e3d");
await page.click("#load");
check((await page.textContent("#load-error")) === "the editor reads a position without moves after it", "moves after a position are refused");
await page.fill("#sfen", "1k5/2S4/7/FC5/7/7/7 b FRS 1");
await page.click("#load");

// White's hand as given: it starts as the rest, and the command says so.
await page.check("#hand-given");
const given = await sfen();
check(given === "1k5/2S4/7/FC5/7/7/7 b FRS3c4p2lr14s 1", "White's hand written out as given: 3c4p2lr14s");
check((await page.textContent("#cmd-solve")).startsWith("toritsume solve --defender-hand given "), "the command asks for the hand as given");
console.log("given: " + given);

// The address keeps the position: a reload brings it back.
check(new URL(page.url()).hash === "#" + encodeURIComponent(given) + "&hand=given", "the address holds the SFEN and the hand's mode");
await page.reload();
await page.waitForFunction(() => document.body.dataset.ready === "1");
check((await sfen()) === given && (await page.isChecked("#hand-given")), "after a reload the position and its given hand are back");
await page.check("#hand-rest");
check((await sfen()) === "1k5/2S4/7/FC5/7/7/7 b FRS 1", "back to the rest");

// At phone width the board fits the screen.
await page.setViewportSize({ width: 390, height: 844 });
const boardWidth = await page.$eval("#board", (b) => b.getBoundingClientRect().width);
const pageWidth = await page.evaluate(() => document.documentElement.scrollWidth);
check(boardWidth <= 390 && pageWidth <= 390, "at phone width the board (" + Math.round(boardWidth) + " px) and the page fit");
await page.screenshot({ path: path.join(shots, "editor-phone.png"), fullPage: true });

// Positions the caller wrote (positions.txt beside the screenshots): what the page finds
// wrong with each, for the caller to compare with what the program finds.
const list = path.join(shots, "positions.txt");
if (fs.existsSync(list)) {
  const lines = fs.readFileSync(list, "utf8").split("\n").filter((l) => l.trim());
  for (const l of lines) {
    await page.fill("#sfen", l);
    await page.press("#sfen", "Enter");
    const said = await page.textContent("#load-error");
    const w = said ? ["unread: " + said] : await wrong();
    console.log("position: " + l + " => " + (w.length ? w.join(" | ") : "legal"));
  }
  check(true, lines.length + " positions judged");
}

check(errors.length === 0, "no errors on the way: " + errors.join("; "));
await browser.close();
