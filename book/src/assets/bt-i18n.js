// The players', quizzes' and trees' own words in the page's language (issue
// 23). Every string the scripts show goes through btT(template, args...):
// the template is English with {0}, {1}, ... for the values, and is also the
// message `workbook book extract` writes to book/po/ui.pot. A language's
// build writes assets/bt-strings.js with that language's translations
// (window.BT_STRINGS); the English book's file is empty, so btT only fills
// in the values. A missing translation falls back to the English template.
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
})();
