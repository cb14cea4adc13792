// The position editor: a person sets up a Tori Shogi position by clicks or keys, and the
// page keeps its SFEN, what is wrong with it (the checks `toritsume` makes when it reads
// a position), the hand the defender holds under the tsume convention, and the command
// lines that solve and verify it. The position is kept in the address (#SFEN), so that a
// bookmark or a shared link brings it back.
(function () {
  "use strict";
  var B = ToriBoard;
  var data = JSON.parse(document.getElementById("editor-data").textContent);
  var $ = function (id) { return document.getElementById(id); };
  var START = "rpckcpl/3f3/sssssss/2s1S2/SSSSSSS/3F3/LPCKCPR b - 1";
  // How many of each kind the game has (a promoted piece counts as its kind).
  var TOTAL = { K: 2, F: 2, C: 4, P: 4, L: 2, R: 2, S: 16 };
  // The palette: each kind as it stands on the board, promoted ones after their own.
  var KINDS = [["K", false], ["F", false], ["F", true], ["C", false], ["P", false],
    ["L", false], ["R", false], ["S", false], ["S", true]];

  var pos = null;           // {board, hands: {b, w}, side}
  var given = false;        // White's hand as given (else the rest, the tsume convention)
  var tool = { kind: "move" }; // "move", "erase", or {kind: "piece", c, k, p}
  var carried = null;       // the square whose piece the move tool has picked up
  var focusSq = "4d";
  var undone = [], redone = []; // positions to go back and forward to ({text, given})

  // ---- rules the page checks --------------------------------------------------------
  // Black-relative (rank step, file step towards file 1) offsets of the stepping moves,
  // and the ranging directions with how far they reach.
  var STEPS = {
    S: [[-1, 0]],
    P: [[-2, 0], [1, -1], [1, 1]],
    C: [[-1, -1], [-1, 1], [1, -1], [1, 1], [-1, 0], [1, 0]],
    L: [[1, -1]],
    R: [[1, 1]],
    F: [[-1, -1], [-1, 0], [-1, 1], [0, -1], [0, 1], [1, -1], [1, 1]],
    "+S": [[-2, -2], [-2, 2], [2, 0]],
    K: [[-1, -1], [-1, 0], [-1, 1], [0, -1], [0, 1], [1, -1], [1, 0], [1, 1]]
  };
  STEPS["+F"] = STEPS.K;
  var RANGES = {
    L: [[-1, 0, 7], [1, 1, 7]],
    R: [[-1, 0, 7], [1, -1, 7]],
    "+F": [[-1, 1, 7], [-1, -1, 7], [1, 0, 7], [1, 1, 2], [1, -1, 2]]
  };

  function square(file, rank) {
    if (file < 1 || file > 7 || rank < 0 || rank > 6) return null;
    return file + B.RANKS[rank];
  }

  // The squares the piece on `sq` attacks.
  function attacks(board, sq) {
    var pc = board[sq];
    var key = (pc.p ? "+" : "") + pc.k;
    var sign = pc.c === "b" ? 1 : -1;
    var file = Number(sq[0]), rank = B.RANKS.indexOf(sq[1]);
    var out = [];
    (STEPS[key] || []).forEach(function (d) {
      var to = square(file - sign * d[1], rank + sign * d[0]);
      if (to) out.push(to);
    });
    (RANGES[key] || []).forEach(function (d) {
      for (var n = 1; n <= d[2]; n++) {
        var to = square(file - sign * d[1] * n, rank + sign * d[0] * n);
        if (!to) break;
        out.push(to);
        if (board[to]) break;
      }
    });
    return out;
  }

  function colourName(c) { return c === "b" ? "Black" : "White"; }

  // Whether `c`'s phoenix (the first found) stands attacked.
  function inCheck(board, c) {
    var phoenix = null;
    Object.keys(board).forEach(function (sq) {
      var pc = board[sq];
      if (pc.c === c && pc.k === "K" && !phoenix) phoenix = sq;
    });
    if (!phoenix) return false;
    return Object.keys(board).some(function (sq) {
      return board[sq].c !== c && attacks(board, sq).indexOf(phoenix) >= 0;
    });
  }

  // How many of each kind (a promoted piece as its kind) stand on the board or lie in
  // Black's hand, and in White's too when `withWhite`.
  function tally(p, withWhite) {
    var n = {};
    Object.keys(TOTAL).forEach(function (k) {
      n[k] = (p.hands.b[k] || 0) + (withWhite ? (p.hands.w[k] || 0) : 0);
    });
    Object.keys(p.board).forEach(function (sq) { n[p.board[sq].k]++; });
    return n;
  }

  // What White holds under the tsume convention: every piece neither on the board nor in
  // Black's hand (none where the position already has too many).
  function rest(p) {
    var used = tally(p, false);
    var h = {};
    B.HAND_ORDER.forEach(function (k) { h[k] = Math.max(0, TOTAL[k] - used[k]); });
    return h;
  }

  // What is wrong with the position, as `toritsume` words it when it reads one.
  function problems(p) {
    var out = [];
    var phoenixes = { b: 0, w: 0 };
    var count = tally(p, given);
    var swallows = {};
    Object.keys(p.board).sort().forEach(function (sq) {
      var pc = p.board[sq];
      if (pc.k === "K") phoenixes[pc.c]++;
      if (pc.k === "S" && !pc.p) {
        var last = pc.c === "b" ? "a" : "g";
        if (sq[1] === last) out.push(colourName(pc.c) + " swallow on " + sq + ", its last rank, where it could never move");
        var key = pc.c + sq[0];
        swallows[key] = (swallows[key] || 0) + 1;
      }
    });
    ["b", "w"].forEach(function (c) {
      if (phoenixes[c] > 1) out.push(colourName(c) + " has more than one phoenix");
    });
    var other = p.side === "b" ? "w" : "b";
    if (phoenixes[other] === 0) out.push(colourName(other) + " (the side not to move) has no phoenix");
    Object.keys(TOTAL).forEach(function (k) {
      if (k !== "K" && count[k] > TOTAL[k]) {
        out.push("too many " + B.NAMES[k] + "s: " + count[k] + " on the board and in hand, the game has " + TOTAL[k]);
      }
    });
    Object.keys(swallows).sort().forEach(function (key) {
      if (swallows[key] > 2) {
        out.push(colourName(key[0]) + " has " + swallows[key] + " unpromoted swallows on file " + key[1] + " (at most two are allowed)");
      }
    });
    if (phoenixes[other] === 1 && inCheck(p.board, other)) out.push(colourName(other) + " (the side not to move) is in check");
    return out;
  }

  // ---- the position's text ---------------------------------------------------------
  function sfen() { return B.writeSfen(pos, given); }

  function command(verb) {
    return "toritsume " + verb + (given ? " --defender-hand given" : "") + ' "' + sfen() + '"';
  }

  // The address's part after `#`: the SFEN, and `&hand=given` when White's hand is given
  // (a given hand may equal the rest, which the SFEN alone would take for the convention).
  function address() {
    return encodeURIComponent(sfen()) + (given ? "&hand=given" : "");
  }

  // Loads the position an address names; false when it names none that can be read.
  function loadAddress(hash) {
    var parts = hash.replace(/^#/, "").split("&hand=");
    if (!parts[0]) return false;
    if (!load(decodeURIComponent(parts[0]))) return false;
    if (parts[1] === "given" && !given) {
      given = true;
      pos.hands.w = rest(pos);
      draw();
    }
    return true;
  }

  // `text` as SFEN: an SFEN as it is, `startpos`, or a FEN (`board[hands] w|b ...`, as
  // Fairy-Stockfish and pychess-variants write it, `w` for Black). Throws on moves after it.
  function asSfen(text) {
    text = text.trim();
    if (/(^|\s)moves(\s|$)/.test(text)) throw new Error("the editor reads a position without moves after it");
    if (text === "startpos") return START;
    var open = text.indexOf("[");
    if (open < 0) return text;
    var close = text.indexOf("]", open);
    if (close < 0) throw new Error("no `]` closes the hands in the FEN");
    var side = text.slice(close + 1).trim().split(/\s+/)[0] || "w";
    if (side !== "w" && side !== "b") throw new Error("expected `w` (Black, the first player) or `b` (White) in FEN, found `" + side + "`");
    return text.slice(0, open) + " " + (side === "w" ? "b" : "w") + " " + (text.slice(open + 1, close) || "-") + " 1";
  }

  // A problem record (a line of a problem file, `{"sfen": ..., ...}`, with `position` or
  // `fen` in its place, or a pychess-variants puzzle's `f`): its position, and whether it
  // gives White's hand (`"defender_hand": "given"`). Throws when it has none, or is a puzzle
  // of another variant.
  function fromRecord(text) {
    var r;
    try {
      r = JSON.parse(text);
    } catch (e) {
      throw new Error("not valid JSON: " + e.message);
    }
    var field = r && ["sfen", "position", "fen", "f"].filter(function (k) { return k in r; })[0];
    if (!field || typeof r[field] !== "string") throw new Error("a problem record needs its `sfen`");
    if (field === "f" && typeof r.v === "string" && r.v.toLowerCase() !== "torishogi") {
      throw new Error("a puzzle of `" + r.v + "`, not of Tori Shogi (`torishogi`)");
    }
    return { sfen: r[field], given: r.defender_hand === "given" };
  }

  // An EPD line of Fairy-Stockfish's puzzle tools (`FEN;variant torishogi;bm ...`): its FEN.
  // Throws when it is of another variant.
  function fromEpd(text) {
    var ops = text.split(";");
    ops.slice(1).forEach(function (op) {
      var m = /^\s*variant\s+(\S+)/.exec(op);
      if (m && m[1].toLowerCase() !== "torishogi") {
        throw new Error("a puzzle of `" + m[1] + "`, not of Tori Shogi (`torishogi`)");
      }
    });
    return ops[0];
  }

  // Loads `text` (SFEN, FEN, startpos, a problem record or an EPD line); says what is wrong
  // and keeps the board when it cannot.
  function load(text) {
    var p, record = null;
    try {
      if (text.trim()[0] === "{") {
        record = fromRecord(text.trim());
        text = record.sfen;
      } else if (text.indexOf(";") > text.indexOf("[") && text.indexOf("[") >= 0) {
        text = fromEpd(text);
      }
      p = B.parseSfen(asSfen(text));
    } catch (e) {
      $("load-error").textContent = e.message;
      return false;
    }
    $("load-error").textContent = "";
    if (pos) remember();
    pos = p;
    // A White hand that is empty or exactly the rest is the convention's; any other is given.
    var w = B.writeSfen({ board: {}, hands: { b: {}, w: pos.hands.w }, side: "b" }, true);
    var r = B.writeSfen({ board: {}, hands: { b: {}, w: rest(pos) }, side: "b" }, true);
    given = record ? record.given
      : !(w === r || Object.keys(pos.hands.w).every(function (k) { return !pos.hands.w[k]; }));
    if (!given) pos.hands.w = {};
    carried = null;
    draw();
    return true;
  }

  // ---- drawing ---------------------------------------------------------------------
  function drawBoard() {
    var b = $("board");
    b.textContent = "";
    for (var r = 0; r < 7; r++) {
      for (var file = 7; file >= 1; file--) {
        var sq = file + B.RANKS[r];
        var btn = document.createElement("button");
        btn.className = "sq" + (carried === sq ? " selected" : "");
        btn.dataset.sq = sq;
        btn.setAttribute("aria-label", B.describe(pos.board, sq));
        btn.tabIndex = sq === focusSq ? 0 : -1;
        var pc = pos.board[sq];
        if (pc) btn.appendChild(B.pieceSpan(pc));
        btn.addEventListener("click", onSquare.bind(null, sq));
        btn.addEventListener("focus", function (sq) { focusSq = sq; }.bind(null, sq));
        btn.addEventListener("contextmenu", function (sq, e) {
          e.preventDefault();
          put(sq, null);
        }.bind(null, sq));
        b.appendChild(btn);
      }
    }
  }

  // A side's hand: each kind with its count and buttons to take one away or add one.
  function drawHand(side) {
    var el = $("hand-" + side);
    B.handRow(el, side === "b" ? "☗ Black holds" : "☖ White holds");
    if (side === "w" && !given) {
      var r = rest(pos);
      var span = document.createElement("span");
      span.className = "rest";
      var kinds = B.HAND_ORDER.filter(function (k) { return r[k]; });
      span.textContent = "the rest:" + (kinds.length ? "" : " nothing");
      kinds.forEach(function (k) {
        span.appendChild(document.createTextNode(" "));
        span.appendChild(B.handLabel(k, r[k]));
      });
      span.id = "rest";
      el.appendChild(span);
      return;
    }
    B.HAND_ORDER.forEach(function (k) {
      var n = pos.hands[side][k] || 0;
      var group = document.createElement("span");
      group.className = "count" + (n ? "" : " none");
      group.dataset.kind = k;
      var minus = document.createElement("button");
      minus.className = "less";
      minus.textContent = "−";
      minus.disabled = n === 0;
      minus.setAttribute("aria-label", "one " + B.NAMES[k] + " fewer in " + colourName(side) + "'s hand");
      minus.addEventListener("click", function () { setHand(side, k, n - 1); });
      var label = document.createElement("span");
      label.className = "hand " + side;
      label.appendChild(B.handLabel(k, n));
      var plus = document.createElement("button");
      plus.className = "more";
      plus.textContent = "+";
      plus.disabled = n >= TOTAL[k];
      plus.setAttribute("aria-label", "one " + B.NAMES[k] + " more in " + colourName(side) + "'s hand");
      plus.addEventListener("click", function () { setHand(side, k, n + 1); });
      group.appendChild(minus);
      group.appendChild(label);
      group.appendChild(plus);
      el.appendChild(group);
    });
  }

  function drawPalette() {
    var el = $("palette");
    el.textContent = "";
    ["b", "w"].forEach(function (c) {
      var row = document.createElement("div");
      row.className = "row";
      var who = document.createElement("span");
      who.className = "who";
      who.textContent = colourName(c);
      row.appendChild(who);
      KINDS.forEach(function (kp) {
        var btn = document.createElement("button");
        var pc = { c: c, k: kp[0], p: kp[1] };
        btn.className = "tool" + (tool.kind === "piece" && tool.c === c && tool.k === kp[0] && tool.p === kp[1] ? " selected" : "");
        btn.dataset.piece = (kp[1] ? "+" : "") + (c === "b" ? kp[0] : kp[0].toLowerCase());
        btn.setAttribute("aria-label", colourName(c) + " " + B.NAMES[(kp[1] ? "+" : "") + kp[0]]);
        btn.title = btn.getAttribute("aria-label");
        btn.appendChild(B.pieceSpan(pc));
        btn.addEventListener("click", function () { setTool({ kind: "piece", c: c, k: kp[0], p: kp[1] }); });
        row.appendChild(btn);
      });
      el.appendChild(row);
    });
    ["move", "erase"].forEach(function (t) {
      $("tool-" + t).classList.toggle("selected", tool.kind === t);
    });
  }

  function drawText() {
    var s = sfen();
    if ($("sfen") !== document.activeElement) $("sfen").value = s;
    $("cmd-solve").textContent = command("solve");
    $("cmd-verify").textContent = command("verify");
    $("side-" + pos.side).checked = true;
    $("undo").disabled = undone.length === 0;
    $("redo").disabled = redone.length === 0;
    $("hand-" + (given ? "given" : "rest")).checked = true;
    var wrong = problems(pos);
    var ul = $("problems");
    ul.textContent = "";
    wrong.forEach(function (w) {
      var li = document.createElement("li");
      li.textContent = w;
      ul.appendChild(li);
    });
    $("verdict").textContent = wrong.length ? "Not a legal position:" : "A legal position.";
    $("verdict").className = wrong.length ? "wrong" : "ok";
    var checked = pos.side && inCheck(pos.board, pos.side);
    $("state").textContent = colourName(pos.side) + " to move" + (checked ? ", in check" : "") + ".";
    try {
      history.replaceState(null, "", "#" + address());
    } catch (e) { /* a page that may not change its address */ }
  }

  function draw() {
    drawBoard();
    drawHand("b");
    drawHand("w");
    drawPalette();
    drawText();
  }

  // ---- editing ---------------------------------------------------------------------
  // The position as it is, to come back to.
  function snapshot() { return { text: B.writeSfen(pos, true), given: given }; }

  // Called before each change: the position before it can be had back with Undo.
  function remember() {
    undone.push(snapshot());
    if (undone.length > 500) undone.shift();
    redone = [];
  }

  // Undo (from `undone` to `redone`) or Redo (the other way).
  function step(from, to) {
    if (!from.length) return;
    to.push(snapshot());
    var s = from.pop();
    pos = B.parseSfen(s.text);
    given = s.given;
    if (!given) pos.hands.w = {};
    carried = null;
    draw();
  }

  function put(sq, pc) {
    var here = pos.board[sq];
    if (pc || here) remember();
    if (pc) pos.board[sq] = pc; else delete pos.board[sq];
    focusSq = sq;
    draw();
    focusBoard();
  }

  function setHand(side, k, n) {
    remember();
    pos.hands[side][k] = Math.max(0, Math.min(TOTAL[k], n));
    draw();
  }

  function setTool(t) {
    tool = t;
    carried = null;
    draw();
  }

  function onSquare(sq) {
    focusSq = sq;
    var here = pos.board[sq];
    if (tool.kind === "erase") return put(sq, null);
    if (tool.kind === "piece") {
      var same = here && here.c === tool.c && here.k === tool.k && here.p === tool.p;
      return put(sq, same ? null : { c: tool.c, k: tool.k, p: tool.p });
    }
    // The move tool: pick a piece up, then put it down (on a piece, replacing it).
    if (carried) {
      var pc = pos.board[carried];
      var from = carried;
      carried = null;
      if (from !== sq) {
        remember();
        delete pos.board[from];
        pos.board[sq] = pc;
      }
      draw();
      return focusBoard();
    }
    if (here) carried = sq;
    draw();
    focusBoard();
  }

  function focusBoard() {
    var el = document.querySelector('#board .sq[data-sq="' + focusSq + '"]');
    if (el) el.focus();
  }

  // Keys on the board: arrows move; a piece letter puts that piece (upper case Black's, as
  // in SFEN), + promotes or unpromotes it, Delete or Backspace empties the square.
  function onKey(e) {
    if (!e.target.classList || !e.target.classList.contains("sq")) return;
    var file = Number(focusSq[0]), rank = B.RANKS.indexOf(focusSq[1]);
    var moves = { ArrowLeft: [1, 0], ArrowRight: [-1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (moves[e.key]) {
      var to = square(file + moves[e.key][0], rank + moves[e.key][1]);
      if (to) { focusSq = to; drawBoard(); focusBoard(); }
      e.preventDefault();
      return;
    }
    if (e.key === "Delete" || e.key === "Backspace") { put(focusSq, null); e.preventDefault(); return; }
    if (e.key === "+") {
      var pc = pos.board[focusSq];
      if (pc && (pc.k === "F" || pc.k === "S")) put(focusSq, { c: pc.c, k: pc.k, p: !pc.p });
      e.preventDefault();
      return;
    }
    if (e.key.length === 1 && "KFCPLRS".indexOf(e.key.toUpperCase()) >= 0 && !e.ctrlKey && !e.metaKey && !e.altKey) {
      var up = e.key.toUpperCase();
      put(focusSq, { c: e.key === up ? "b" : "w", k: up, p: false });
      e.preventDefault();
    }
  }

  // Copies `text` to the clipboard; where the page may not, selects it (`selectIt`) for a
  // copy by hand, and says which.
  function copy(text, selectIt) {
    var by_hand = function () {
      selectIt();
      $("copied").textContent = "Selected: copy it with Ctrl+C.";
    };
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(function () { $("copied").textContent = "Copied."; }, by_hand);
    } else {
      by_hand();
    }
  }

  // Selects the text of the element `id`.
  function selectText(id) {
    var range = document.createRange();
    range.selectNodeContents($(id));
    var s = window.getSelection();
    s.removeAllRanges();
    s.addRange(range);
  }

  // ---- start -----------------------------------------------------------------------
  $("board").addEventListener("keydown", onKey);
  $("tool-move").addEventListener("click", function () { setTool({ kind: "move" }); });
  $("tool-erase").addEventListener("click", function () { setTool({ kind: "erase" }); });
  $("side-b").addEventListener("change", function () { remember(); pos.side = "b"; draw(); });
  $("side-w").addEventListener("change", function () { remember(); pos.side = "w"; draw(); });
  $("hand-rest").addEventListener("change", function () { remember(); given = false; pos.hands.w = {}; draw(); });
  $("hand-given").addEventListener("change", function () { remember(); given = true; pos.hands.w = rest(pos); draw(); });
  $("undo").addEventListener("click", function () { step(undone, redone); });
  $("redo").addEventListener("click", function () { step(redone, undone); });
  // Ctrl+Z and Ctrl+Y (or Ctrl+Shift+Z) anywhere but in the SFEN field, which keeps its own.
  document.addEventListener("keydown", function (e) {
    if (!(e.ctrlKey || e.metaKey) || e.target === $("sfen")) return;
    var key = e.key.toLowerCase();
    if (key === "z" && !e.shiftKey) step(undone, redone);
    else if (key === "y" || (key === "z" && e.shiftKey)) step(redone, undone);
    else return;
    e.preventDefault();
    focusBoard();
  });
  $("load").addEventListener("click", function () { load($("sfen").value); });
  $("sfen").addEventListener("keydown", function (e) { if (e.key === "Enter") load($("sfen").value); });
  $("clear").addEventListener("click", function () { load("7/7/7/7/7/7/7 b - 1"); });
  $("start").addEventListener("click", function () { load(START); });
  $("copy-sfen").addEventListener("click", function () {
    copy(sfen(), function () { $("sfen").select(); });
  });
  ["solve", "verify"].forEach(function (verb) {
    $("copy-" + verb).addEventListener("click", function () {
      copy(command(verb), function () { selectText("cmd-" + verb); });
    });
  });
  window.addEventListener("hashchange", function () {
    if (location.hash.slice(1) !== address()) loadAddress(location.hash);
  });

  if (!loadAddress(location.hash)) load(data.sfen);
  document.body.dataset.ready = "1";
})();
