// Drives the puzzle book (toritsume book, the classic set) in headless Chromium as a reader
// would: hears a diagram read out, looks at it on a desktop and on a phone (diagrams side by side, then one a row,
// nothing wider than the window), opens a solution, follows a problem's number to its
// solution at the end and back, then prints it to PDF on A4 and on Letter and reads the PDF
// back: six problems a page, none cut by a page break, the solutions on pages of their own.
// Usage: node book.mjs BOOK.html OUT_DIR (CHROMIUM names the browser; /usr/bin/chromium by
// default). Writes screenshots and the two PDFs to OUT_DIR. Exits non-zero on a failure.
import { open_page, check } from "./common.mjs";
import fs from "node:fs";
import path from "node:path";

const { url, out, browser, page, errors } = await open_page();
const box = (sel) => page.$eval(sel, (e) => {
  const r = e.getBoundingClientRect();
  return { top: r.top + scrollY, bottom: r.bottom + scrollY, left: r.left, right: r.right };
});
const overflows = () => page.evaluate(() => document.documentElement.scrollWidth > innerWidth);
const N = 36;

await page.goto(url);
check(errors.length === 0, "the book loads without errors or network requests");
check((await page.$$("section.problem")).length === N, `${N} problems`);
// What a screen reader announces for No. 1's diagram: the position in words.
const said = "Black: falcon 1c; crane 4c; in hand: a crane. White: phoenix 2a; pheasant 3a; " +
  "left quail 2b; in hand: nothing. Black to move.";
check(await page.getByRole("img", { name: said, exact: true }).count() === 1,
  "No. 1's diagram is read out as its position in words");

// A desktop window: two diagrams a row, each whole.
{
  const [a, b, c] = [await box("#p1"), await box("#p2"), await box("#p3")];
  check(Math.abs(a.top - b.top) < 1 && b.left > a.right, "No. 1 and No. 2 side by side");
  check(c.top >= a.bottom, "No. 3 on the next row");
  check(!(await overflows()), "nothing wider than a 1100-pixel window");
  const board = await box("#p1 svg.board");
  check(board.right <= a.right && board.right - board.left > 350, "the diagram fills its box");
}

// A solution opens under its diagram.
check(!(await page.isVisible("#p1 .solution")), "No. 1's solution hidden at first");
await page.click("#p1 summary");
check(await page.isVisible("#p1 .solution"), "No. 1's solution shown after a click");
check((await page.textContent("#p1 .solution")) === "1.\u00a0Cr*1b", "No. 1's solution reads 1. Cr*1b");
await page.screenshot({ path: path.join(out, "book-desktop.png") });

// The number leads to the solutions at the end, and back.
await page.click("#p5 h2 a");
check(page.url().endsWith("#s5"), "No. 5's number leads to its solution");
const s5 = await page.$eval("#s5", (e) => e.getBoundingClientRect().top);
check(s5 >= 0 && s5 < 900, "the solution is in view");
check((await page.textContent("#s5")).includes("1.\u00a0Fa*6b Phx6b 2.\u00a0Fa-6c Ph-7a 3.\u00a0Sw*7b Ph-6a 4.\u00a0RQ*6b"),
  "No. 5's full solution at the end");
check((await page.$$(".answers li")).length === N, `${N} solutions at the end`);
check((await page.textContent("#s35")).startsWith("No. 35 · No mate."), "a no-mate says so once");
await page.click("#s5 > a");
check(page.url().endsWith("#p5"), "and its number leads back to the problem");

// A phone: one diagram a row, scaled down, nothing to scroll sideways.
await page.setViewportSize({ width: 390, height: 844 });
{
  const [a, b] = [await box("#p1"), await box("#p2")];
  check(b.top >= a.bottom, "on a phone the diagrams are one a row");
  check(!(await overflows()), "nothing wider than a 390-pixel phone");
  await page.screenshot({ path: path.join(out, "book-phone.png") });
}

// Printed. The page's content box: the paper less the @page margins (12 mm each side).
const MM = 96 / 25.4;
const PT = 72 / 96;
const paper = { A4: { width: 210, height: 297 }, Letter: { width: 215.9, height: 279.4 } };
const bottom_margin_pt = 14 * MM * PT;

// The objects of a PDF Chromium wrote (dictionaries only: a stream's bytes are skipped).
function objects(pdf) {
  const text = pdf.toString("latin1");
  const found = new Map();
  const re = /(\d+) 0 obj/g;
  let m;
  while ((m = re.exec(text))) {
    const rest = text.slice(m.index + m[0].length, m.index + m[0].length + 4000);
    const end = Math.min(...["endobj", "stream"].map((w) => { const i = rest.indexOf(w); return i < 0 ? rest.length : i; }));
    found.set(Number(m[1]), rest.slice(0, end));
  }
  return found;
}
const refs = (s) => [...(s || "").matchAll(/(\d+) 0 R/g)].map((m) => Number(m[1]));
// The pages in order, each with its internal links: where each goes and its rectangle.
function pages(pdf) {
  const objs = objects(pdf);
  const root = [...objs.entries()].find(([, d]) => /\/Type \/Catalog/.test(d));
  const list = [];
  const walk = (n) => {
    const d = objs.get(n);
    if (/\/Type \/Pages/.test(d)) refs(d.match(/\/Kids \[([^\]]*)\]/)[1]).forEach(walk);
    else list.push(d);
  };
  walk(refs(root[1].match(/\/Pages (\d+ 0 R)/)[1])[0]);
  return list.map((d) => {
    const annots = d.match(/\/Annots \[([^\]]*)\]/);
    return refs(annots && annots[1]).map((a) => {
      const o = objs.get(a);
      const dest = o.match(/\/Dest\s*(?:\/([\w.-]+)|\(([^)]*)\))/);
      const rect = o.match(/\/Rect \[([^\]]*)\]/)[1].trim().split(/\s+/).map(Number);
      return { dest: dest && (dest[1] || dest[2]), rect };
    });
  });
}

for (const [format, size] of Object.entries(paper)) {
  // Laid out as print at the content box's width, to measure each problem's height.
  await page.emulateMedia({ media: "print" });
  await page.setViewportSize({ width: Math.floor((size.width - 24) * MM), height: 1000 });
  check(!(await page.isVisible("#p1 details")) && !(await page.isVisible(".intro .screen")),
    `${format}: no “Solution” buttons and no word of clicking on paper`);
  check(await page.isVisible(".intro .print") && await page.isVisible("#s1"),
    `${format}: the solutions printed at the end`);
  const shapes = await page.$$eval("section.problem", (all) => all.map((s) => {
    const r = s.getBoundingClientRect();
    return { height: r.height, link: s.querySelector("h2 a").getBoundingClientRect().top - r.top };
  }));
  if (format === "A4") await page.screenshot({ path: path.join(out, "book-print.png") });

  const pdf = await page.pdf({ format });
  fs.writeFileSync(path.join(out, `book-${format}.pdf`), pdf);
  const read = pages(pdf);
  const where = new Map();
  read.forEach((links, i) => links.forEach((l) => { if (l.dest) where.set(l.dest, { page: i, rect: l.rect }); }));
  const problem_pages = Math.ceil(N / 6);
  const misplaced = [];
  const cut = [];
  let lowest = Infinity;
  for (let n = 1; n <= N; n++) {
    const w = where.get("s" + n);
    if (w === undefined || w.page !== Math.floor((n - 1) / 6)) {
      misplaced.push(n);
      continue;
    }
    // The problem's bottom: its number's top, less the problem's height below that top.
    const bottom = w.rect[3] + shapes[n - 1].link * PT - shapes[n - 1].height * PT;
    lowest = Math.min(lowest, bottom);
    if (bottom < bottom_margin_pt - 1) cut.push(n);
  }
  check(misplaced.length === 0, `${format}: six problems a page, each number a link to its solution (misplaced: ${misplaced})`);
  check(cut.length === 0, `${format}: every problem whole on its page, the lowest ending ${lowest.toFixed(0)} pt above the paper's edge (cut: ${cut})`);
  const back = where.get("p1");
  check(back !== undefined && back.page === problem_pages, `${format}: the solutions begin on page ${problem_pages + 1}`);
  check(read.length <= problem_pages + 2, `${format}: ${read.length} pages in all`);
  await page.emulateMedia({ media: "screen" });
}

check(errors.length === 0, "no errors on the way");
await browser.close();
