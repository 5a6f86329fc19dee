// The player's search tree (loaded before bt-player.js, which uses BT.Tree).
//
// A small tree (few nodes, shallow) is drawn whole, laid out once: leaves
// left to right in the order the search meets them, each parent above the
// middle of its children; nodes the search has not entered yet are hidden.
// A big tree is drawn as the current path only: one row per level, each
// row the children of the path's node at that level entered so far, the
// one on the path drawn large, the others (closed subtrees) small and
// coloured by what they held (a solution, a dead end, nothing). Either way
// the current node is ringed and carries data-node, so a test can check it.
(function () {
  "use strict";

  var BT = window.BT = window.BT || {};
  var el = function () { return BT.el.apply(null, arguments); };
  var MAX_FULL = 160;
  var MAX_DEPTH = 12;
  var ROWS = 10;

  function Tree(t, tab) {
    this.t = t;
    this.tab = tab;
    var n = tab.parent.length;
    var kids = [];
    for (var v = 0; v < n; v++) { kids.push([]); }
    for (var c = 1; c < n; c++) { kids[tab.parent[c]].push(c); }
    this.kids = kids;
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
    var deep = Math.max.apply(null, tab.depth);
    this.full = n <= MAX_FULL && deep <= MAX_DEPTH;
    this.box = el("div", { class: "bt-treebox" });
    this.box.appendChild(el("p", { class: "bt-tree-head" }, this.full
      ? btT("The search tree ({0} nodes): one node per {1}, the current one ringed", n, nodeWord(t))
      : btT("The current path: a row per level; the siblings met so far, small, coloured by what their subtrees held")));
    this.svg = el("svg:svg", { class: "bt-tree", role: "img", "aria-label": btT("The search tree") });
    this.box.appendChild(this.svg);
    if (this.full) { this.layout(); }
  }

  // What one tree node stands for, in the page's language. A translated
  // book's traces carry it as `node` (a kind, never a translated word: the
  // build reads it from the English title); the English book reads the
  // English title itself.
  var NODE_WORDS = { call: btT("call"), position: btT("position"), square: btT("square") };
  function nodeWord(t) {
    if (t.node) { return NODE_WORDS[t.node] || t.node; }
    var w = /call|position|square/.test(t.title) ? (t.title.match(/one tree node per ([^,:]+)/) || [0, "call"])[1] : "call";
    return NODE_WORDS[w] || w;
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

  // A node is named by the cell of the step that entered it or, when that
  // step has none (a call entered before it looks at a square), by the
  // first cell its next few steps name.
  Tree.prototype.label = function (v) {
    if (v === 0) { return btT("root"); }
    var F = BT.F;
    var steps = this.t.steps;
    var j = this.tab.entered[v];
    var s = steps[j];
    for (var i = j; i < Math.min(steps.length, j + 4) && s[F.ROW] < 0; i++) {
      if (steps[i][F.NODE] === v && steps[i][F.ROW] >= 0) { s = steps[i]; }
    }
    if (s[F.ROW] < 0) { return "·"; }
    if (this.t.board.kind === "graph") { return String(s[F.ROW]); }
    return "(" + s[F.ROW] + "," + s[F.COL] + ")" + (s[F.TEXT] && s[F.TEXT] !== "♛" ? "=" + s[F.TEXT] : "");
  };

  Tree.prototype.pathText = function (node) {
    var parts = [];
    for (var a = node; a > 0; a = this.tab.parent[a]) { parts.push(this.label(a)); }
    parts.push(btT("root"));
    return parts.reverse().join(" → ");
  };

  // ---- the whole tree ---------------------------------------------------------

  var DX = 22;
  var DY = 30;
  var R = 7;

  Tree.prototype.layout = function () {
    var kids = this.kids;
    var x = [];
    var leaf = 0;
    var place = function (v) {
      if (!kids[v].length) { x[v] = leaf++; return; }
      kids[v].forEach(place);
      x[v] = (x[kids[v][0]] + x[kids[v][kids[v].length - 1]]) / 2;
    };
    place(0);
    var deep = Math.max.apply(null, this.tab.depth);
    var w = Math.max(1, leaf) * DX + 2 * R + 8;
    var h = deep * DY + 2 * R + 8;
    this.svg.setAttribute("viewBox", "0 0 " + w + " " + h);
    this.svg.style.maxWidth = Math.max(w, 120) * 1.4 + "px";
    var self = this;
    var at = function (v) { return [R + 4 + x[v] * DX + DX / 2 - R, R + 4 + self.tab.depth[v] * DY]; };
    this.edges = [];
    this.dots = [];
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
      g.appendChild(el("svg:title", {}, this.label(u)));
      g.appendChild(el("svg:circle", { cx: c[0], cy: c[1], r: R }));
      this.svg.appendChild(g);
      this.dots[u] = g;
    }
  };

  Tree.prototype.show = function (k) {
    if (!this.full) { this.showPath(k); return; }
    var tab = this.tab;
    for (var v = 0; v < this.dots.length; v++) {
      var seen = v === 0 || tab.entered[v] < k;
      this.dots[v].setAttribute("class", "tnode " + (seen ? this.state(v, k) : "unseen"));
      if (v > 0) { this.edges[v].setAttribute("class", "tedge" + (seen ? "" : " unseen")); }
    }
  };

  // ---- the current path -------------------------------------------------------

  var BOX = 12;
  var BIG = 18;
  var GAP = 6;

  Tree.prototype.showPath = function (k) {
    var tab = this.tab;
    var node = tab.nodeAfter[k];
    var path = [];
    for (var a = node; a >= 0; a = tab.parent[a]) { path.push(a); }
    path.reverse();
    var svg = this.svg;
    svg.textContent = "";
    var skip = Math.max(0, path.length - ROWS);
    var y = 4;
    var width = 160;
    var prev = null;
    if (skip > 0) {
      svg.appendChild(el("svg:text", { class: "tnote", x: 4, y: y + 11 }, "… " + skip + " levels above"));
      y += 18;
    }
    for (var d = skip; d < path.length; d++) {
      var p = path[d];
      var next = path[d + 1];
      // The row of level d: the root alone, then p's parent's children.
      var row = d === 0 ? [0] : this.kids[path[d - 1]].filter(function (c) { return tab.entered[c] < k; });
      var x = 4;
      var mid = null;
      for (var i = 0; i < row.length; i++) {
        var c = row[i];
        var on = c === p;
        var s = on ? BIG : BOX;
        var g = el("svg:g", { class: "tnode " + this.state(c, k) + (on ? " onpath" : ""), "data-node": c });
        g.appendChild(el("svg:title", {}, this.label(c)));
        g.appendChild(el("svg:rect", { x: x, y: y + (BIG - s) / 2, width: s, height: s, rx: on ? 4 : 2 }));
        svg.appendChild(g);
        if (on) { mid = [x + s / 2, y + BIG]; }
        x += s + GAP;
      }
      if (prev && mid) {
        svg.insertBefore(el("svg:line", { class: "tedge", x1: prev[0], y1: prev[1], x2: mid[0], y2: y }), svg.firstChild);
      }
      prev = mid;
      width = Math.max(width, x + 4);
      y += BIG + 8;
      if (next === undefined) {
        // The current node's children met so far (all closed).
        var done = this.kids[p].filter(function (c) { return tab.entered[c] < k; });
        if (done.length) {
          var xx = 4;
          for (var j = 0; j < done.length; j++) {
            var h = el("svg:g", { class: "tnode " + this.state(done[j], k), "data-node": done[j] });
            h.appendChild(el("svg:title", {}, this.label(done[j])));
            h.appendChild(el("svg:rect", { x: xx, y: y + (BIG - BOX) / 2, width: BOX, height: BOX, rx: 2 }));
            svg.appendChild(h);
            xx += BOX + GAP;
          }
          svg.insertBefore(el("svg:line", { class: "tedge", x1: mid[0], y1: mid[1], x2: 4 + BOX / 2, y2: y }), svg.firstChild);
          width = Math.max(width, xx + 4);
          y += BIG + 8;
        }
      }
    }
    svg.setAttribute("viewBox", "0 0 " + width + " " + y);
    svg.style.maxWidth = width * 1.3 + "px";
  };

  BT.Tree = Tree;
}());
