// What the pages that show a board share (the training page and the position editor):
// the pieces' names and kanji, SFEN read into {board, hands, side} and written back, and a
// piece drawn as the book draws it (an SVG pentagon with both labels). Squares are named as in USI ("4d": file 4, rank d); a piece is
// {c: "b"|"w", k: SFEN letter, p: promoted}.
var ToriBoard = (function () {
  "use strict";
  var KANJI = { K: "鵬", F: "鷹", "+F": "鵰", C: "鶴", P: "雉", L: "鶉", R: "鶉", S: "燕", "+S": "鴈" };
  var NAMES = {
    K: "phoenix", F: "falcon", "+F": "eagle", C: "crane", P: "pheasant",
    L: "left quail", R: "right quail", S: "swallow", "+S": "goose"
  };
  // The kinds a hand can hold, in the order SFEN writes them.
  var HAND_ORDER = ["F", "C", "P", "L", "R", "S"];
  var RANKS = "abcdefg";

  // Reads an SFEN (the move number may be left off); throws an Error naming what is wrong.
  function parseSfen(sfen) {
    var f = sfen.trim().split(/\s+/);
    if (!f[0]) throw new Error("empty position text");
    var board = {};
    var ranks = f[0].split("/");
    if (ranks.length !== 7) throw new Error("board field: " + ranks.length + " ranks, a board has 7");
    for (var r = 0; r < 7; r++) {
      var file = 7, promoted = false;
      for (var i = 0; i < ranks[r].length; i++) {
        var ch = ranks[r][i];
        if (ch === "+") { promoted = true; continue; }
        if (ch >= "1" && ch <= "7") { file -= Number(ch); continue; }
        var up = ch.toUpperCase();
        if ("KFCPLRS".indexOf(up) < 0) throw new Error("board field: `" + ch + "` is not a piece letter");
        if (promoted && up !== "F" && up !== "S") throw new Error("board field: `+" + ch + "` cannot be promoted");
        if (file < 1) throw new Error("board field: rank " + RANKS[r] + " has more than 7 squares");
        board[file + RANKS[r]] = { c: ch === up ? "b" : "w", k: up, p: promoted };
        promoted = false;
        file--;
      }
      if (file !== 0) throw new Error("board field: rank " + RANKS[r] + " has " + (file < 0 ? "more" : "fewer") + " than 7 squares");
    }
    if (f[1] && f[1] !== "b" && f[1] !== "w") throw new Error("side to move: `" + f[1] + "`, expected b or w");
    var hands = { b: {}, w: {} };
    var n = "";
    if (f[2] && f[2] !== "-") {
      for (var j = 0; j < f[2].length; j++) {
        var h = f[2][j];
        if (h >= "0" && h <= "9") { n += h; continue; }
        var side = h === h.toUpperCase() ? "b" : "w";
        var k = h.toUpperCase();
        if (HAND_ORDER.indexOf(k) < 0) throw new Error("hands: `" + h + "` cannot be held in hand");
        hands[side][k] = (hands[side][k] || 0) + (n ? Number(n) : 1);
        n = "";
      }
      if (n) throw new Error("hands: a count with no piece after it");
    }
    return { board: board, hands: hands, side: f[1] === "w" ? "w" : "b" };
  }

  // The hand `h` ({F: 2, ...}) in SFEN letters, upper case for Black: "2FS".
  function handSfen(h, side) {
    var s = "";
    HAND_ORDER.forEach(function (k) {
      var n = h[k] || 0;
      if (!n) return;
      s += (n > 1 ? n : "") + (side === "b" ? k : k.toLowerCase());
    });
    return s;
  }

  // The SFEN of `pos`, with White's hand only when `withWhiteHand`.
  function writeSfen(pos, withWhiteHand) {
    var rows = [];
    for (var r = 0; r < 7; r++) {
      var row = "", empty = 0;
      for (var file = 7; file >= 1; file--) {
        var pc = pos.board[file + RANKS[r]];
        if (!pc) { empty++; continue; }
        if (empty) { row += empty; empty = 0; }
        row += (pc.p ? "+" : "") + (pc.c === "b" ? pc.k : pc.k.toLowerCase());
      }
      if (empty) row += empty;
      rows.push(row);
    }
    var hands = handSfen(pos.hands.b, "b") + (withWhiteHand ? handSfen(pos.hands.w, "w") : "");
    return rows.join("/") + " " + pos.side + " " + (hands || "-") + " 1";
  }

  // An SVG text of a piece's label, classed `cls` (the page shows lbl-k or lbl-l). The
  // labels are this file's own constants: no text from outside goes into the markup.
  function labelText(cls, text, y, size) {
    return '<text class="' + cls + '" x="50" y="' + y + '" font-size="' + size +
      '" text-anchor="middle" dominant-baseline="central">' + text + "</text>";
  }

  // A piece as the book draws it: a pentagon pointing to its owner's front (White's turned
  // round), with both labels, its kanji (a quail marked 左 or 右 beneath) and its SFEN
  // letter, the page's switch showing one; a promoted one in red. `extra` adds classes.
  // Made by the HTML parser, which puts an <svg> and what it holds in the SVG namespace.
  function pieceSpan(pc, extra) {
    var key = (pc.p ? "+" : "") + pc.k;
    var markup = '<svg viewBox="0 0 100 100" class="pc ' + pc.c + (pc.p ? " promoted" : "") +
      (extra ? " " + extra : "") + '"><polygon points="50,7 81,21 88,91 12,91 19,21"/>' +
      labelText("lbl-k", KANJI[key], 54, 46) +
      (pc.k === "L" || pc.k === "R" ? labelText("lbl-k mark", pc.k === "L" ? "左" : "右", 80, 20) : "") +
      labelText("lbl-l", key, 54, key.length > 1 ? 36 : 46) + "</svg>";
    var tpl = document.createElement("template");
    tpl.innerHTML = markup;
    return tpl.content.firstChild;
  }

  // A kind in hand, `n` of it, as elements to put in a button or a line: its kanji (a
  // quail's with 左 or 右) and its letter, the page's switch showing one, and a count above
  // one.
  function handLabel(k, n) {
    var f = document.createDocumentFragment();
    var kanji = document.createElement("span");
    kanji.className = "lbl-k";
    kanji.textContent = KANJI[k] + (k === "L" ? "左" : k === "R" ? "右" : "");
    var letter = document.createElement("span");
    letter.className = "lbl-l";
    letter.textContent = k;
    f.appendChild(kanji);
    f.appendChild(letter);
    if (n !== 1) f.appendChild(document.createTextNode("×" + n));
    return f;
  }

  // Empties the element `el` (a hand's row) and starts it with its heading `text`.
  function handRow(el, text) {
    el.textContent = "";
    var who = document.createElement("span");
    who.className = "who";
    who.textContent = text;
    el.appendChild(who);
  }

  // "4d Black falcon", "4d empty".
  function describe(board, sq) {
    var pc = board[sq];
    if (!pc) return sq + " empty";
    return sq + " " + (pc.c === "b" ? "Black" : "White") + " " + NAMES[(pc.p ? "+" : "") + pc.k];
  }

  return {
    KANJI: KANJI, NAMES: NAMES, HAND_ORDER: HAND_ORDER, RANKS: RANKS,
    parseSfen: parseSfen, writeSfen: writeSfen, pieceSpan: pieceSpan, handLabel: handLabel,
    describe: describe, handRow: handRow
  };
})();
