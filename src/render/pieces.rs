//! What every page with pieces shares so that they look right on any machine and read for
//! any reader: the piece font embedded in the page (the twelve glyphs the pieces and hands
//! use, a subset of Noto Serif CJK JP, `fonts/README.md`), so that no CJK font need be
//! installed; and the switch between kanji and letters, shown on the page and remembered
//! in the browser.
//!
//! A page draws every piece with both labels, classed `lbl-k` (kanji) and `lbl-l` (SFEN
//! letters); the root element's `data-labels` (`kanji` or `letters`) shows one of them. The
//! switch is two radio buttons: with scripts it sets `data-labels` and keeps the choice in
//! `localStorage` (`toritsume-labels`), shared by every page; without them the style sheet
//! follows the checked button (`:has`), for the visit.

use super::svg::Labels;
use base64::Engine as _;

/// The embedded font: the pieces' kanji, the quails' 左 and 右, and the hands' ☗ and ☖.
const FONT: &[u8] = include_bytes!("fonts/tori-pieces.woff2");

/// The family the embedded font is declared as.
pub const FAMILY: &str = "Tori Pieces";

/// The font list pieces are drawn with: the embedded font first, so that every machine draws
/// the same glyphs, then the CJK fonts a machine may have, for anything outside it.
pub const PIECE_FONTS: &str = "'Tori Pieces','Noto Serif CJK JP','Noto Sans CJK JP',serif";

/// The `@font-face` rule declaring the embedded font, its data inline.
pub fn font_face() -> String {
    format!(
        "@font-face{{font-family:'{FAMILY}';src:url(data:font/woff2;base64,{}) format('woff2');\
         font-display:block}}",
        base64::engine::general_purpose::STANDARD.encode(FONT)
    )
}

/// The style rules of the switch and of the labels it shows.
const SWITCH_STYLE: &str = "\
.lbl-l{display:none}\
html[data-labels=letters] .lbl-k{display:none}html[data-labels=letters] .lbl-l{display:inline}\
html:has(#labels-letters:checked) .lbl-k{display:none}\
html:has(#labels-letters:checked) .lbl-l{display:inline}\
html:has(#labels-kanji:checked) .lbl-k{display:inline}\
html:has(#labels-kanji:checked) .lbl-l{display:none}\
.labels-switch{display:inline-flex;gap:.6em;align-items:center;font-size:.9em}\
.labels-switch label{cursor:pointer}\
.kanji-sample{font-family:'Tori Pieces','Noto Serif CJK JP',serif}\
@media print{.labels-switch{display:none}}";

/// The style a page with pieces carries: the embedded font and the switch's rules.
pub fn style() -> String {
    format!("{}{SWITCH_STYLE}", font_face())
}

/// The switch, its button for `default` checked (the choice a reader made earlier, kept by
/// the browser, wins once the page's script has run).
pub fn switch(default: Labels) -> String {
    let checked = |l: Labels| if l == default { " checked" } else { "" };
    format!(
        "<span class=\"labels-switch\" role=\"radiogroup\" aria-label=\"Piece labels\">Pieces:\
         <label><input type=\"radio\" name=\"labels\" id=\"labels-kanji\" value=\"kanji\"{}> \
         <span lang=\"ja\" class=\"kanji-sample\">鶴</span> kanji</label>\
         <label><input type=\"radio\" name=\"labels\" id=\"labels-letters\" value=\"letters\"{}> \
         C letters</label></span>",
        checked(Labels::Kanji),
        checked(Labels::Letters)
    )
}

/// The root element's attribute for `default` labels: `data-labels="kanji"`.
pub fn root_attribute(default: Labels) -> &'static str {
    match default {
        Labels::Kanji => "data-labels=\"kanji\"",
        Labels::Letters => "data-labels=\"letters\"",
    }
}

/// The script that takes up the reader's earlier choice and keeps a new one (a page opened
/// from a file may be denied storage: then the choice lasts the visit).
pub const SWITCH_SCRIPT: &str = r#"(function () {
  "use strict";
  var KEY = "toritsume-labels";
  var root = document.documentElement;
  function apply(v) {
    if (v !== "kanji" && v !== "letters") return;
    root.dataset.labels = v;
    var b = document.getElementById("labels-" + v);
    if (b) b.checked = true;
  }
  try { apply(window.localStorage.getItem(KEY)); } catch (e) { /* no storage */ }
  document.addEventListener("change", function (ev) {
    var t = ev.target;
    if (!t || t.name !== "labels") return;
    apply(t.value);
    try { window.localStorage.setItem(KEY, t.value); } catch (e) { /* no storage */ }
  });
})();"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_font_is_a_woff2_file_and_goes_whole_into_the_rule() {
        assert_eq!(&FONT[..4], b"wOF2");
        let rule = font_face();
        let data = rule
            .split("base64,")
            .nth(1)
            .and_then(|r| r.split(')').next())
            .unwrap();
        let back = base64::engine::general_purpose::STANDARD
            .decode(data)
            .unwrap();
        assert_eq!(back, FONT);
    }

    #[test]
    fn the_switch_checks_the_default_and_the_root_says_it() {
        assert!(switch(Labels::Letters).contains("value=\"letters\" checked"));
        assert!(!switch(Labels::Letters).contains("value=\"kanji\" checked"));
        assert_eq!(root_attribute(Labels::Kanji), "data-labels=\"kanji\"");
    }
}
