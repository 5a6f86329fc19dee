// The English book's translations of the scripts' strings: none, the
// templates are English. Each language's build overwrites this file in its
// own output (book/book/<lang>/assets/bt-strings.js); see bt-i18n.js.
window.BT_STRINGS = {};
