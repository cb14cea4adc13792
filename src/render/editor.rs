//! The position editor: one self-contained HTML file (inline script and style, no network,
//! works from `file://`) on which a person sets up a position by clicks or keys and reads
//! off its SFEN, what is wrong with it, the hand the defender holds under the tsume
//! convention, and the command lines that solve and verify it. The page carries only the
//! position it opens on and the piece labels; `editor.js` does the rest.

use super::svg::Labels;
use crate::notation::sfen::write_sfen;
use crate::rules::Position;
use serde_json::json;

/// The page's script and style sheet, after what the pages with a board share.
const SCRIPT: &str = concat!(include_str!("board.js"), include_str!("editor.js"));
const STYLE: &str = concat!(include_str!("board.css"), include_str!("editor.css"));

/// The position the page opens on when given none: White's phoenix alone, on 4a.
pub const EMPTY_START: &str = "3k3/7/7/7/7/7/7 b - 1";

/// The editor page, opening on `start` (or [`EMPTY_START`]; an address that names a
/// position, `editor.html#SFEN`, opens on that one instead), its pieces labelled with
/// `labels`.
pub fn editor_page(start: Option<&Position>, labels: Labels) -> String {
    let sfen = start.map_or_else(|| EMPTY_START.to_string(), write_sfen);
    let data = json!({ "sfen": sfen, "letters": labels == Labels::Letters });
    let data = super::inline_json(&data);
    format!(
        r#"<!DOCTYPE html>
<html lang="en" {root}><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tori Shogi position editor</title><style>{pieces}{STYLE}</style></head>
<body>
<header><h1>Tori Shogi position editor</h1>{switch}</header>
<main>
<section id="edit" aria-label="position">
<div class="hands" id="hand-w" aria-label="White's hand"></div>
<div class="frame">
<div class="files" aria-hidden="true"><span>7</span><span>6</span><span>5</span><span>4</span><span>3</span><span>2</span><span>1</span></div><div></div>
<div id="board" role="grid" aria-label="board"></div>
<div class="ranks" aria-hidden="true"><span>a</span><span>b</span><span>c</span><span>d</span><span>e</span><span>f</span><span>g</span></div>
</div>
<div class="hands" id="hand-b" aria-label="Black's hand"></div>
<p id="state" role="status"></p>
<div id="palette" aria-label="pieces"></div>
<div id="tools"><button id="tool-move">Move</button><button id="tool-erase">Erase</button>
<button id="undo" title="Ctrl+Z">Undo</button><button id="redo" title="Ctrl+Y">Redo</button></div>
<p class="keys">Choose a piece above, then click squares (the same piece again takes it
off); with Move, click a piece and then where it goes. A right click empties a square.
Keys on the board: arrows move, a letter puts a piece (K F C P L R S, upper case
Black's, as in SFEN), + promotes or unpromotes it, Delete empties the square. Ctrl+Z undoes, Ctrl+Y redoes.</p>
</section>
<aside id="side" aria-label="tools">
<fieldset><legend>To move</legend>
<label><input type="radio" name="side" id="side-b"> Black</label>
<label><input type="radio" name="side" id="side-w"> White</label></fieldset>
<fieldset><legend>White's hand</legend>
<label><input type="radio" name="hand" id="hand-rest"> the rest (the tsume convention)</label>
<label><input type="radio" name="hand" id="hand-given"> as given</label></fieldset>
<div class="controls"><button id="clear">Empty board</button><button id="start">Start position</button></div>
<h2><label for="sfen">SFEN</label> <small>(or paste a FEN, startpos or a line of a problem file, then Load)</small></h2>
<input id="sfen" spellcheck="false" autocomplete="off">
<div class="controls"><button id="load">Load</button><button id="copy-sfen">Copy</button></div>
<p id="load-error" role="alert"></p>
<p id="verdict"></p>
<ul id="problems"></ul>
<h2>Solve and verify it</h2>
<code class="cmd" id="cmd-solve"></code><button id="copy-solve">Copy</button>
<code class="cmd" id="cmd-verify"></code><button id="copy-verify">Copy</button>
<p id="copied" role="status"></p>
</aside>
</main>
<script id="editor-data" type="application/json">{data}</script>
<script>{SCRIPT}</script>
<script>{switch_script}</script>
</body></html>
"#,
        root = super::pieces::root_attribute(labels),
        pieces = super::pieces::style(),
        switch = super::pieces::switch(labels),
        switch_script = super::pieces::SWITCH_SCRIPT,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_position;

    #[test]
    fn the_page_opens_on_the_position_given_and_is_self_contained() {
        let pos = parse_position("1k5/2SS3/P6/1C5/7/7/7 b FRS 1").expect("a position");
        let page = editor_page(Some(&pos), Labels::Kanji);
        assert!(page.contains(r#""sfen":"1k5/2SS3/P6/1C5/7/7/7 b FRS 1""#));
        assert!(page.contains(r#""letters":false"#));
        // Nothing is fetched: no external script, style sheet or image.
        for outside in ["src=", "href=", "http"] {
            assert!(!page.contains(outside), "the page refers to `{outside}`");
        }
        let empty = editor_page(None, Labels::Letters);
        assert!(empty.contains(r#""sfen":"3k3/7/7/7/7/7/7 b - 1""#));
        assert!(empty.contains(r#""letters":true"#));
    }
}
