// What the browser tests share: the command line (PAGE.html OUT_DIR), the system Chromium
// launched headless (CHROMIUM names it; /usr/bin/chromium by default) with a page whose
// errors and network requests are collected, and `check`, which says "ok: ..." or throws.
import { chromium } from "playwright-core";
import { pathToFileURL } from "node:url";
import path from "node:path";

// The page's file:// URL, the output directory, the browser, a 1100×900 page, and the
// errors seen on it so far (script errors, and any request: the pages fetch nothing).
export async function open_page() {
  const [page_file, out] = process.argv.slice(2);
  const url = pathToFileURL(path.resolve(page_file)).href;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("requestfailed", (r) => errors.push("request " + r.url()));
  return { url, out, browser, page, errors };
}

// Says "ok: WHAT", or fails the run with "failed: WHAT".
export function check(ok, what) {
  if (!ok) throw new Error("failed: " + what);
  console.log("ok: " + what);
}
