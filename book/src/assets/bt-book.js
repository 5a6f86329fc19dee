// The book's quizzes and wide tables. No dependencies, no network.
//
// A quiz is a <div class="bt-quiz"> of answer buttons; a wrong button may
// carry data-why, what picking it would mean. The answer and its
// explanation sit in a <details>. A first wrong pick says why it is wrong
// and offers a retry with the answer still hidden; a second wrong pick
// shows its feedback and opens the answer; a right pick opens it too. The
// reader's picks and a per-chapter score are kept in localStorage only,
// per language (a Japanese page does not open answered in English); the
// score is shown on the chapter's first page, out of the chapter's quizzes
// (the hidden list generated/quizzes.html that page includes). Classes are bt-right and
// bt-wrong, never mdBook's floating `right`.
(function () {
  "use strict";

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text !== undefined) { e.textContent = text; }
    return e;
  }

  function store(key, value) {
    try {
      if (value === undefined) { return localStorage.getItem(key); }
      localStorage.setItem(key, value);
    } catch (e) { /* private mode: forget */ }
    return null;
  }

  // The chapter of this page: the first folder of its path under the book.
  function chapter() {
    var me = document.querySelector('script[src$="bt-book.js"]');
    var root = me ? me.getAttribute("src").replace(/assets\/bt-book\.js$/, "") : "";
    var here = location.pathname.split("/");
    var up = (root.match(/\.\.\//g) || []).length;
    return up >= 1 ? here[here.length - 1 - up] : null;
  }

  // English keeps the keys it always had; another language's keys carry
  // its code, so each language keeps its own answers and score.
  function key(name) {
    var lang = document.documentElement.lang || "en";
    return lang === "en" ? name : name + "@" + lang;
  }

  function score(ch) {
    try { return JSON.parse(store(key("bt-score-" + ch)) || "{}"); } catch (e) { return {}; }
  }

  function Quiz(root) {
    var id = root.getAttribute("data-quiz");
    var buttons = root.querySelectorAll("button[data-right]");
    var answer = root.querySelector("details");
    var ch = chapter();
    var wrongs = 0;
    var verdict = el("p", { class: "bt-verdict", "aria-live": "polite" });
    root.insertBefore(verdict, answer);
    var record = function (result) {
      if (!ch) { return; }
      var s = score(ch);
      if (!(id in s)) { s[id] = result; store(key("bt-score-" + ch), JSON.stringify(s)); }
    };
    var mark = function (b, remember) {
      var right = b.getAttribute("data-right") === "1";
      buttons.forEach(function (x) { x.classList.remove("bt-picked"); });
      b.classList.add("bt-picked", right ? "bt-right" : "bt-wrong");
      var why = b.getAttribute("data-why") || "";
      if (right) {
        verdict.textContent = btT("Right.");
        if (answer) { answer.open = true; answer.hidden = false; }
        record(wrongs === 0 ? "first" : "later");
      } else {
        wrongs++;
        b.disabled = true;
        if (wrongs === 1 && remember) {
          verdict.textContent = btT("Not quite.") + " " + (why ? why + " " : "") + btT("Try again: the answer stays hidden for one more try.");
          if (answer) { answer.open = false; answer.hidden = true; }
        } else {
          verdict.textContent = btT("Not quite.") + " " + (why ? why + " " : "") + btT("The answer is below.");
          if (answer) { answer.open = true; answer.hidden = false; }
          record("shown");
        }
      }
      if (remember) { store(key("bt-quiz-" + id), b.textContent); }
    };
    buttons.forEach(function (b) {
      b.addEventListener("click", function () { mark(b, true); });
    });
    var at = root.getAttribute("data-player");
    if (at) { root.insertBefore(goTo(root, at), root.querySelector(".bt-choices")); }
    var saved = store(key("bt-quiz-" + id));
    buttons.forEach(function (b) {
      if (saved !== null && b.textContent === saved) { wrongs = 1; mark(b, false); }
    });
  }

  // A "what happens next?" quiz: a button that takes the page's player to
  // the instance and step the question stands at, and shows it.
  function goTo(root, id) {
    var instance = Number(root.getAttribute("data-instance")) || 0;
    var step = Number(root.getAttribute("data-step")) || 0;
    var b = el("button", { type: "button", class: "bt-goto" }, btT("Show step {0} in the player", step));
    b.addEventListener("click", function () {
      var host = document.getElementById(id);
      var p = host && host.btPlayer;
      if (!p || !p.traces) { return; }
      p.pause();
      if (p.select && Number(p.select.value) !== instance) { p.select.value = String(instance); }
      if (p.t !== p.traces[instance]) { p.load(instance); }
      p.k = step;
      p.show();
      host.scrollIntoView({ block: "start" });
      host.focus({ preventScroll: true });
    });
    return el("p", { class: "bt-goto-line" }).appendChild(b).parentNode;
  }

  // The chapter's first page shows the reader's score in its quizzes.
  function showScore() {
    var ch = chapter();
    var main = document.querySelector("main");
    if (!ch || !main || !/\/index\.html$|\/$/.test(location.pathname)) { return; }
    var s = score(ch);
    var list = main.querySelector(".bt-quiz-list");
    var all = list ? list.getAttribute("data-quizzes").split(" ").filter(Boolean) : Object.keys(s);
    var ids = all.filter(function (k) { return k in s; });
    var first = ids.filter(function (k) { return s[k] === "first"; }).length;
    var p = el("p", { class: "bt-score", "aria-live": "polite" });
    p.textContent = ids.length
      ? btT("Your quizzes in this chapter: {0} of {1} answered, {2} right at the first try (kept in this browser only).", ids.length, all.length, first)
      : btT("Your quizzes in this chapter: none of {0} answered yet. Each page ends with one; your score is kept in this browser only.", all.length);
    var h1 = main.querySelector("h1");
    main.insertBefore(p, h1 ? h1.nextSibling : main.firstChild);
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
      if (p.closest(".bt-player")) { return; }
      unspread(p);
      var code = p.querySelector("code") || p;
      spread(p, Math.max(code.scrollWidth - code.clientWidth, p.scrollWidth - p.clientWidth));
    });
  }

  function init() {
    widenTables();
    window.addEventListener("resize", widenTables);
    if (document.fonts) { document.fonts.ready.then(widenTables); }
    document.querySelectorAll(".bt-quiz").forEach(function (q) { Quiz(q); });
    showScore();
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
}());
