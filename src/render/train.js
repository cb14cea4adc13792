// The training page: the problems are in #problems (JSON); the user plays the attacker by
// clicking a piece (or a piece in hand) and then a square, the page answers with the main
// line's defence, and says whether each move is the solution. Progress is kept in
// localStorage under a key of this set's own.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("problems").textContent);
  var problems = data.problems;
  var storeKey = "toritsume-train:" + data.set;
  var B = ToriBoard;
  var NAMES = B.NAMES;
  var HAND_ORDER = B.HAND_ORDER;
  var parseSfen = B.parseSfen;
  var $ = function (id) { return document.getElementById(id); };

  function parseMove(usi) {
    if (usi[1] === "*") return { drop: usi[0], to: usi.slice(2, 4) };
    return { from: usi.slice(0, 2), to: usi.slice(2, 4), promo: usi[4] === "+" };
  }

  function play(pos, usi) {
    var m = parseMove(usi);
    var side = pos.side;
    if (m.drop) {
      pos.hands[side][m.drop]--;
      pos.board[m.to] = { c: side, k: m.drop, p: false };
    } else {
      var pc = pos.board[m.from];
      var taken = pos.board[m.to];
      if (taken) pos.hands[side][taken.k] = (pos.hands[side][taken.k] || 0) + 1;
      pos.board[m.to] = { c: side, k: pc.k, p: pc.p || m.promo };
      delete pos.board[m.from];
    }
    pos.side = side === "b" ? "w" : "b";
    return m;
  }

  function sameMove(a, b) {
    var x = parseMove(a), y = parseMove(b);
    return x.to === y.to && x.drop === y.drop && x.from === y.from;
  }

  // ---- progress --------------------------------------------------------------------
  function loadProgress() {
    try { return JSON.parse(localStorage.getItem(storeKey)) || {}; } catch (e) { return {}; }
  }
  function saveProgress(p) {
    try { localStorage.setItem(storeKey, JSON.stringify(p)); } catch (e) { /* private mode */ }
  }
  var progress = loadProgress();

  // ---- state -----------------------------------------------------------------------
  var cur = 0;          // index into problems
  var pos = null;       // the position on the board
  var ply = 0;          // moves of the main line played
  var selected = null;  // {from: "4b"} or {drop: "S"}
  var busy = false;     // the defence is being played
  var mode = "play";    // "play", "solved", "solution"
  var started = 0;
  var slipped = false;  // a wrong move, a hint or the solution was seen
  var marks = {};       // square -> class (last move, hint, wrong)
  var focusSq = "4d";

  function problem() { return problems[cur]; }
  function attacker() { return parseSfen(problem().sfen).side; }

  function describe(sq) { return B.describe(pos.board, sq); }

  // ---- drawing ---------------------------------------------------------------------
  function drawBoard() {
    var b = $("board");
    b.textContent = "";
    for (var r = 0; r < 7; r++) {
      for (var file = 7; file >= 1; file--) {
        var sq = file + "abcdefg"[r];
        var btn = document.createElement("button");
        btn.className = "sq";
        btn.dataset.sq = sq;
        btn.setAttribute("aria-label", describe(sq));
        btn.tabIndex = sq === focusSq ? 0 : -1;
        var pc = pos.board[sq];
        if (pc) {
          var span = B.pieceSpan(pc, marks[sq] === "moved" ? "arrive" : "");
          btn.appendChild(span);
        }
        if (selected && selected.from === sq) btn.classList.add("selected");
        if (marks[sq]) btn.classList.add(marks[sq]);
        btn.addEventListener("click", onSquare.bind(null, sq));
        b.appendChild(btn);
      }
    }
    drawHand("b");
    drawHand("w");
  }

  function drawHand(side) {
    var el = $("hand-" + side);
    B.handRow(el, side === "b" ? "☗ Black" : "☖ White");
    HAND_ORDER.forEach(function (k) {
      var n = pos.hands[side][k] || 0;
      if (!n) return;
      var btn = document.createElement("button");
      btn.className = "hand " + side;
      btn.dataset.kind = k;
      btn.dataset.side = side;
      btn.setAttribute("aria-label", (side === "b" ? "Black" : "White") + " " + NAMES[k] + " in hand, " + n);
      btn.appendChild(B.handLabel(k, n));
      if (selected && selected.drop === k && side === pos.side) btn.classList.add("selected");
      if (marks["hand-" + k] && side === attacker()) btn.classList.add(marks["hand-" + k]);
      btn.addEventListener("click", onHand.bind(null, side, k));
      el.appendChild(btn);
    });
  }

  function say(text, cls) {
    var m = $("message");
    m.textContent = text;
    m.className = cls || "";
  }

  function drawLine() {
    var p = problem();
    var ol = $("line");
    ol.textContent = "";
    p.hodges.forEach(function (h, i) {
      if (i >= ply && mode !== "solution") return;
      var li = document.createElement("span");
      li.className = "mv" + (i === ply - 1 ? " now" : "");
      li.textContent = (i % 2 === 0 ? (i / 2 + 1) + ". " : "") + h;
      ol.appendChild(li);
      ol.appendChild(document.createTextNode(" "));
    });
  }

  function drawStatus() {
    var p = problem();
    $("title").textContent = "No. " + p.n + " · mate in " + p.plies + (p.plies === 1 ? " ply" : " plies") +
      (p.rating ? " · rating " + p.rating : "");
    $("themes").textContent = p.themes.length ? p.themes.join(", ") : "";
    $("note").textContent = p.note || "";
    $("step-prev").disabled = mode !== "solution" || ply === 0;
    $("step-next").disabled = mode !== "solution" || ply >= p.moves.length;
    $("hint").disabled = mode !== "play";
    $("prev").disabled = visible().indexOf(cur) <= 0;
    var v = visible();
    $("next").disabled = v.indexOf(cur) === v.length - 1 || v.indexOf(cur) < 0;
  }

  function draw() {
    drawBoard();
    drawLine();
    drawStatus();
    drawList();
  }

  // ---- the problem list ------------------------------------------------------------
  function visible() {
    var len = $("f-length").value, theme = $("f-theme").value;
    var lo = Number($("f-min").value) || 0, hi = Number($("f-max").value) || 1e9;
    var out = [];
    problems.forEach(function (p, i) {
      if (len && String(p.plies) !== len) return;
      if (theme && p.themes.indexOf(theme) < 0) return;
      var r = p.rating || 0;
      if (r < lo || r > hi) return;
      out.push(i);
    });
    return out;
  }

  function drawList() {
    var ul = $("list");
    ul.textContent = "";
    var v = visible();
    v.forEach(function (i) {
      var p = problems[i];
      var li = document.createElement("li");
      var btn = document.createElement("button");
      btn.className = "entry" + (i === cur ? " current" : "");
      btn.dataset.n = p.n;
      var st = progress[p.n] && progress[p.n].result;
      btn.dataset.status = st || "new";
      btn.textContent = (st === "solved" ? "✓ " : st === "failed" ? "✗ " : "· ") + "No. " + p.n +
        " · " + p.plies + (p.plies === 1 ? " ply" : " plies") + (p.rating ? " · " + p.rating : "");
      btn.addEventListener("click", function () { load(i); });
      li.appendChild(btn);
      ul.appendChild(li);
    });
    var solved = 0, failed = 0;
    problems.forEach(function (p) {
      var s = progress[p.n] && progress[p.n].result;
      if (s === "solved") solved++;
      if (s === "failed") failed++;
    });
    $("count").textContent = v.length + " of " + problems.length + " shown · " + solved + " solved · " + failed + " failed";
  }

  function fillFilters() {
    var lengths = {}, themes = {};
    problems.forEach(function (p) {
      lengths[p.plies] = true;
      p.themes.forEach(function (t) { themes[t] = true; });
    });
    Object.keys(lengths).map(Number).sort(function (a, b) { return a - b; }).forEach(function (l) {
      var o = document.createElement("option");
      o.value = String(l);
      o.textContent = l + " plies";
      $("f-length").appendChild(o);
    });
    Object.keys(themes).sort().forEach(function (t) {
      var o = document.createElement("option");
      o.value = t;
      o.textContent = t;
      $("f-theme").appendChild(o);
    });
    ["f-length", "f-theme", "f-min", "f-max"].forEach(function (id) {
      $(id).addEventListener("input", function () {
        var v = visible();
        if (v.length && v.indexOf(cur) < 0) load(v[0]); else draw();
      });
    });
  }

  // ---- playing ---------------------------------------------------------------------
  function load(i) {
    cur = i;
    pos = parseSfen(problem().sfen);
    ply = 0;
    selected = null;
    busy = false;
    mode = "play";
    slipped = false;
    marks = {};
    started = Date.now();
    draw();
    var side = pos.side === "b" ? "Black" : "White";
    say(side + " to move and mate in " + problem().plies + (problem().plies === 1 ? " ply." : " plies."));
    try { history.replaceState(null, "", "#" + problem().n); } catch (e) { /* file: */ }
  }

  function record(result) {
    var n = problem().n;
    var before = progress[n] && progress[n].result;
    if (before === "solved") return;
    progress[n] = { result: result, ms: Date.now() - started };
    saveProgress(progress);
  }

  function onHand(side, k) {
    if (mode !== "play" || busy || side !== pos.side) return;
    selected = selected && selected.drop === k ? null : { drop: k };
    draw();
  }

  function onSquare(sq) {
    focusSq = sq;
    if (mode !== "play" || busy) return;
    var pc = pos.board[sq];
    if (pc && pc.c === pos.side) {
      selected = selected && selected.from === sq ? null : { from: sq };
      draw();
      focusBoard();
      return;
    }
    if (!selected) return;
    var usi = selected.drop ? selected.drop + "*" + sq : selected.from + sq;
    selected = null;
    attempt(usi);
  }

  function attempt(usi) {
    var p = problem();
    var accepted = ply === p.moves.length - 1 ? p.final : [p.moves[ply]];
    var match = null;
    accepted.forEach(function (m) { if (!match && sameMove(m, usi)) match = m; });
    if (!match) {
      slipped = true;
      record("failed");
      var tries = p.tries && p.tries[(ply - ply % 2) / 2];
      var refuted = null;
      if (tries) {
        Object.keys(tries).forEach(function (k) { if (!refuted && sameMove(k, usi)) refuted = k; });
      }
      if (refuted) {
        refute(refuted, tries[refuted]);
        return;
      }
      var m = parseMove(usi);
      marks = {};
      marks[m.to] = "wrong";
      if (m.from) marks[m.from] = "wrong";
      // The tries name every check but the solution's: a move not among them gives none.
      say(tries ? "Not the solution: that move gives no check, and every move must — try again."
        : "Not the solution — try again.", "wrong");
      draw();
      focusBoard();
      return;
    }
    mark(play(pos, match));
    ply++;
    if (ply >= p.moves.length) {
      finish();
      return;
    }
    busy = true;
    say("…");
    draw();
    setTimeout(function () {
      var reply = p.moves[ply];
      mark(play(pos, reply));
      ply++;
      busy = false;
      say("Your move (" + p.hodges[ply - 1] + " was played).");
      draw();
      focusBoard();
    }, 450);
  }

  // A wrong check: it is played, then the defence that refutes it, and the board goes back.
  // `answer` is [the refutation (USI), the same in Hodges, how many defences refute it].
  function refute(check, answer) {
    busy = true;
    var back = ply;
    var board = pos; // the same object until another problem, or the solution, replaces it
    marks = {};
    var m = play(pos, check);
    marks[m.to] = "wrong";
    if (m.from) marks[m.from] = "wrong";
    say("…");
    draw();
    setTimeout(function () {
      mark(play(pos, answer[0]));
      var others = answer[2] > 1 ? " (and " + (answer[2] - 1) + " more defence" + (answer[2] > 2 ? "s" : "") + ")" : "";
      say("Not the solution: " + answer[1] + " refutes it" + others + " — try again.", "wrong");
      draw();
      setTimeout(function () {
        // Back to where the move was tried (unless another problem was opened meanwhile).
        if (pos !== board) return;
        pos = positionAt(back);
        marks = {};
        busy = false;
        draw();
        focusBoard();
      }, 1400);
    }, 450);
  }

  // The problem's position after the first `n` moves of its main line.
  function positionAt(n) {
    var p = problem();
    var at = parseSfen(p.sfen);
    for (var i = 0; i < n; i++) play(at, p.moves[i]);
    return at;
  }

  function mark(m) {
    marks = {};
    if (m.from) marks[m.from] = "from";
    marks[m.to] = "moved";
  }

  function finish() {
    mode = "solved";
    var secs = ((Date.now() - started) / 1000).toFixed(1);
    record(slipped ? "failed" : "solved");
    say("Solved in " + secs + " s" + (slipped ? " (with help or a wrong try)." : "."), "solved");
    draw();
  }

  function hint() {
    if (mode !== "play" || busy) return;
    var m = parseMove(problem().moves[ply]);
    marks = {};
    if (m.drop) marks["hand-" + m.drop] = "hint"; else marks[m.from] = "hint";
    slipped = true;
    say("Hint: the highlighted piece moves.", "hint");
    draw();
  }

  function showSolution() {
    mode = "solution";
    slipped = true;
    record("failed");
    pos = parseSfen(problem().sfen);
    ply = 0;
    marks = {};
    selected = null;
    say("The solution, a move at a time: ▶ and ◀ step through it.");
    draw();
  }

  function step(d) {
    if (mode !== "solution") return;
    var p = problem();
    var target = Math.max(0, Math.min(p.moves.length, ply + d));
    pos = parseSfen(p.sfen);
    marks = {};
    for (var i = 0; i < target; i++) mark(play(pos, p.moves[i]));
    ply = target;
    say(ply === 0 ? "The start." : p.hodges[ply - 1] + (ply === p.moves.length ? " — mate." : ""));
    draw();
  }

  function move(d) {
    var v = visible();
    var at = v.indexOf(cur);
    var to = at < 0 ? 0 : at + d;
    if (to >= 0 && to < v.length) load(v[to]);
  }

  // ---- keyboard --------------------------------------------------------------------
  function focusBoard() {
    var b = document.querySelector('#board .sq[data-sq="' + focusSq + '"]');
    if (b && document.activeElement && document.activeElement.classList &&
        document.activeElement.classList.contains("sq")) b.focus();
  }

  $("board").addEventListener("keydown", function (e) {
    var t = e.target;
    if (!t.dataset || !t.dataset.sq) return;
    var file = Number(t.dataset.sq[0]), rank = "abcdefg".indexOf(t.dataset.sq[1]);
    var moves = { ArrowLeft: [1, 0], ArrowRight: [-1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    var d = moves[e.key];
    if (!d) return;
    e.preventDefault();
    file = Math.max(1, Math.min(7, file + d[0]));
    rank = Math.max(0, Math.min(6, rank + d[1]));
    focusSq = file + "abcdefg"[rank];
    drawBoard();
    document.querySelector('#board .sq[data-sq="' + focusSq + '"]').focus();
  });

  document.addEventListener("keydown", function (e) {
    var tag = (e.target.tagName || "").toLowerCase();
    if (tag === "input" || tag === "select" || e.ctrlKey || e.metaKey || e.altKey) return;
    var keys = {
      n: function () { move(1); }, p: function () { move(-1); }, h: hint,
      s: function () { if (mode === "solution") step(1); else showSolution(); },
      r: function () { load(cur); },
      Escape: function () { selected = null; draw(); }
    };
    if (mode === "solution") {
      keys["."] = function () { step(1); };
      keys[","] = function () { step(-1); };
    }
    if (keys[e.key]) { e.preventDefault(); keys[e.key](); }
  });

  $("hint").addEventListener("click", hint);
  $("solution").addEventListener("click", showSolution);
  $("step-next").addEventListener("click", function () { step(1); });
  $("step-prev").addEventListener("click", function () { step(-1); });
  $("retry").addEventListener("click", function () { load(cur); });
  $("next").addEventListener("click", function () { move(1); });
  $("prev").addEventListener("click", function () { move(-1); });
  $("reset-progress").addEventListener("click", function () {
    progress = {};
    saveProgress(progress);
    draw();
  });

  fillFilters();
  var start = 0;
  var want = Number((location.hash || "").slice(1));
  problems.forEach(function (p, i) { if (p.n === want) start = i; });
  load(start);
  document.body.dataset.ready = "1";
})();
