// The book's step-through players and quizzes. No dependencies, no network.
//
// A player is a <div class="bt-player" data-trace="JSON"> written by
// `workbook book build` from a trace the reference solver recorded. The
// trace is a board (a grid, or a graph with drawn vertices) and a list of
// events [op, row, col, text, depth, say]; op is one of try, place, reject,
// undo, found. The state shown after k steps is computed by replaying the
// first k events from the empty board, so stepping back is exact and cheap
// (traces hold at most a few thousand events).
//
// A quiz is a <div class="bt-quiz"> of answer buttons; the answer and its
// explanation sit in a <details> that a click opens. The reader's answers
// are kept in localStorage only.
(function () {
  "use strict";

  var SVG = "http://www.w3.org/2000/svg";
  var CELL = 40;
  var PAD = 4;

  function el(tag, attrs, text) {
    var e = tag.indexOf("svg:") === 0
      ? document.createElementNS(SVG, tag.slice(4))
      : document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text !== undefined) { e.textContent = text; }
    return e;
  }

  // ---- the state after k events ------------------------------------------

  // Replays events[0..k): returns the cells' texts and states, the path of
  // choices (a stack of {key, text}), the counters and the last event.
  // A try only fills an empty cell (a visited or given one keeps its text),
  // a given cell is never cleared, and on a graph a vertex that is backed
  // out of stays seen ("done").
  function replay(trace, k) {
    var graph = trace.board.kind === "graph";
    var cells = {};
    trace.given.forEach(function (g) { cells[g[0] + "," + g[1]] = { text: g[2], st: "given" }; });
    var path = [];
    var nodes = 0;
    var backtracks = 0;
    var found = 0;
    for (var i = 0; i < k; i++) {
      var e = trace.events[i];
      var op = e[0];
      var key = e[1] + "," + e[2];
      var has = e[1] >= 0;
      var cell = cells[key];
      var given = cell && cell.st === "given";
      if (op === "try") {
        nodes++;
        if (has) {
          if (!cell) { cells[key] = { text: e[3], st: "try" }; }
          path.push({ key: key, text: e[3] });
        }
      } else if (op === "place") {
        if (has) {
          if (!given) { cells[key] = { text: e[3], st: "on" }; }
          var top = path[path.length - 1];
          if (top && top.key === key) { top.text = e[3]; } else { path.push({ key: key, text: e[3] }); }
        }
      } else if (op === "reject") {
        if (has && cell && cell.st === "try") { delete cells[key]; }
        if (has) { popTo(path, key); }
      } else if (op === "undo") {
        backtracks++;
        if (has && !given) {
          if (graph) { cells[key] = { text: e[3] || (cell && cell.text) || "", st: "done" }; } else { delete cells[key]; }
        }
        if (has) { popTo(path, key); }
      } else if (op === "found") {
        found++;
      }
    }
    return {
      cells: cells, path: path, nodes: nodes, backtracks: backtracks, found: found,
      last: k > 0 ? trace.events[k - 1] : null
    };
  }

  function popTo(path, key) {
    for (var i = path.length - 1; i >= 0; i--) {
      if (path[i].key === key) { path.length = i; return; }
    }
  }

  function pathText(trace, path) {
    if (!path.length) { return "(empty)"; }
    return path.map(function (p) {
      var rc = p.key.split(",");
      if (trace.board.kind === "graph") { return rc[0]; }
      return "(" + rc[0] + "," + rc[1] + ")" + (p.text ? "=" + p.text : "");
    }).join(" → ");
  }

  // ---- drawing -------------------------------------------------------------

  // Row numbers down the left, column numbers along the top, 0-based like
  // the code and the narration; a cell's top-left corner is at (x0, y0).
  var LBL = 22;

  function drawGrid(trace) {
    var b = trace.board;
    var x0 = LBL;
    var y0 = LBL;
    var w = x0 + b.cols * CELL + PAD;
    var h = y0 + b.rows * CELL + PAD;
    var svg = el("svg:svg", { viewBox: "0 0 " + w + " " + h, class: "bt-board", role: "img",
      "aria-label": trace.title + ": a " + b.rows + " by " + b.cols + " board" });
    var cells = {};
    for (var r = 0; r < b.rows; r++) {
      svg.appendChild(el("svg:text", { class: "lbl", x: x0 / 2, y: y0 + r * CELL + CELL / 2 + 5 }, String(r)));
      for (var c = 0; c < b.cols; c++) {
        if (r === 0) {
          svg.appendChild(el("svg:text", { class: "lbl", x: x0 + c * CELL + CELL / 2, y: y0 - 7 }, String(c)));
        }
        var g = el("svg:g", { "data-r": r, "data-c": c, class: "cell" });
        g.appendChild(el("svg:rect", { x: x0 + c * CELL, y: y0 + r * CELL, width: CELL, height: CELL }));
        var t = el("svg:text", { x: x0 + c * CELL + CELL / 2, y: y0 + r * CELL + CELL / 2 + 8, "font-size": 22 });
        g.appendChild(t);
        svg.appendChild(g);
        cells[r + "," + c] = g;
      }
    }
    for (var i = 0; i <= b.rows; i++) {
      svg.appendChild(el("svg:line", { class: b.box && i % b.box === 0 ? "gl thick" : "gl",
        x1: x0, y1: y0 + i * CELL, x2: x0 + b.cols * CELL, y2: y0 + i * CELL }));
    }
    for (var j = 0; j <= b.cols; j++) {
      svg.appendChild(el("svg:line", { class: b.box && j % b.box === 0 ? "gl thick" : "gl",
        x1: x0 + j * CELL, y1: y0, x2: x0 + j * CELL, y2: y0 + b.rows * CELL }));
    }
    return { svg: svg, cells: cells };
  }

  function drawGraph(trace) {
    var b = trace.board;
    var at = function (v) { return [20 + b.nodes[v][0] * 3.6, 20 + b.nodes[v][1] * 2.6]; };
    var svg = el("svg:svg", { viewBox: "0 0 400 300", class: "bt-board bt-graph", role: "img",
      "aria-label": trace.title + ": a graph of " + b.nodes.length + " vertices" });
    var defs = el("svg:defs");
    var marker = el("svg:marker", { id: "bt-arrow-" + trace.id, viewBox: "0 0 10 10", refX: "10", refY: "5",
      markerWidth: "7", markerHeight: "7", orient: "auto-start-reverse" });
    marker.appendChild(el("svg:path", { d: "M0,0 L10,5 L0,10 z", class: "arrow" }));
    defs.appendChild(marker);
    svg.appendChild(defs);
    b.edges.forEach(function (e) {
      var p = at(e[0]);
      var q = at(e[1]);
      var dx = q[0] - p[0];
      var dy = q[1] - p[1];
      var len = Math.sqrt(dx * dx + dy * dy) || 1;
      var s = 19 / len;
      svg.appendChild(el("svg:line", { class: "edge", x1: p[0] + dx * s, y1: p[1] + dy * s,
        x2: q[0] - dx * s, y2: q[1] - dy * s, "marker-end": "url(#bt-arrow-" + trace.id + ")" }));
    });
    var cells = {};
    b.nodes.forEach(function (n, v) {
      var p = at(v);
      var g = el("svg:g", { "data-r": v, "data-c": 0, class: "cell" });
      g.appendChild(el("svg:circle", { cx: p[0], cy: p[1], r: 17 }));
      g.appendChild(el("svg:text", { x: p[0], y: p[1] + 6, class: "v" }, n[2]));
      var t = el("svg:text", { x: p[0] + 30, y: p[1] + 6, class: "k" });
      g.appendChild(t);
      svg.appendChild(g);
      cells[v + ",0"] = g;
    });
    return { svg: svg, cells: cells };
  }

  // ---- one player ----------------------------------------------------------

  var OPS = { try: "try", place: "place", reject: "reject", undo: "undo (backtrack)", found: "found" };

  function Player(root) {
    var trace;
    try {
      trace = JSON.parse(root.getAttribute("data-trace"));
    } catch (err) {
      root.appendChild(el("p", { class: "bt-error" }, "This player's trace cannot be read: " + err));
      return;
    }
    this.trace = trace;
    this.root = root;
    this.k = 0;
    this.timer = null;
    root.textContent = "";
    root.setAttribute("tabindex", "0");
    root.setAttribute("role", "group");
    root.setAttribute("aria-label", "Step-through player: " + trace.title +
      ". Keys: right arrow steps, left arrow steps back, space plays or pauses, b jumps to the next backtrack.");
    root.appendChild(el("p", { class: "bt-title" }, trace.title));
    var drawn = trace.board.kind === "graph" ? drawGraph(trace) : drawGrid(trace);
    this.cells = drawn.cells;
    var stage = el("div", { class: "bt-stage" });
    stage.appendChild(drawn.svg);
    root.appendChild(stage);
    this.status = el("p", { class: "bt-status" });
    this.say = el("p", { class: "bt-say", "aria-live": "polite" });
    this.path = el("p", { class: "bt-path" });
    root.appendChild(this.status);
    root.appendChild(this.say);
    root.appendChild(this.path);
    root.appendChild(this.controls());
    root.appendChild(this.transcript());
    this.bindKeys();
    this.show();
  }

  Player.prototype.button = function (label, title, action) {
    var b = el("button", { type: "button", title: title, "aria-label": title, "data-action": action }, label);
    var self = this;
    b.addEventListener("click", function () { self.act(action); });
    return b;
  };

  Player.prototype.controls = function () {
    var bar = el("div", { class: "bt-controls" });
    bar.appendChild(this.button("« start", "Back to the start (Home)", "start"));
    bar.appendChild(this.button("◀", "Step back (left arrow)", "back"));
    this.playButton = this.button("Play", "Play or pause (space)", "play");
    bar.appendChild(this.playButton);
    bar.appendChild(this.button("▶|", "Step forward (right arrow)", "step"));
    bar.appendChild(this.button("↶ next backtrack", "Jump to the next backtrack (b)", "backtrack"));
    bar.appendChild(this.button("end »", "To the end (End)", "end"));
    var label = el("label", { class: "bt-speed" }, "speed ");
    var speed = el("select", { "aria-label": "Steps per second" });
    [1, 2, 5, 10, 30, 100].forEach(function (s) {
      var o = el("option", { value: s }, s + "/s");
      if (s === 5) { o.selected = true; }
      speed.appendChild(o);
    });
    var self = this;
    speed.addEventListener("change", function () { if (self.timer) { self.pause(); self.play(); } });
    this.speed = speed;
    label.appendChild(speed);
    bar.appendChild(label);
    return bar;
  };

  // The transcript lists every step as text, for screen readers and for
  // reading the whole run at once; it is built when first opened.
  Player.prototype.transcript = function () {
    var d = el("details", { class: "bt-transcript" });
    d.appendChild(el("summary", {}, "Transcript: every step as text (" + this.trace.events.length + " steps)"));
    var self = this;
    d.addEventListener("toggle", function () {
      if (!d.open || d.querySelector("ol")) { return; }
      var ol = el("ol");
      self.trace.events.forEach(function (e) {
        ol.appendChild(el("li", {}, "[depth " + e[4] + "] " + OPS[e[0]] + ": " + e[5]));
      });
      d.appendChild(ol);
    });
    return d;
  };

  Player.prototype.bindKeys = function () {
    var self = this;
    this.root.addEventListener("keydown", function (ev) {
      if (ev.target.tagName === "SELECT") { return; }
      // Space on a focused button presses that button; leave it alone.
      if (ev.target.tagName === "BUTTON" && (ev.key === " " || ev.key === "Enter")) { return; }
      var map = { ArrowRight: "step", ArrowLeft: "back", " ": "play", b: "backtrack", Home: "start", End: "end" };
      var action = map[ev.key];
      if (action) {
        ev.preventDefault();
        // mdBook turns pages on left/right arrows: not while in a player.
        ev.stopPropagation();
        self.act(action);
      }
    });
  };

  Player.prototype.act = function (action) {
    var n = this.trace.events.length;
    if (action !== "play") { this.pause(); }
    if (action === "step") { this.k = Math.min(n, this.k + 1); }
    if (action === "back") { this.k = Math.max(0, this.k - 1); }
    if (action === "start") { this.k = 0; }
    if (action === "end") { this.k = n; }
    if (action === "backtrack") {
      var i = this.k;
      while (i < n && this.trace.events[i][0] !== "undo") { i++; }
      this.k = Math.min(n, i + 1);
    }
    if (action === "play") {
      if (this.timer) { this.pause(); } else { this.play(); }
      return;
    }
    this.show();
  };

  Player.prototype.play = function () {
    var self = this;
    if (this.k >= this.trace.events.length) { this.k = 0; }
    this.playButton.textContent = "Pause";
    this.timer = setInterval(function () {
      if (self.k >= self.trace.events.length) { self.pause(); return; }
      self.k++;
      self.show();
    }, 1000 / Number(this.speed.value));
  };

  Player.prototype.pause = function () {
    if (this.timer) { clearInterval(this.timer); }
    this.timer = null;
    this.playButton.textContent = "Play";
  };

  Player.prototype.show = function () {
    var s = replay(this.trace, this.k);
    var graph = this.trace.board.kind === "graph";
    var self = this;
    Object.keys(this.cells).forEach(function (key) {
      var g = self.cells[key];
      var c = s.cells[key];
      var texts = g.querySelectorAll("text");
      var t = graph ? texts[1] : texts[0];
      t.textContent = c ? c.text : "";
      if (!graph) {
        var len = t.textContent.length;
        t.setAttribute("font-size", len <= 1 ? 22 : len === 2 ? 19 : len === 3 ? 14 : 10);
      }
      g.setAttribute("class", "cell" + (c ? " " + c.st : ""));
    });
    if (s.last && s.last[1] >= 0) {
      var cur = this.cells[s.last[1] + "," + s.last[2]];
      if (cur) { cur.setAttribute("class", cur.getAttribute("class") + " cur cur-" + s.last[0]); }
    }
    var n = this.trace.events.length;
    var depth = s.last ? s.last[4] : 0;
    this.root.setAttribute("data-step", this.k);
    this.root.setAttribute("data-nodes", s.nodes);
    this.status.textContent = "step " + this.k + " of " + n + " · nodes " + s.nodes +
      " · backtracks " + s.backtracks + " · depth " + depth + (s.found ? " · found " + s.found : "");
    this.say.textContent = s.last ? OPS[s.last[0]] + ": " + s.last[5] : "Press ▶| or the right arrow to take the first step.";
    this.say.setAttribute("class", "bt-say" + (s.last ? " op-" + s.last[0] : ""));
    this.path.textContent = "path: " + pathText(this.trace, s.path);
  };

  // ---- quizzes ---------------------------------------------------------------

  function Quiz(root) {
    var id = "bt-quiz-" + root.getAttribute("data-quiz");
    var buttons = root.querySelectorAll("button[data-right]");
    var answer = root.querySelector("details");
    var mark = function (b, remember) {
      buttons.forEach(function (x) { x.classList.remove("picked"); });
      b.classList.add("picked", b.getAttribute("data-right") === "1" ? "right" : "wrong");
      var verdict = root.querySelector(".bt-verdict") || el("p", { class: "bt-verdict", "aria-live": "polite" });
      verdict.textContent = b.getAttribute("data-right") === "1" ? "Right." : "Not quite: see why below.";
      root.insertBefore(verdict, answer);
      if (answer) { answer.open = true; }
      if (remember) {
        try { localStorage.setItem(id, b.textContent); } catch (e) { /* private mode: forget */ }
      }
    };
    buttons.forEach(function (b) {
      b.addEventListener("click", function () { mark(b, true); });
    });
    var saved = null;
    try { saved = localStorage.getItem(id); } catch (e) { saved = null; }
    buttons.forEach(function (b) { if (saved !== null && b.textContent === saved) { mark(b, false); } });
  }

  // ---- wide tables and code ---------------------------------------------------

  // A table or code block wider than the text column may spread into the
  // free space on either side of it (the margins of .content), as far as it
  // needs; what still does not fit scrolls inside itself, never the page.
  function spread(w, need) {
    var content = document.querySelector(".content");
    var main = w.closest("main");
    if (need <= 0 || !content || !main) { return; }
    var m = main.getBoundingClientRect();
    var c = content.getBoundingClientRect();
    var left = Math.max(0, m.left - c.left - 16);
    var right = Math.max(0, c.right - m.right - 16);
    var r = Math.min(right, Math.ceil(need / 2));
    var l = Math.min(left, need - r);
    r = Math.min(right, need - l);
    if (l + r <= 0) { return; }
    w.classList.add("bt-wide");
    w.style.marginLeft = -l + "px";
    w.style.width = (m.width + l + r) + "px";
  }

  function unspread(w) {
    w.classList.remove("bt-wide");
    w.style.marginLeft = "";
    w.style.width = "";
  }

  function widenTables() {
    document.querySelectorAll("main .table-wrapper").forEach(function (w) {
      unspread(w);
      var t = w.querySelector("table");
      if (!t) { return; }
      // The width the table wants with no cell wrapped.
      t.style.width = "max-content";
      var need = t.getBoundingClientRect().width - w.clientWidth;
      t.style.width = "";
      spread(w, need);
    });
    document.querySelectorAll("main pre").forEach(function (p) {
      unspread(p);
      var code = p.querySelector("code") || p;
      spread(p, Math.max(code.scrollWidth - code.clientWidth, p.scrollWidth - p.clientWidth));
    });
  }

  function init() {
    widenTables();
    window.addEventListener("resize", widenTables);
    if (document.fonts) { document.fonts.ready.then(widenTables); }
    document.querySelectorAll(".bt-player").forEach(function (p) { p.btPlayer = new Player(p); });
    document.querySelectorAll(".bt-quiz").forEach(function (q) { Quiz(q); });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
}());
