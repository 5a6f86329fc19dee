// The player's search tree and frames panel (loaded before bt-player.js,
// which uses BT.Tree).
//
// Every node is drawn with its label in the picture, not in a hover title:
// the call's arguments in short form (the trace's `call` records, e.g.
// "2, 3"), or the cell of the step that entered it, and, once the search
// has left it, what it returned (the trace's `return` records, e.g. "→ 3";
// without one, ✓ for a subtree that held a solution, ✗ for a dead end), as
// VisuAlgo's recursion tree writes f(args) and its value.
//
// A small tree (few nodes, shallow) is drawn whole, laid out once: leaves
// left to right in the order the search meets them, each parent above the
// middle of its children; nodes the search has not entered yet are hidden.
// A big tree is drawn as the current path: one row per level, each row the
// children of the path's node at that level entered so far, the one on the
// path drawn ringed, the others (closed subtrees) coloured by what they
// held. Long runs fold into one labelled node: the squares a node skipped
// in a row ("skips squares 9–15": reject steps that stay on it) and, when
// the trace marks its guesses, forced levels (a node with one way on).
// Either way the current node is ringed and carries data-node, so a test
// can check it. The path line below the board names the decisions, forced
// runs folded. The frames panel (when the trace names the function its
// nodes call) lists the open calls, innermost first, as Python Tutor
// shows its frames, each with its latest locals when the trace records them.
(function () {
  "use strict";

  var BT = window.BT = window.BT || {};
  var el = function () { return BT.el.apply(null, arguments); };
  var MAX_FULL = 160;
  var MAX_DEPTH = 12;
  var ROWS = 10;
  var MAX_ROW = 5;
  // Text metrics for the 12 px labels: an estimate of a character's width
  // (a wide one, CJK, counts as two), so boxes fit their labels without
  // measuring (the tree may sit in a closed fold, where nothing measures).
  var CH = 7.4;
  function textWidth(s) {
    var w = 0;
    for (var i = 0; i < s.length; i++) { w += s.charCodeAt(i) >= 0x2E80 ? 2 * CH : CH; }
    return Math.ceil(w);
  }

  function Tree(t, tab) {
    this.t = t;
    this.tab = tab;
    var n = tab.parent.length;
    var kids = [];
    for (var v = 0; v < n; v++) { kids.push([]); }
    for (var c = 1; c < n; c++) { kids[tab.parent[c]].push(c); }
    this.kids = kids;
    var args = [];
    (t.calls || []).forEach(function (a) { args[a[0]] = a[1]; });
    this.args = args;
    var rets = [];
    (t.returns || []).forEach(function (r) { rets[r[0]] = [r[1], r[2]]; });
    this.rets = rets;
    // Each node's locals records, in order: [text, from step].
    var locals = [];
    (t.locals || []).forEach(function (l) { (locals[l[0]] = locals[l[0]] || []).push([l[1], l[2]]); });
    this.locals = locals;
    // The first step at which each node holds each marker.
    var first = { solution: [], dead: [], guess: [] };
    Object.keys(tab.markNode).forEach(function (i) {
      var m = t.steps[i][BT.F.MARK];
      var node = tab.markNode[i];
      if (first[m][node] === undefined) { first[m][node] = Number(i) + 1; }
    });
    // A solution also colours every ancestor of its node, from then on.
    var holds = [];
    first.solution.forEach(function (k, node) {
      for (var a = node; a >= 0; a = tab.parent[a]) {
        if (holds[a] === undefined || holds[a] > k) { holds[a] = k; }
      }
    });
    this.first = first;
    this.holds = holds;
    // A trace that counts its guesses marks every choice among two or more
    // (sudoku): its other nodes are forced, and runs of them fold.
    this.guesses = t.counters.some(function (c) { return c[1] === "marks:guess"; });
    this.skips = skipRuns(t, tab);
    var deep = Math.max.apply(null, tab.depth);
    // A tree with folded runs of skipped squares is drawn as its path, where
    // the folds sit among the children.
    this.full = n <= MAX_FULL && deep <= MAX_DEPTH && !Object.keys(this.skips).length;
    this.box = el("div", { class: "bt-treebox" });
    var fn = t.function ? btT("call of {0}", t.function) : nodeWord(t);
    this.box.appendChild(el("p", { class: "bt-tree-head" }, this.full
      ? btT("The search tree ({0} nodes): one node per {1}, the current one ringed; each shows its arguments and, once left, what it returned", n, fn)
      : btT("The current path: a row per level, the siblings met so far beside it; each node shows its arguments and, once left, what it returned")));
    this.scroll = el("div", { class: "bt-tree-scroll" });
    this.svg = el("svg:svg", { class: "bt-tree", role: "img", "aria-label": btT("The search tree") });
    this.scroll.appendChild(this.svg);
    this.box.appendChild(this.scroll);
    if (t.function) {
      this.frames = el("div", { class: "bt-frames" });
      this.frames.appendChild(el("p", { class: "bt-frames-head" }, btT("Open calls of {0}, innermost first", t.function)));
      this.frameList = el("ol", { class: "bt-frame-list" });
      this.frames.appendChild(this.frameList);
      this.box.appendChild(this.frames);
    }
    if (this.full) { this.layout(); }
  }

  // Runs of two or more reject steps that stay on their node (squares the
  // search looked at and left empty without going deeper), by node: each
  // run is the list of its reject steps. Tries and notes between them (the
  // look at the next square, the call made to skip it) continue a run;
  // any other step ends it.
  function skipRuns(t, tab) {
    var F = BT.F;
    var runs = {};
    var open = null;
    for (var j = 0; j < t.steps.length; j++) {
      var s = t.steps[j];
      var v = tab.nodeAfter[j + 1];
      var stays = tab.nodeAfter[j] === v;
      var kind = s[F.KIND];
      if (kind === "reject" && stays && s[F.ROW] >= 0 && s[F.MARK] === "-") {
        if (open && open.node === v) {
          open.run.push(j);
        } else {
          open = { node: v, run: [j] };
          (runs[v] = runs[v] || []).push(open.run);
        }
      } else if (!stays || (kind !== "try" && kind !== "note") || s[F.MARK] !== "-") {
        open = null;
      }
    }
    Object.keys(runs).forEach(function (v) {
      runs[v] = runs[v].filter(function (r) { return r.length > 1; });
    });
    return runs;
  }

  // What one tree node stands for, in the page's language. A translated
  // book's traces carry it as `node` (a kind, never a translated word: the
  // build reads it from the English title); the English book reads the
  // English title itself.
  var NODE_WORDS = { call: btT("call"), position: btT("position"), square: btT("square"), queen: btT("queen") };
  function nodeWord(t) {
    if (t.node) { return NODE_WORDS[t.node] || t.node; }
    var w = (t.title.match(/one tree node per ([^,:]+)/) || [0, "call"])[1];
    w = /position/.test(w) ? "position" : /square/.test(w) ? "square" : /queen/.test(w) ? "queen" : "call";
    return NODE_WORDS[w];
  }

  // What node v is at step k: the classes of its mark.
  Tree.prototype.state = function (v, k) {
    var tab = this.tab;
    var cur = tab.nodeAfter[k];
    var cls = [];
    if (v === cur) { cls.push("cur"); }
    if (tab.closed[v] < k) { cls.push("closed"); } else { cls.push("open"); }
    if (this.first.dead[v] !== undefined && this.first.dead[v] <= k) { cls.push("dead"); }
    if (this.holds[v] !== undefined && this.holds[v] <= k) { cls.push("sol"); }
    if (this.first.guess[v] !== undefined && this.first.guess[v] <= k) { cls.push("guess"); }
    return cls.join(" ");
  };

  // A node is named by its call's arguments when the trace gives them,
  // otherwise by its decision.
  Tree.prototype.label = function (v) {
    if (this.args[v] !== undefined) { return this.args[v]; }
    return this.decision(v);
  };

  // The decision that entered node v: the cell of the step that entered
  // it or, when that step has none (a call made after its caller placed
  // something), the cell its caller's last step placed, else the first
  // cell its next few steps name.
  Tree.prototype.decision = function (v) {
    if (v === 0) { return btT("root"); }
    var F = BT.F;
    var steps = this.t.steps;
    var j = this.tab.entered[v];
    var s = steps[j];
    if (s[F.ROW] < 0 && j > 0 && steps[j - 1][F.ROW] >= 0 && steps[j - 1][F.KIND] === "place") { s = steps[j - 1]; }
    for (var i = j; i < Math.min(steps.length, j + 4) && s[F.ROW] < 0; i++) {
      if (steps[i][F.NODE] === v && steps[i][F.ROW] >= 0) { s = steps[i]; }
    }
    if (s[F.ROW] < 0) { return "·"; }
    if (this.t.board.kind === "graph") { return String(s[F.ROW]); }
    return "(" + s[F.ROW] + "," + s[F.COL] + ")" + (s[F.TEXT] && s[F.TEXT] !== "♛" ? "=" + s[F.TEXT] : "");
  };

  // What node v shows it returned at step k: its `return` record once
  // written; else, once left, ✓ (it held a solution) or ✗ (a dead end).
  Tree.prototype.value = function (v, k) {
    var r = this.rets[v];
    if (r && r[1] <= k) { return "→ " + r[0]; }
    if (this.holds[v] !== undefined && this.holds[v] <= k) { return "✓"; }
    if (this.tab.closed[v] < k && this.first.dead[v] !== undefined && this.first.dead[v] <= k) { return "✗"; }
    return "";
  };

  // Node v's label and value; `near`, a node whose label v's extends (its
  // sibling on the path: "0,2,4,1" beside "0,2,4,3"), shortens v's to what
  // differs ("…1"), so a row of siblings fits its box.
  Tree.prototype.text = function (v, k, near) {
    var val = this.value(v, k);
    var label = this.label(v);
    if (near !== undefined && near !== v) {
      var other = this.label(near);
      var cut = 0;
      while (cut < label.length && cut < other.length && label[cut] === other[cut]) { cut++; }
      cut = label[cut] === "," ? cut + 1 : label.lastIndexOf(",", cut - 1) + 1;
      if (cut >= 4) { label = "…" + label.slice(cut); }
    }
    return label + (val ? " " + val : "");
  };

  // Node v is forced when the trace counts its guesses and v is not one:
  // it was the only way on from its parent.
  Tree.prototype.forced = function (v) {
    return this.guesses && v > 0 && this.first.guess[v] === undefined;
  };

  // The path from the root to node, with every run of two or more forced
  // nodes (never the last) as one entry [first, last].
  Tree.prototype.folded = function (node) {
    var path = [];
    for (var a = node; a >= 0; a = this.tab.parent[a]) { path.push(a); }
    path.reverse();
    var out = [];
    for (var i = 0; i < path.length; i++) {
      var j = i;
      while (j + 1 < path.length - 1 && this.forced(path[j + 1]) && this.forced(path[i])) { j++; }
      if (j > i) { out.push([path[i], path[j], j - i + 1]); i = j; } else { out.push(path[i]); }
    }
    return out;
  };

  // The path line: the decisions from the root, forced runs folded.
  Tree.prototype.pathText = function (node) {
    var self = this;
    return this.folded(node).map(function (p) {
      return Array.isArray(p) ? btT("({0} forced)", p[2]) : self.decision(p);
    }).join(" → ");
  };

  // The frames panel: the open calls from the innermost out.
  Tree.prototype.showFrames = function (k) {
    if (!this.frames) { return; }
    var list = this.frameList;
    list.textContent = "";
    var fn = this.t.function;
    var path = [];
    for (var a = this.tab.nodeAfter[k]; a >= 0; a = this.tab.parent[a]) { path.push(a); }
    for (var i = 0; i < path.length; i++) {
      var v = path[i];
      if (this.args[v] === undefined) { continue; }
      var r = this.rets[v];
      var ret = r && r[1] <= k ? " → " + r[0] : "";
      var li = el("li", { class: "bt-frame" + (i === 0 ? " top" : ""), "data-node": v }, fn + "(" + this.args[v] + ")" + ret);
      // The call's latest locals by step k, on a line of their own.
      var held = null;
      (this.locals[v] || []).forEach(function (l) { if (l[1] <= k) { held = l[0]; } });
      if (held !== null) { li.appendChild(el("span", { class: "bt-locals" }, held)); }
      list.appendChild(li);
    }
  };

  // ---- the whole tree ---------------------------------------------------------

  var DY = 46;
  var R = 7;

  Tree.prototype.layout = function () {
    var kids = this.kids;
    var x = [];
    var leaf = 0;
    var widest = 14;
    for (var v0 = 0; v0 < kids.length; v0++) {
      var r0 = this.rets[v0];
      widest = Math.max(widest, textWidth(this.label(v0)), r0 ? textWidth("→ " + r0[0]) : 0);
    }
    var DX = Math.max(24, widest + 8);
    var place = function (v) {
      if (!kids[v].length) { x[v] = leaf++; return; }
      kids[v].forEach(place);
      x[v] = (x[kids[v][0]] + x[kids[v][kids[v].length - 1]]) / 2;
    };
    place(0);
    var deep = Math.max.apply(null, this.tab.depth);
    var w = Math.max(1, leaf) * DX + 8;
    var h = deep * DY + 2 * R + 40;
    this.svg.setAttribute("viewBox", "0 0 " + w + " " + h);
    this.svg.setAttribute("width", w);
    this.svg.setAttribute("height", h);
    var self = this;
    var at = function (v) { return [4 + x[v] * DX + DX / 2, R + 4 + self.tab.depth[v] * DY]; };
    this.edges = [];
    this.dots = [];
    this.vals = [];
    for (var v = 1; v < kids.length; v++) {
      var p = at(this.tab.parent[v]);
      var q = at(v);
      var line = el("svg:line", { class: "tedge", x1: p[0], y1: p[1], x2: q[0], y2: q[1] });
      this.svg.appendChild(line);
      this.edges[v] = line;
    }
    for (var u = 0; u < kids.length; u++) {
      var c = at(u);
      var g = el("svg:g", { class: "tnode", "data-node": u });
      g.appendChild(el("svg:circle", { cx: c[0], cy: c[1], r: R }));
      g.appendChild(el("svg:text", { class: "tlabel", x: c[0], y: c[1] + R + 13, "text-anchor": "middle" }, this.label(u)));
      var val = el("svg:text", { class: "tval", x: c[0], y: c[1] + R + 27, "text-anchor": "middle" }, "");
      g.appendChild(val);
      this.svg.appendChild(g);
      this.dots[u] = g;
      this.vals[u] = val;
    }
  };

  Tree.prototype.show = function (k) {
    this.showFrames(k);
    if (!this.full) { this.showPath(k); return; }
    var tab = this.tab;
    for (var v = 0; v < this.dots.length; v++) {
      var seen = v === 0 || tab.entered[v] < k;
      this.dots[v].setAttribute("class", "tnode " + (seen ? this.state(v, k) : "unseen"));
      this.vals[v].textContent = seen ? this.value(v, k) : "";
      if (v > 0) { this.edges[v].setAttribute("class", "tedge" + (seen ? "" : " unseen")); }
    }
  };

  // ---- the current path -------------------------------------------------------

  var BH = 20;
  var GAP = 6;
  var ROWH = BH + 12;

  // One labelled box at (x, y): a node (data-node) or a fold (class fold).
  Tree.prototype.box1 = function (x, y, text, cls, node) {
    var w = textWidth(text) + 10;
    var attrs = { class: cls };
    if (node !== undefined) { attrs["data-node"] = node; }
    var g = el("svg:g", attrs);
    g.appendChild(el("svg:rect", { x: x, y: y, width: w, height: BH, rx: /onpath/.test(cls) ? 5 : 3 }));
    g.appendChild(el("svg:text", { class: "tlabel", x: x + 5, y: y + 14 }, text));
    this.svg.appendChild(g);
    return w;
  };

  // The row under node p at step k: its children entered so far and its
  // runs of skipped squares, in the order the search met them; when longer
  // than MAX_ROW, the earliest fold into one "+N earlier" box, keeping
  // `keep` (the child on the path) in view.
  Tree.prototype.row = function (p, k, keep) {
    var tab = this.tab;
    var items = this.kids[p].filter(function (c) { return tab.entered[c] < k; })
      .map(function (c) { return { at: tab.entered[c], node: c }; });
    var cols = this.t.board.cols || 0;
    var steps = this.t.steps;
    var F = BT.F;
    var cell = function (j) { return [steps[j][F.ROW], steps[j][F.COL]]; };
    (this.skips[p] || []).forEach(function (r) {
      var seen = r.filter(function (j) { return j < k; });
      if (seen.length < 2) { return; }
      var sq = seen.map(function (j) { var c = cell(j); return cols ? c[0] * cols + c[1] : c[0]; });
      var row = sq.every(function (q, i) { return i === 0 || q === sq[i - 1] + 1; });
      var a = cell(seen[0]);
      var b = cell(seen[seen.length - 1]);
      items.push({ at: seen[0], skip: true, text: row
        ? btT("skips squares {0}–{1}", sq[0], sq[sq.length - 1])
        : btT("skips {0}: ({1}) … ({2})", seen.length, a.join(","), b.join(",")) });
    });
    items.sort(function (a, b) { return a.at - b.at; });
    var at = keep === undefined ? -1 : items.findIndex(function (it) { return it.node === keep; });
    if (items.length > MAX_ROW) {
      var cut = items.length - MAX_ROW + 1;
      if (at >= 0 && at < cut) { cut = at; }
      if (cut > 1) {
        var hidden = items.splice(0, cut);
        items.unshift({ earlier: hidden.length });
      }
    }
    return items;
  };

  Tree.prototype.showPath = function (k) {
    var tab = this.tab;
    var node = tab.nodeAfter[k];
    var levels = this.folded(node);
    var svg = this.svg;
    svg.textContent = "";
    var skip = Math.max(0, levels.length - ROWS);
    var y = 4;
    var width = 160;
    var prev = null;
    var self = this;
    if (skip > 0) {
      svg.appendChild(el("svg:text", { class: "tnote", x: 4, y: y + 13 }, btT("… {0} levels above", skip)));
      y += ROWH;
    }
    for (var d = skip; d < levels.length; d++) {
      var lv = levels[d];
      var x = 4;
      var mid = null;
      if (Array.isArray(lv)) {
        // A forced run: one box for the whole run.
        var w0 = this.box1(x, y, btT("{0} forced: {1} … {2}", lv[2], this.label(lv[0]), this.label(lv[1])), "tnode fold forced");
        mid = [x + w0 / 2, y + BH];
        if (prev) { svg.insertBefore(el("svg:line", { class: "tedge", x1: prev[0], y1: prev[1], x2: mid[0], y2: y }), svg.firstChild); }
        prev = mid;
        width = Math.max(width, x + w0 + 4);
        y += ROWH;
        continue;
      }
      var p = lv;
      var up = d === 0 ? -1 : (Array.isArray(levels[d - 1]) ? levels[d - 1][1] : levels[d - 1]);
      var row = d === 0 ? [{ node: 0 }] : this.row(up, k, p);
      for (var i = 0; i < row.length; i++) {
        var it = row[i];
        var wdt;
        if (it.earlier) {
          wdt = this.box1(x, y, btT("+{0} earlier", it.earlier), "tnode fold earlier");
        } else if (it.skip) {
          wdt = this.box1(x, y, it.text, "tnode fold skip");
        } else {
          var on = it.node === p;
          wdt = this.box1(x, y, this.text(it.node, k, p), "tnode " + this.state(it.node, k) + (on ? " onpath" : ""), it.node);
          if (on) { mid = [x + wdt / 2, y + BH]; }
        }
        x += wdt + GAP;
      }
      if (prev && mid) {
        svg.insertBefore(el("svg:line", { class: "tedge", x1: prev[0], y1: prev[1], x2: mid[0], y2: y }), svg.firstChild);
      }
      prev = mid;
      width = Math.max(width, x + 4);
      y += ROWH;
      if (d === levels.length - 1) {
        // The current node's children and skipped runs met so far.
        var done = this.row(p, k);
        if (done.length) {
          var xx = 4;
          for (var j = 0; j < done.length; j++) {
            var dj = done[j];
            if (dj.earlier) {
              xx += this.box1(xx, y, btT("+{0} earlier", dj.earlier), "tnode fold earlier") + GAP;
            } else if (dj.skip) {
              xx += this.box1(xx, y, dj.text, "tnode fold skip") + GAP;
            } else {
              xx += this.box1(xx, y, this.text(dj.node, k, p), "tnode " + this.state(dj.node, k), dj.node) + GAP;
            }
          }
          svg.insertBefore(el("svg:line", { class: "tedge", x1: mid[0], y1: mid[1], x2: 14, y2: y }), svg.firstChild);
          width = Math.max(width, xx + 4);
          y += ROWH;
        }
      }
    }
    svg.setAttribute("viewBox", "0 0 " + width + " " + y);
    svg.setAttribute("width", width);
    svg.setAttribute("height", y);
    void self;
  };

  BT.Tree = Tree;
}());
