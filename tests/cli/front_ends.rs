//! `toritsume diagram` and `toritsume book`: what the files hold, that nothing the user has is
//! overwritten, and (heavy, needs Debian's `chromium`) that a browser renders the book.

use crate::common::run;
use std::path::{Path, PathBuf};
use std::process::Command;

fn classic() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("problems/classic.jsonl")
}

fn problem_count(path: &Path) -> usize {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .count()
}

#[test]
fn diagram_svg_of_the_start_position() {
    let dir = crate::common::scratch("svg");
    let out = dir.join("start.svg");
    let o = run(&["diagram", "startpos", "--svg", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let s = std::fs::read_to_string(&out).unwrap();
    assert!(s.starts_with("<svg class=\"board\" xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(s.ends_with("</svg>"));
    // 32 pieces on the board, none in hand; White's 16 are turned round.
    assert_eq!(s.matches("<polygon").count(), 32);
    assert_eq!(s.matches("rotate(180").count(), 16);
    // Grid: the frame and 6 + 6 inner lines; file labels 7..1 and rank labels a..g.
    assert_eq!(s.matches("<line").count(), 12);
    for label in ["7", "1", "a", "g"] {
        assert!(s.contains(&format!(">{label}</text>")), "label {label}");
    }
    // Kanji by default: phoenix 鵬, crane 鶴, pheasant 雉, quails 鶉 with 左/右, falcon 鷹,
    // swallow 燕.
    for k in ["鵬", "鶴", "雉", "鶉", "左", "右", "鷹", "燕"] {
        assert!(s.contains(k), "kanji {k}");
    }
    // Never fetches anything.
    assert!(!s.contains("href") && !s.contains("<image"));

    // The file exists now: a second run refuses, --force overwrites.
    let again = run(&["diagram", "startpos", "--svg", out.to_str().unwrap()]);
    assert_eq!(again.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&again.stderr).contains("exists"));
    let letters = run(&[
        "diagram",
        "startpos",
        "--letters",
        "--force",
        "--svg",
        out.to_str().unwrap(),
    ]);
    assert!(letters.status.success());
    let s = std::fs::read_to_string(&out).unwrap();
    assert!(!s.contains("鵬"));
    assert_eq!(s.matches(">K</text>").count(), 2);
}

#[test]
fn diagram_marks_promoted_pieces_and_shows_hands() {
    let dir = crate::common::scratch("svg-hands");
    let out = dir.join("p.svg");
    // Black: an eagle (+F) and a goose (+S) on the board, 2 swallows and a crane in hand;
    // White: a pheasant in hand.
    let o = run(&[
        "diagram",
        "--svg",
        out.to_str().unwrap(),
        "3k3/7/7/7/+F3+S2/7/3K3 b 2SCp 1",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let s = std::fs::read_to_string(&out).unwrap();
    // 4 on the board + 3 kinds in hand.
    assert_eq!(s.matches("<polygon").count(), 7);
    // Promoted pieces in red: eagle 鵰 and goose 鴈.
    assert_eq!(s.matches("#b00000").count(), 2);
    assert!(s.contains("鵰") && s.contains("鴈"));
    assert!(s.contains("×2"));
    assert!(s.contains("☗") && s.contains("☖"));
}

#[test]
fn diagram_rejects_a_bad_position() {
    let dir = crate::common::scratch("svg-bad");
    let out = dir.join("bad.svg");
    let o = run(&["diagram", "--svg", out.to_str().unwrap(), "7/7/7 b - 1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(!out.exists());
}

/// `toritsume book` of the classic set to `out`.
/// `toritsume book OPTIONS... INPUT --out OUT`.
fn book(input: &Path, out: &Path, options: &[&str]) -> std::process::Output {
    let mut args = vec!["book"];
    args.extend_from_slice(options);
    args.extend([input.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    run(&args)
}

fn classic_book(out: &Path) -> std::process::Output {
    book(&classic(), out, &[])
}

#[test]
fn book_holds_every_problem_with_hidden_solutions() {
    let dir = crate::common::scratch("book");
    let out = dir.join("book.html");
    let o = classic_book(&out);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let html = std::fs::read_to_string(&out).unwrap();
    let n = problem_count(&classic());
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert_eq!(html.matches("<svg class=\"board\"").count(), n);
    assert_eq!(html.matches("<section class=\"problem\"").count(), n);
    // Each solution sits inside a closed <details>, so it shows only when clicked.
    assert_eq!(
        html.matches("<details><summary>Solution</summary>").count(),
        n
    );
    assert!(!html.contains("<details open"));
    // The first classic problem is a mate in 1 whose answer is given in Hodges.
    let first: serde_json::Value = serde_json::from_str(
        std::fs::read_to_string(classic())
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    let hodges = first["hodges"][0].as_str().unwrap();
    let section = html.split("<section").nth(1).unwrap();
    assert!(section.contains("Mate in 1 ply"));
    assert!(section.contains(&format!("1.&nbsp;{hodges}")));
    // Every solution again at the end, in order, each linked to and from its problem.
    let answers = html.split("<section class=\"answers\"").nth(1).unwrap();
    assert_eq!(answers.matches("<li id=\"s").count(), n);
    assert!(answers.contains(&format!(
        "<li id=\"s1\"><a href=\"#p1\" title=\"Back to the problem\">No. 1</a> · Mate in 1 ply: \
         <span class=\"solution\">1.&nbsp;{hodges}</span>"
    )));
    assert!(section.contains("<a href=\"#s1\""));
    assert!(html.contains("Black (☗) to move and mate; White (☖) holds every piece not shown."));
    // Self-contained: no scripts, stylesheets, images or fonts from anywhere. Its one
    // script is inline (the labels switch's memory), its one font a data: URL.
    for bad in [
        "<script src",
        "<link",
        "<img",
        "src=",
        "@import",
        "url(http",
        "url(/",
    ] {
        assert!(!html.contains(bad), "{bad}");
    }
    assert_eq!(html.matches("<script>").count(), 1);
    assert_eq!(html.matches("url(").count(), 1);
    assert!(html.contains("url(data:font/woff2;base64,"));
    // Refuses to overwrite.
    let again = classic_book(&out);
    assert_eq!(again.status.code(), Some(2));
}

#[test]
fn book_names_a_bad_line() {
    let dir = crate::common::scratch("book-bad");
    let input = dir.join("p.jsonl");
    std::fs::write(
        &input,
        "{\"sfen\":\"3k3/7/7/7/7/7/3K3 b S 1\"}\n{\"sfen\":\"oops\"}\n",
    )
    .unwrap();
    let out = dir.join("book.html");
    let o = book(&input, &out, &[]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("line 2") || err.contains("problem 2"), "{err}");
    assert!(!out.exists());
}

/// `book --tries`: each solution followed by the close tries (one refutation each), here
/// classic No. 1's three worked out by hand in `solver::tries`; the same book on one thread
/// and on two; refused with `--interactive`.
#[test]
fn book_tries_follow_each_solution() {
    let dir = crate::common::scratch("book-tries");
    let mut pages = Vec::new();
    for threads in ["1", "2"] {
        let out = dir.join(format!("book{threads}.html"));
        let o = book(&classic(), &out, &["--tries", "--threads", threads]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        pages.push(std::fs::read_to_string(&out).unwrap());
    }
    assert_eq!(pages[0], pages[1]);
    let tries = "Tries: Fax2b+? Phx2b! · Fa-1b+? Phx1b! · Cr*3b? Ph-1a!";
    let first = pages[0].split("<section class=\"problem\"").nth(1).unwrap();
    assert!(
        first.contains(&format!("<p class=\"tries\">{tries}</p>")),
        "{first}"
    );
    assert!(pages[0].contains(&format!("<span class=\"tries\">{tries}.</span>")));
    let o = book(
        &classic(),
        &dir.join("t.html"),
        &["--tries", "--interactive"],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(!dir.join("t.html").exists());
}

/// A file of positions where records are wanted is named as such, with the way to make
/// records of it; that way makes a book.
#[test]
fn book_of_positions_says_how_to_make_records_of_them() {
    let dir = crate::common::scratch("book-positions");
    let input = dir.join("mine.sfen");
    let positions = "4pk1/5l1/3C2F/7/7/7/7 b C 1\n1k5/2S4/7/FC5/7/7/7 b FRS 1\n";
    std::fs::write(&input, positions).unwrap();
    let out = dir.join("book.html");
    let o = book(&input, &out, &[]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("line 1 of ")
            && err.contains("a position, not a problem record")
            && err.contains("toritsume verify --json FILE"),
        "{err}"
    );
    assert!(!out.exists());
    let records = run(&["solve", "--json", input.to_str().unwrap()]);
    assert!(records.status.success());
    let o = crate::common::run_with_input(
        &["book", "-", "--out", out.to_str().unwrap()],
        &String::from_utf8_lossy(&records.stdout),
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let html = std::fs::read_to_string(&out).unwrap();
    assert_eq!(html.matches("<section class=\"problem\"").count(), 2);
    assert!(html.contains("1.&nbsp;Cr*1b"));
}

fn chromium() -> String {
    std::env::var("CHROMIUM").unwrap_or_else(|_| {
        for c in ["chromium", "chromium-browser", "google-chrome"] {
            if Command::new("sh")
                .args(["-c", &format!("command -v {c}")])
                .output()
                .map(|o| o.status.success())
                .unwrap_or(false)
            {
                return c.to_string();
            }
        }
        panic!("no chromium found: install Debian's chromium package (.ci/run does)")
    })
}

fn headless(profile: &Path) -> Command {
    let mut c = Command::new(chromium());
    c.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-quic",
    ])
    .arg(format!("--user-data-dir={}", profile.display()));
    c
}

#[test]
#[ignore = "needs chromium; .ci/run installs it"]
fn chromium_renders_the_book() {
    let dir = crate::common::scratch("chromium");
    let out = dir.join("book.html");
    let o = classic_book(&out);
    assert!(o.status.success());
    let url = format!("file://{}", out.display());

    let shot = dir.join("book.png");
    let s = headless(&dir.join("profile1"))
        .arg(format!("--screenshot={}", shot.display()))
        .arg("--window-size=1200,1600")
        .arg(&url)
        .output()
        .expect("chromium runs");
    assert!(
        s.status.success(),
        "chromium failed: {}",
        String::from_utf8_lossy(&s.stderr)
    );
    let png = std::fs::read(&shot).expect("a screenshot was written");
    crate::common::keep_screenshot(&shot, "book.png");
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    // The IHDR chunk holds the size asked for.
    let w = u32::from_be_bytes(png[16..20].try_into().unwrap());
    let h = u32::from_be_bytes(png[20..24].try_into().unwrap());
    assert_eq!((w, h), (1200, 1600));
    assert!(
        png.len() > 20_000,
        "a blank page would compress far smaller"
    );

    // The DOM as the browser built it: one board per problem, solutions collapsed.
    let d = headless(&dir.join("profile2"))
        .arg("--dump-dom")
        .arg(&url)
        .output()
        .expect("chromium runs");
    assert!(d.status.success());
    let dom = String::from_utf8_lossy(&d.stdout);
    let n = problem_count(&classic());
    assert_eq!(dom.matches("<svg class=\"board\"").count(), n);
    assert_eq!(dom.matches("<details>").count(), n);
}

/// `toritsume book --interactive` of the classic set to `out`.
fn train_page(out: &std::path::Path) -> std::process::Output {
    book(&classic(), out, &["--interactive"])
}

#[test]
fn interactive_book_carries_every_playable_problem_and_nothing_from_the_network() {
    let dir = crate::common::scratch("train");
    let out = dir.join("train.html");
    let o = train_page(&out);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let err = String::from_utf8_lossy(&o.stderr);
    // The classic set: 36 records, two of them no-mates (nothing to play).
    assert!(err.contains("34 problems written"), "{err}");
    assert!(err.contains("2 records without a mate left out"), "{err}");
    let html = std::fs::read_to_string(&out).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(
        !html.contains("http://") && !html.contains("https://"),
        "no network resource"
    );
    assert!(
        !html.contains("<script src") && !html.contains("<link"),
        "everything inline"
    );
    let start = html.find("type=\"application/json\">").unwrap() + 24;
    let end = start + html[start..].find("</script>").unwrap();
    let data: serde_json::Value = serde_json::from_str(&html[start..end]).unwrap();
    let problems = data["problems"].as_array().unwrap();
    assert_eq!(problems.len(), 34);
    // No. 7 (C*2b 1c1b F*2a) accepts its three final duals at the last move, as the
    // verifier lists them.
    let seven = problems.iter().find(|p| p["n"] == 7).unwrap();
    assert_eq!(seven["moves"], serde_json::json!(["C*2b", "1c1b", "F*2a"]));
    let mut last: Vec<&str> = seven["final"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert_eq!(last.remove(0), "F*2a");
    last.sort();
    assert_eq!(last, ["2e1f", "F*1c", "F*2c"]);
    // Never overwritten without --force.
    let again = train_page(&out);
    assert_eq!(again.status.code(), Some(2));
}

/// Runs `tests/browser/SCRIPT PAGE DIR` with node and the system Chromium, and returns what it
/// said; fails the test, with everything it said, when the script does.
pub(crate) fn drive_in_chromium(script: &str, page: &Path, dir: &Path) -> String {
    let browser = Command::new("sh")
        .args(["-c", &format!("command -v {}", chromium())])
        .output()
        .expect("sh runs");
    let browser = String::from_utf8_lossy(&browser.stdout).trim().to_string();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    assert!(
        root.join("tests/browser/node_modules/playwright-core")
            .exists(),
        "run `npm ci --prefix tests/browser` first (.ci/run does)"
    );
    let r = Command::new("node")
        .arg(root.join("tests/browser").join(script))
        .arg(page)
        .arg(dir.as_os_str())
        .env("CHROMIUM", browser)
        .output()
        .expect("node runs");
    let said = String::from_utf8_lossy(&r.stdout).to_string();
    assert!(
        r.status.success(),
        "{said}\n{}",
        String::from_utf8_lossy(&r.stderr)
    );
    said
}

/// Asserts that `dir/name` is a PNG with something on it, and keeps it.
pub(crate) fn kept_screenshot(dir: &Path, name: &str) {
    let png = std::fs::read(dir.join(name)).expect("a screenshot");
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    assert!(
        png.len() > 20_000,
        "{name}: a blank page would compress far smaller"
    );
    crate::common::keep_screenshot(&dir.join(name), name);
}

#[test]
#[ignore = "needs chromium, and node with tests/browser's packages; .ci/run installs them"]
fn a_person_trains_on_the_interactive_page_in_chromium() {
    let dir = crate::common::scratch("train-chromium");
    let out = dir.join("train.html");
    let o = train_page(&out);
    assert!(o.status.success());
    let said = drive_in_chromium("train.mjs", &out, &dir);
    // Every step the script checks said ok, the last among them.
    assert!(said.contains("ok: after a reload the solved problems are marked solved"));
    assert!(said.contains("ok: No. 7 solved with a final dual's move"));
    assert!(said.contains("ok: Fa*6b? answered by Phx6b!"));
    for shot in ["train-solved.png", "train-refuted.png", "train-phone.png"] {
        kept_screenshot(&dir, shot);
    }
}

#[test]
#[ignore = "needs chromium, and node with tests/browser's packages; .ci/run installs them"]
fn a_person_reads_the_book_on_a_screen_and_prints_it_in_chromium() {
    let dir = crate::common::scratch("book-chromium");
    let out = dir.join("book.html");
    let o = classic_book(&out);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let said = drive_in_chromium("book.mjs", &out, &dir);
    assert!(said.contains("ok: No. 5's full solution at the end"));
    for paper in ["A4", "Letter"] {
        assert!(
            said.contains(&format!("ok: {paper}: every problem whole on its page")),
            "{said}"
        );
        let pdf = std::fs::read(dir.join(format!("book-{paper}.pdf"))).expect("a PDF");
        assert!(pdf.starts_with(b"%PDF-"));
    }
    assert!(said.contains("ok: no errors on the way"));
    for shot in ["book-desktop.png", "book-phone.png", "book-print.png"] {
        kept_screenshot(&dir, shot);
    }
}

/// A fontconfig file for Chromium that lists only the directories of this machine's fonts
/// in which no font has Japanese, Chinese or Korean glyphs: a machine without a CJK font.
fn fontconfig_without_cjk(dir: &Path) -> PathBuf {
    let files = |pattern: &str| -> Vec<String> {
        let o = Command::new("fc-list")
            .args([pattern, "--format", "%{file}\n"])
            .output()
            .expect("fc-list runs (fontconfig, which Chromium needs)");
        String::from_utf8_lossy(&o.stdout)
            .lines()
            .map(str::to_string)
            .collect()
    };
    let cjk: Vec<String> = [":lang=ja", ":lang=zh-cn", ":lang=ko"]
        .iter()
        .flat_map(|p| files(p))
        .collect();
    let parent = |f: &str| Path::new(f).parent().map(|p| p.to_path_buf());
    let cjk_dirs: std::collections::BTreeSet<PathBuf> =
        cjk.iter().filter_map(|f| parent(f)).collect();
    let dirs: std::collections::BTreeSet<PathBuf> = files(":")
        .iter()
        .filter_map(|f| parent(f))
        .filter(|d| !cjk_dirs.contains(d))
        .collect();
    assert!(
        !dirs.is_empty(),
        "no font without CJK glyphs on this machine"
    );
    let mut conf = String::from(
        "<?xml version=\"1.0\"?>\n<!DOCTYPE fontconfig SYSTEM \"fonts.dtd\">\n<fontconfig>\n",
    );
    for d in &dirs {
        conf.push_str(&format!("<dir>{}</dir>\n", d.display()));
    }
    conf.push_str(&format!(
        "<cachedir>{}</cachedir>\n</fontconfig>\n",
        dir.join("fontcache").display()
    ));
    let path = dir.join("fonts.conf");
    std::fs::write(&path, conf).unwrap();
    path
}

#[test]
#[ignore = "needs chromium, fontconfig, and node with tests/browser's packages; .ci/run installs them"]
fn every_page_draws_its_pieces_without_a_cjk_font_and_switches_to_letters() {
    let dir = crate::common::scratch("fonts-chromium");
    let (book_page, train, editor) = (
        dir.join("book.html"),
        dir.join("train.html"),
        dir.join("editor.html"),
    );
    assert!(classic_book(&book_page).status.success());
    assert!(train_page(&train).status.success());
    assert!(
        run(&[
            "editor",
            "--out",
            editor.to_str().unwrap(),
            "1k5/2S4/7/FC5/7/7/7 b FRS 1"
        ])
        .status
        .success()
    );
    let browser = Command::new("sh")
        .args(["-c", &format!("command -v {}", chromium())])
        .output()
        .expect("sh runs");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let r = Command::new("node")
        .arg(root.join("tests/browser/fonts.mjs"))
        .arg(dir.as_os_str())
        .args([&book_page, &train, &editor])
        .env("CHROMIUM", String::from_utf8_lossy(&browser.stdout).trim())
        .env("FONTCONFIG_FILE", fontconfig_without_cjk(&dir))
        .output()
        .expect("node runs");
    let said = String::from_utf8_lossy(&r.stdout).to_string();
    assert!(
        r.status.success(),
        "{said}\n{}",
        String::from_utf8_lossy(&r.stderr)
    );
    for page in ["book", "train", "editor"] {
        assert!(
            said.contains(&format!("ok: {page}: this browser has no CJK font")),
            "{said}"
        );
        assert!(
            said.contains(&format!("ok: {page}: 鵬 drawn by the page's own font")),
            "{said}"
        );
        assert!(
            said.contains(&format!("ok: {page}: opened again, it still shows letters")),
            "{said}"
        );
        for labels in ["kanji", "letters"] {
            kept_screenshot(&dir, &format!("fonts-{page}-{labels}.png"));
        }
    }
}
