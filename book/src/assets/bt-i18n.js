// The players', quizzes' and trees' own words in the page's language (issue
// 23). Every string the scripts show goes through btT(template, args...):
// the template is English with {0}, {1}, ... for the values, and is also the
// message `cargo xtask book extract` writes to book/po/ui.pot. A language's
// build writes assets/bt-strings.js with that language's translations
// (window.BT_STRINGS); the English book's file is empty, so btT only fills
// in the values. A missing translation falls back to the English template.
//
// It also puts the language picker in mdBook's menu bar: BT_LANGS (written
// by the build) lists the built languages; English is at the site's root
// and each other language in <root>/<code>/, with the same page paths, so
// the picker leads to the same page in each language.
(function () {
  "use strict";
  var has = Object.prototype.hasOwnProperty;
  window.btT = function (template) {
    var strings = window.BT_STRINGS || {};
    var args = arguments;
    var s = has.call(strings, template) ? strings[template] : template;
    return s.replace(/\{(\d+)\}/g, function (m, i) {
      var v = args[Number(i) + 1];
      return v === undefined ? m : String(v);
    });
  };

  function addPicker() {
    var langs = window.BT_LANGS || [];
    var bar = document.querySelector("#mdbook-menu-bar .right-buttons, #menu-bar .right-buttons, .right-buttons");
    if (langs.length < 2 || !bar) { return; }
    var here = document.documentElement.lang || "en";
    /* global path_to_root */
    var base = new URL(typeof path_to_root === "string" ? path_to_root : "", location.href);
    var page = location.pathname.slice(base.pathname.length) + location.hash;
    var site = here === "en" ? base : new URL("../", base);
    var select = document.createElement("select");
    select.className = "bt-lang";
    select.setAttribute("aria-label", btT("Language"));
    select.title = btT("Language");
    langs.forEach(function (l) {
      var o = document.createElement("option");
      o.value = l.code;
      o.lang = l.code;
      o.textContent = l.name;
      if (l.code === here) { o.selected = true; }
      select.appendChild(o);
    });
    select.addEventListener("change", function () {
      var code = select.value;
      location.href = new URL((code === "en" ? "" : code + "/") + page, site).href;
    });
    bar.insertBefore(select, bar.firstChild);
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", addPicker);
  } else {
    addPicker();
  }
})();
