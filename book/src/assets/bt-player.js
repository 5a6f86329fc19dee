// The book's step-through players. No dependencies, no network.
//
// A player is a <div class="bt-player"> holding its traces as JSON in a
// <script type="application/json" class="bt-traces"> (or, as older pages
// wrote it, in a data-traces attribute), written by
// `cargo xtask book build`: one or more instances of a search recorded from
// the reference (the format is documented in solutions/trace/src/lib.rs).
// Each instance has a board, the code the search runs, counters with their
// definitions and totals, and steps [kind, node, parent, line, mark, r, c,
// text, say]. The state shown after k steps is computed from the first k
// steps (per-step tables are built once per instance), so scrubbing to any
// step is exact. The search tree is drawn whole when it is small and as
// the current path with its siblings otherwise, every node labelled with
// its call's arguments and return value, and the open calls listed in a
// frames panel (bt-tree.js).
(function () {
  "use strict";

  var BT = window.BT = window.BT || {};
  var SVG = "http://www.w3.org/2000/svg";
  var CELL = 40;
  var PAD = 4;
  var LBL = 22;

  function el(tag, attrs, text) {
    var e = tag.indexOf("svg:") === 0
      ? document.createElementNS(SVG, tag.slice(4))
      : document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text !== undefined) { e.textContent = text; }
    return e;
  }
  BT.el = el;

  // Step fields.
  var KIND = 0, NODE = 1, PARENT = 2, LINE = 3, MARK = 4, ROW = 5, COL = 6, TEXT = 7, SAY = 8;
  BT.F = { KIND: KIND, NODE: NODE, PARENT: PARENT, LINE: LINE, MARK: MARK, ROW: ROW, COL: COL, TEXT: TEXT, SAY: SAY };

  // ---- per-instance tables ---------------------------------------------------

  // Built once: each node's parent, depth, the step that entered it and the
  // step that closed it; the node and depth after each step; each counter's
  // value after each step; the steps carrying each marker.
  function tables(t) {
    var steps = t.steps;
    var n = steps.length;
    var parent = [-1];
    var depth = [0];
    var entered = [-1];
    var closed = [Infinity];
    var nodeAfter = new Array(n + 1);
    nodeAfter[0] = 0;
    var cur = 0;
    for (var j = 0; j < n; j++) {
      var s = steps[j];
      var v = s[NODE];
      if (v === parent.length) {
        parent.push(s[PARENT]);
        depth.push(depth[s[PARENT]] + 1);
        entered.push(j);
        closed.push(Infinity);
      }
      if (v !== cur) {
        // Every node on cur's path that is not an ancestor of v closes now.
        var anc = {};
        for (var a = v; a >= 0; a = parent[a]) { anc[a] = true; }
        for (var b = cur; b >= 0 && !anc[b]; b = parent[b]) { closed[b] = j; }
      }
      cur = v;
      nodeAfter[j + 1] = v;
    }
    var marks = { solution: [], dead: [], guess: [] };
    var markNode = {};
    for (var i = 0; i < n; i++) {
      var m = steps[i][MARK];
      if (marks[m]) {
        marks[m].push(i + 1);
        // A dead end is the node the step leaves; the others, the node it is on.
        markNode[i] = m === "dead" ? nodeAfter[i] : nodeAfter[i + 1];
      }
    }
    var values = {};
    t.counters.forEach(function (c) {
      var rule = c[1];
      var vals = new Array(n + 1);
      vals[0] = 0;
      var kinds = rule.indexOf("steps:") === 0 ? rule.slice(6).split(",") : null;
      var mark = rule.indexOf("marks:") === 0 ? rule.slice(6) : null;
      var line = rule.indexOf("line:") === 0 ? Number(rule.slice(5)) : null;
      var seen = 0;
      for (var k = 1; k <= n; k++) {
        var st = steps[k - 1];
        if (rule === "depth") { vals[k] = depth[nodeAfter[k]]; } else if (rule === "nodes") {
          seen = Math.max(seen, st[NODE] + 1);
          vals[k] = seen;
        } else if (kinds) { vals[k] = vals[k - 1] + (kinds.indexOf(st[KIND]) >= 0 ? 1 : 0); } else if (mark) {
          vals[k] = vals[k - 1] + (st[MARK] === mark ? 1 : 0);
        } else if (line !== null) {
          vals[k] = vals[k - 1] + (st[LINE] === line ? 1 : 0);
        }
      }
      values[c[0]] = vals;
    });
    return {
      parent: parent, depth: depth, entered: entered, closed: closed, nodeAfter: nodeAfter,
      marks: marks, markNode: markNode, values: values
    };
  }
  BT.tables = tables;

  // ---- the board after k steps ---------------------------------------------

  // A try only fills an empty cell (a visited or given one keeps its text),
  // a place marked "guess" is drawn as a guess (class "on guess"),
  // a given cell is never cleared, and on a graph a vertex that is backed
  // out of stays seen ("done").
  function board(t, k) {
    var graph = t.board.kind === "graph";
    var cells = {};
    t.given.forEach(function (g) { cells[g[0] + "," + g[1]] = { text: g[2], st: "given" }; });
    for (var i = 0; i < k; i++) {
      var e = t.steps[i];
      if (e[ROW] < 0) { continue; }
      var op = e[KIND];
      var key = e[ROW] + "," + e[COL];
      var cell = cells[key];
      if (cell && cell.st === "given") { continue; }
      if (op === "try") {
        if (!cell) { cells[key] = { text: e[TEXT], st: "try" }; }
      } else if (op === "place") {
        // A digit chosen among two or more candidates stays orange while it
        // stands, as the guess marker on the timeline.
        cells[key] = { text: e[TEXT], st: e[MARK] === "guess" ? "on guess" : "on" };
      } else if (op === "reject") {
        if (cell && cell.st === "try") { delete cells[key]; }
      } else if (op === "undo") {
        if (graph) { cells[key] = { text: e[TEXT] || (cell && cell.text) || "", st: "done" }; } else { delete cells[key]; }
      }
    }
    return cells;
  }

  // Row numbers down the left, column numbers along the top, 0-based like
  // the code and the narration.
  function drawGrid(t) {
    var b = t.board;
    var w = LBL + b.cols * CELL + PAD;
    var h = LBL + b.rows * CELL + PAD;
    var svg = el("svg:svg", { viewBox: "0 0 " + w + " " + h, class: "bt-board", role: "img",
      "aria-label": btT("The board: {0} by {1}", b.rows, b.cols) });
    var cells = {};
    for (var r = 0; r < b.rows; r++) {
      svg.appendChild(el("svg:text", { class: "lbl", x: LBL / 2, y: LBL + r * CELL + CELL / 2 + 5 }, String(r)));
      for (var c = 0; c < b.cols; c++) {
        if (r === 0) { svg.appendChild(el("svg:text", { class: "lbl", x: LBL + c * CELL + CELL / 2, y: LBL - 7 }, String(c))); }
        var g = el("svg:g", { "data-r": r, "data-c": c, class: "cell" });
        g.appendChild(el("svg:rect", { x: LBL + c * CELL, y: LBL + r * CELL, width: CELL, height: CELL }));
        g.appendChild(el("svg:text", { x: LBL + c * CELL + CELL / 2, y: LBL + r * CELL + CELL / 2 + 8, "font-size": 22 }));
        svg.appendChild(g);
        cells[r + "," + c] = g;
      }
    }
    for (var i = 0; i <= b.rows; i++) {
      svg.appendChild(el("svg:line", { class: b.box && i % b.box === 0 ? "gl thick" : "gl",
        x1: LBL, y1: LBL + i * CELL, x2: LBL + b.cols * CELL, y2: LBL + i * CELL }));
    }
    for (var j = 0; j <= b.cols; j++) {
      svg.appendChild(el("svg:line", { class: b.box && j % b.box === 0 ? "gl thick" : "gl",
        x1: LBL + j * CELL, y1: LBL, x2: LBL + j * CELL, y2: LBL + b.rows * CELL }));
    }
    return { svg: svg, cells: cells };
  }

  function drawGraph(t) {
    var b = t.board;
    var at = function (v) { return [24 + b.nodes[v][0] * 3.5, 24 + b.nodes[v][1] * 2.5]; };
    var svg = el("svg:svg", { viewBox: "0 0 400 300", class: "bt-board bt-graph", role: "img",
      "aria-label": btT("The graph: {0} vertices", b.nodes.length) });
    var defs = el("svg:defs");
    var id = "bt-arrow-" + t.id;
    var marker = el("svg:marker", { id: id, viewBox: "0 0 10 10", refX: "10", refY: "5",
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
      var s = 20 / len;
      svg.appendChild(el("svg:line", { class: "edge", x1: p[0] + dx * s, y1: p[1] + dy * s,
        x2: q[0] - dx * s, y2: q[1] - dy * s, "marker-end": "url(#" + id + ")" }));
    });
    var cells = {};
    b.nodes.forEach(function (n, v) {
      var p = at(v);
      var g = el("svg:g", { "data-r": v, "data-c": 0, class: "cell" });
      g.appendChild(el("svg:circle", { cx: p[0], cy: p[1], r: 17 }));
      g.appendChild(el("svg:text", { x: p[0], y: p[1] + 6, class: "v" }, n[2]));
      g.appendChild(el("svg:text", { x: p[0] + 30, y: p[1] + 6, class: "k" }));
      svg.appendChild(g);
      cells[v + ",0"] = g;
    });
    return { svg: svg, cells: cells };
  }

  // A grid cell's text, never under 14 units (11 px on a 390 px phone,
  // where the board is drawn at about 0.83 of its size): short texts
  // centred, bigger the shorter; five or more digits (a sudoku blank's
  // candidates) as the figures draw them, digit d at its place in a 3 x 3
  // grid; any other long text squeezed to the cell's width.
  function cellText(g, tx, text) {
    var x = LBL + Number(g.getAttribute("data-c")) * CELL;
    var y = LBL + Number(g.getAttribute("data-r")) * CELL;
    tx.textContent = "";
    tx.removeAttribute("textLength");
    tx.removeAttribute("lengthAdjust");
    var len = text.length;
    if (len >= 5 && /^[1-9]+$/.test(text)) {
      tx.setAttribute("font-size", 14);
      text.split("").forEach(function (d) {
        var i = Number(d) - 1;
        tx.appendChild(el("svg:tspan", { x: x + 7 + (i % 3) * 13, y: y + 13 + Math.floor(i / 3) * 12.5 }, d));
      });
      return;
    }
    tx.textContent = text;
    tx.setAttribute("font-size", len <= 1 ? 22 : len === 2 ? 19 : len === 3 ? 16 : 14);
    if (len > 4) { tx.setAttribute("textLength", CELL - 4); tx.setAttribute("lengthAdjust", "spacingAndGlyphs"); }
  }

  // ---- one player --------------------------------------------------------------

  var WORDS = { try: btT("try"), place: btT("place"), reject: btT("reject"), undo: btT("undo"), found: btT("found"), note: "" };
  // A step's MARK as the reader reads it (the trace keeps the short names).
  var MARKS = { solution: "solution", dead: "dead end", guess: "guess" };
  var JUMPS = [
    ["solution", "s", btT("solution")], ["dead", "d", btT("dead end")], ["guess", "g", btT("guess")]
  ];

  // The traces of a player element: the JSON block inside it, read once
  // (the attribute form kept for pages written before the block). Each
  // distinct narration is written once, in the instance's `says`, and a
  // step's SAY is its index there (render.rs); the sentences are put back
  // here, so the rest of the player sees every step whole.
  function readTraces(root) {
    var block = root.querySelector("script.bt-traces");
    var traces = JSON.parse(block ? block.textContent : root.getAttribute("data-traces"));
    traces.forEach(function (t) {
      if (!t.says) { return; }
      t.steps.forEach(function (s) { s[SAY] = t.says[s[SAY]]; });
      delete t.says;
    });
    return traces;
  }
  BT.readTraces = readTraces;

  function Player(root) {
    try {
      this.traces = readTraces(root);
    } catch (err) {
      root.appendChild(el("p", { class: "bt-error" }, btT("This player's trace cannot be read: {0}", err)));
      return;
    }
    this.root = root;
    this.timer = null;
    root.textContent = "";
    root.setAttribute("tabindex", "0");
    root.setAttribute("role", "group");
    root.setAttribute("aria-label", btT("Step-through player: {0}. Keys: right and left arrows step, space plays or pauses, Home and End jump to the ends, s, d and g jump to the next solution, dead end and guess (with shift, the previous one).",
      this.traces[0].title));
    root.appendChild(el("p", { class: "bt-title" }, this.traces[0].title));
    if (this.traces.length > 1) { root.appendChild(this.chooser()); }
    this.stage = el("div", { class: "bt-stage" });
    root.appendChild(this.stage);
    this.counters = el("p", { class: "bt-status" });
    root.appendChild(this.counters);
    this.say = el("p", { class: "bt-say", "aria-live": "polite" });
    root.appendChild(this.say);
    this.path = el("p", { class: "bt-path" });
    root.appendChild(this.path);
    root.appendChild(this.timeline());
    root.appendChild(this.controls());
    // On a phone the tree and the code fold below the controls, so the
    // board, the narration and the controls share one screen; on a wide
    // screen they stay beside the board (see place()).
    this.fold = el("details", { class: "bt-fold" });
    this.fold.appendChild(el("summary", {}, btT("The search tree and the code")));
    root.appendChild(this.fold);
    var self = this;
    this.fold.addEventListener("toggle", function () { if (self.fold.open) { self.show(); } });
    this.phone = window.matchMedia ? window.matchMedia("(max-width: 600px)") : null;
    if (this.phone && this.phone.addEventListener) {
      this.phone.addEventListener("change", function () { self.place(); self.show(); });
    }
    this.legend = el("details", { class: "bt-legend" });
    root.appendChild(this.legend);
    this.transcriptBox = el("div");
    root.appendChild(this.transcriptBox);
    this.bindKeys();
    this.load(0);
  }

  Player.prototype.chooser = function () {
    var label = el("label", { class: "bt-instance" }, btT("Instance") + " ");
    var select = el("select", { "aria-label": btT("Which instance the player replays") });
    this.traces.forEach(function (t, i) { select.appendChild(el("option", { value: i }, t.instance)); });
    var self = this;
    select.addEventListener("change", function () { self.pause(); self.load(Number(select.value)); });
    label.appendChild(select);
    this.select = select;
    return label;
  };

  Player.prototype.load = function (i) {
    var t = this.traces[i];
    this.t = t;
    this.tab = tables(t);
    this.k = 0;
    this.root.setAttribute("data-instance", i);
    this.stage.textContent = "";
    // The previous instance's tree and code may sit in the fold.
    if (this.tree) { this.tree.box.remove(); this.codeBox.remove(); }
    var drawn = t.board.kind === "graph" ? drawGraph(t) : drawGrid(t);
    this.cells = drawn.cells;
    var boardBox = el("div", { class: "bt-boardbox" });
    boardBox.appendChild(drawn.svg);
    this.stage.appendChild(boardBox);
    this.tree = new BT.Tree(t, this.tab);
    this.codeBox = this.codePanel();
    this.place();
    this.range.max = t.steps.length;
    this.drawMarks();
    this.fillLegend();
    this.transcriptBox.textContent = "";
    this.transcriptBox.appendChild(this.transcript());
    this.show();
  };

  // The tree and the code go beside the board on a wide screen and into
  // the folded panel below the controls on a phone (600 px or less).
  Player.prototype.place = function () {
    var phone = !!(this.phone && this.phone.matches);
    var into = phone ? this.fold : this.stage;
    into.appendChild(this.tree.box);
    into.appendChild(this.codeBox);
    this.fold.hidden = !phone;
    this.root.classList.toggle("bt-compact", phone);
  };

  Player.prototype.codePanel = function () {
    var t = this.t;
    var box = el("div", { class: "bt-code" });
    box.appendChild(el("p", { class: "bt-code-head" }, btT("{0} ({1}), the code the search runs", t.code.path.split("/").pop(), t.code.anchor)));
    var pre = el("pre", { class: "bt-code-lines", tabindex: "0", "aria-label": btT("The reference code; the executing line is marked") });
    this.lines = t.code.lines.map(function (line, i) {
      var span = el("span", { class: "bt-line", "data-line": i + 1 });
      span.appendChild(el("span", { class: "bt-ln", "aria-hidden": "true" }, String(i + 1)));
      span.appendChild(document.createTextNode(line + "\n"));
      pre.appendChild(span);
      return span;
    });
    this.pre = pre;
    box.appendChild(pre);
    return box;
  };

  Player.prototype.timeline = function () {
    var box = el("div", { class: "bt-timeline" });
    var self = this;
    this.range = el("input", { type: "range", min: "0", max: "0", value: "0", step: "1",
      class: "bt-range", "aria-label": btT("Step (scrub the timeline)") });
    this.range.addEventListener("input", function () { self.pause(); self.k = Number(self.range.value); self.show(); });
    this.marks = el("div", { class: "bt-marks", "aria-hidden": "true" });
    box.appendChild(this.range);
    box.appendChild(this.marks);
    return box;
  };

  Player.prototype.drawMarks = function () {
    var n = this.t.steps.length || 1;
    var marks = this.marks;
    marks.textContent = "";
    var tab = this.tab;
    ["guess", "dead", "solution"].forEach(function (m) {
      tab.marks[m].forEach(function (k) {
        marks.appendChild(el("span", { class: "bt-mark m-" + m, style: "left:" + (100 * k / n) + "%" }));
      });
    });
  };

  Player.prototype.button = function (label, title, action) {
    var b = el("button", { type: "button", title: title, "aria-label": title, "data-action": action }, label);
    var self = this;
    b.addEventListener("click", function () { self.act(action); });
    return b;
  };

  Player.prototype.controls = function () {
    var bar = el("div", { class: "bt-controls" });
    bar.appendChild(this.button("«", btT("Back to the start (Home)"), "start"));
    bar.appendChild(this.button("◀", btT("Step back (left arrow)"), "back"));
    this.playButton = this.button(btT("Play"), btT("Play or pause (space)"), "play");
    bar.appendChild(this.playButton);
    bar.appendChild(this.button("▶", btT("Step forward (right arrow)"), "step"));
    bar.appendChild(this.button("»", btT("To the end (End)"), "end"));
    var self = this;
    this.jumps = {};
    JUMPS.forEach(function (j) {
      var b = self.button(btT("next {0}", j[2]), btT("Jump to the next {0} ({1}; shift+{1} for the previous)", j[2], j[1]), "next-" + j[0]);
      b.classList.add("j-" + j[0]);
      self.jumps[j[0]] = b;
      bar.appendChild(b);
    });
    var label = el("label", { class: "bt-speed" }, btT("speed") + " ");
    var speed = el("select", { "aria-label": btT("Steps per second") });
    [1, 2, 5, 10, 30, 100].forEach(function (s) {
      var o = el("option", { value: s }, btT("{0}/s", s));
      if (s === 5) { o.selected = true; }
      speed.appendChild(o);
    });
    speed.addEventListener("change", function () { if (self.timer) { self.pause(); self.play(); } });
    this.speed = speed;
    label.appendChild(speed);
    bar.appendChild(label);
    return bar;
  };

  Player.prototype.fillLegend = function () {
    var d = this.legend;
    d.textContent = "";
    d.appendChild(el("summary", {}, btT("Legend: what the counters and colours mean")));
    var dl = el("dl");
    dl.appendChild(el("dt", {}, btT("step")));
    dl.appendChild(el("dd", {}, btT("steps replayed so far, of all the steps the reference's search took on this instance")));
    this.t.counters.forEach(function (c) {
      dl.appendChild(el("dt", {}, c[0]));
      dl.appendChild(el("dd", {}, c[2]));
    });
    d.appendChild(dl);
    var keys = el("ul", { class: "bt-keys" });
    [["m-solution", btT("a solution: the search has an answer here")],
      ["m-dead", btT("a dead end: a node with no way on, which the search backs out of")],
      ["m-guess", btT("a guess: a choice among two or more")],
      ["m-cur", btT("the tree's current node and the code's executing line")]].forEach(function (p) {
      var li = el("li");
      li.appendChild(el("span", { class: "bt-swatch " + p[0], "aria-hidden": "true" }));
      li.appendChild(document.createTextNode(" " + p[1]));
      keys.appendChild(li);
    });
    d.appendChild(keys);
  };

  // The transcript lists every step as text, for screen readers and for
  // reading the whole run at once; it is built when first opened.
  Player.prototype.transcript = function () {
    var d = el("details", { class: "bt-transcript" });
    var t = this.t;
    var tab = this.tab;
    d.appendChild(el("summary", {}, btT("Transcript: every step as text ({0} steps)", t.steps.length)));
    d.addEventListener("toggle", function () {
      if (!d.open || d.querySelector("ol")) { return; }
      var ol = el("ol");
      t.steps.forEach(function (e, i) {
        var line = e[LINE] ? " " + btT("[line {0}]", e[LINE]) : "";
        var mark = e[MARK] !== "-" ? " (" + btT(MARKS[e[MARK]] || e[MARK]) + ")" : "";
        ol.appendChild(el("li", {}, btT("[depth {0}]", tab.depth[tab.nodeAfter[i + 1]]) + line + mark + " " + e[SAY]));
      });
      d.appendChild(ol);
    });
    return d;
  };

  Player.prototype.bindKeys = function () {
    var self = this;
    this.root.addEventListener("keydown", function (ev) {
      var tag = ev.target.tagName;
      if (tag === "SELECT" || tag === "INPUT") {
        // mdBook turns pages on left/right arrows: not while scrubbing.
        if (tag === "INPUT") { ev.stopPropagation(); }
        return;
      }
      // Space on a focused button presses that button; leave it alone.
      if (tag === "BUTTON" && (ev.key === " " || ev.key === "Enter")) { return; }
      if (ev.ctrlKey || ev.metaKey || ev.altKey) { return; }
      var map = { ArrowRight: "step", ArrowLeft: "back", " ": "play", Home: "start", End: "end",
        s: "next-solution", d: "next-dead", g: "next-guess", S: "prev-solution", D: "prev-dead", G: "prev-guess" };
      var action = map[ev.key];
      if (action) {
        ev.preventDefault();
        ev.stopPropagation();
        self.act(action);
      }
    });
  };

  Player.prototype.act = function (action) {
    var n = this.t.steps.length;
    if (action === "play") {
      if (this.timer) { this.pause(); } else { this.play(); }
      return;
    }
    this.pause();
    if (action === "step") { this.k = Math.min(n, this.k + 1); }
    if (action === "back") { this.k = Math.max(0, this.k - 1); }
    if (action === "start") { this.k = 0; }
    if (action === "end") { this.k = n; }
    var m = /^(next|prev)-(\w+)$/.exec(action);
    if (m) {
      var list = this.tab.marks[m[2]];
      var k = this.k;
      var to = m[1] === "next"
        ? list.filter(function (x) { return x > k; })[0]
        : list.filter(function (x) { return x < k; }).pop();
      if (to === undefined) {
        this.say.textContent = m[1] === "next"
          ? btT("No later {0} in this run.", btT(MARKS[m[2]] || m[2]))
          : btT("No earlier {0} in this run.", btT(MARKS[m[2]] || m[2]));
        return;
      }
      this.k = to;
    }
    this.show();
  };

  Player.prototype.play = function () {
    var self = this;
    if (this.k >= this.t.steps.length) { this.k = 0; }
    this.playButton.textContent = btT("Pause");
    this.timer = setInterval(function () {
      if (self.k >= self.t.steps.length) { self.pause(); return; }
      self.k++;
      self.show();
    }, 1000 / Number(this.speed.value));
  };

  Player.prototype.pause = function () {
    if (this.timer) { clearInterval(this.timer); }
    this.timer = null;
    if (this.playButton) { this.playButton.textContent = btT("Play"); }
  };

  Player.prototype.show = function () {
    var t = this.t;
    var k = this.k;
    var n = t.steps.length;
    var last = k > 0 ? t.steps[k - 1] : null;
    var graph = t.board.kind === "graph";
    var cells = board(t, k);
    var self = this;
    Object.keys(this.cells).forEach(function (key) {
      var g = self.cells[key];
      var c = cells[key];
      var texts = g.querySelectorAll("text");
      var tx = graph ? texts[1] : texts[0];
      if (graph) { tx.textContent = c ? c.text : ""; } else { cellText(g, tx, c ? c.text : ""); }
      g.setAttribute("class", "cell" + (c ? " " + c.st : ""));
    });
    if (last && last[ROW] >= 0) {
      var cur = this.cells[last[ROW] + "," + last[COL]];
      if (cur) { cur.setAttribute("class", cur.getAttribute("class") + " cur cur-" + last[KIND]); }
    }
    // The tree.
    var node = this.tab.nodeAfter[k];
    this.tree.show(k);
    // The code.
    var line = last ? last[LINE] : 0;
    this.lines.forEach(function (span, i) {
      var lit = i + 1 === line;
      span.classList.toggle("lit", lit);
      if (lit) { span.setAttribute("aria-current", "step"); } else { span.removeAttribute("aria-current"); }
    });
    if (line > 0) {
      var span = this.lines[line - 1];
      var top = span.offsetTop;
      if (top < this.pre.scrollTop || top + span.offsetHeight > this.pre.scrollTop + this.pre.clientHeight) {
        this.pre.scrollTop = Math.max(0, top - this.pre.clientHeight / 3);
      }
    }
    // Counters.
    this.counters.textContent = "";
    this.counters.appendChild(el("span", { class: "bt-counter", "data-counter": "step", "data-value": k }, btT("step {0} of {1}", k, n)));
    var tab = this.tab;
    t.counters.forEach(function (c) {
      var v = tab.values[c[0]][k];
      self.counters.appendChild(el("span", { class: "bt-counter", "data-counter": c[0], "data-value": v, title: c[2] }, c[0] + " " + v));
    });
    this.root.setAttribute("data-step", k);
    this.root.setAttribute("data-node", node);
    this.root.setAttribute("data-line", line);
    this.range.value = k;
    this.range.setAttribute("aria-valuetext", btT("step {0} of {1}", k, n));
    var word = last ? WORDS[last[KIND]] : "";
    var mark = last && last[MARK] !== "-" ? " [" + btT(MARKS[last[MARK]] || last[MARK]) + "]" : "";
    this.say.textContent = last
      ? (word ? word + ": " : "") + last[SAY] + mark
      : btT("Press ▶ or the right arrow to take the first step; drag the timeline to jump.");
    this.say.setAttribute("class", "bt-say" + (last ? " op-" + last[KIND] : ""));
    this.path.textContent = btT("path: {0}", this.tree.pathText(node));
    JUMPS.forEach(function (j) {
      var any = tab.marks[j[0]].length > 0;
      self.jumps[j[0]].disabled = !any;
    });
  };

  BT.Player = Player;

  function init() {
    document.querySelectorAll(".bt-player").forEach(function (p) { p.btPlayer = new Player(p); });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
}());
