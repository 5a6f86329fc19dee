// The book in each built language (issue 23), in chromium: what browser.mjs
// proves of the English book's pages, plus what only a translation can break.
//
// For every language built into book/book/<code>/ (book/po/languages.toml;
// `cargo xtask book build` builds the complete ones, `--lang` any other):
//   1. every page, at 390 and 1280 px, loads without a console error, says
//      <html lang="<code>">, and has the language picker;
//   2. the picker round-trips: on a chapter page, choosing English opens the
//      same page of the English book, and choosing the language there opens
//      this page again;
//   3. every player steps, and narrates in the language: its first step's
//      narration differs from the English book's, and its controls' words
//      (the Play button) come from the language's strings;
//   4. every quiz answers: its right choice is accepted ("Right." in the
//      language);
//   5. no player's narration, title or counter and no figure caption is cut
//      off (CJK text wraps inside its box at 390 px);
//   6. no page shows English that a build once left there: mdBook's own
//      words (the print button, the search box, the chapter arrows), the
//      folded answers' summary, the measurement pages' words;
//   7. every link to a section (`bits.html#nodes-in-lanes`, `#the-idea`)
//      finds that id in its page, and following one from another page
//      scrolls to its section (a translated page keeps the English ids);
//   7b. at step 40 every player's tree labels its nodes without hovering,
//      and its heads, folded runs and frames panel are in the language;
//   8. every in-page link of the language's print.html (the whole book on
//      one page) finds its id there, and following each one in chromium
//      scrolls to an element that exists (issue 35: 87 of them once led
//      nowhere).
// A failing page is screenshotted into book/tests/screenshots/.
//
// Usage (from the repository root, after the build):
//   node book/tests/languages.mjs [--shots]
// --shots also saves a chapter page with a player at 1280 and 390 px per
// language (book/tests/screenshots/lang_<code>_<width>.png), for a reader to
// look at.

import { chromium } from "playwright-core";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");
const site = path.join(root, "book/book");
const shots = path.join(here, "screenshots");
const failures = [];
const fail = (what) => { failures.push(what); console.log("FAIL " + what); };

const codes = [...fs.readFileSync(path.join(root, "book/po/languages.toml"), "utf8").matchAll(/^code\s*=\s*"([^"]+)"/gm)]
  .map((m) => m[1])
  .filter((c) => fs.existsSync(path.join(site, c, "index.html")));
if (!codes.length) {
  console.log("no language is built besides English (book/po/languages.toml: none complete); nothing to check");
  process.exit(0);
}

const types = { ".html": "text/html; charset=utf-8", ".css": "text/css", ".js": "application/javascript",
  ".json": "application/json", ".svg": "image/svg+xml", ".png": "image/png", ".woff2": "font/woff2", ".ttf": "font/ttf" };
const server = http.createServer((req, res) => {
  const url = decodeURIComponent(req.url.split(/[?#]/)[0]);
  let file = path.normalize(path.join(site, url));
  if (!file.startsWith(site)) { res.writeHead(403); res.end(); return; }
  if (fs.existsSync(file) && fs.statSync(file).isDirectory()) { file = path.join(file, "index.html"); }
  if (!fs.existsSync(file)) { res.writeHead(404); res.end("not found"); return; }
  res.writeHead(200, { "Content-Type": types[path.extname(file)] || "application/octet-stream" });
  res.end(fs.readFileSync(file));
});
await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
const base = `http://127.0.0.1:${server.address().port}/`;

function pages(code) {
  const out = [];
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) { if (e.name !== "generated") { walk(p); } } else if (e.name.endsWith(".html") && e.name !== "toc.html" && e.name !== "print.html") {
        out.push(path.relative(path.join(site, code), p).split(path.sep).join("/"));
      }
    }
  };
  walk(path.join(site, code));
  return out.sort();
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-sync"],
});

async function shoot(page, name) {
  fs.mkdirSync(shots, { recursive: true });
  const file = path.join(shots, name.replace(/[^a-z0-9]+/gi, "_") + ".png");
  await page.screenshot({ path: file, fullPage: false }).catch(() => {});
  console.log("  screenshot: " + path.relative(root, file));
  return file;
}

// Runs in the page: the players' and figures' text boxes whose text is cut.
function clipped() {
  const out = [];
  for (const e of document.querySelectorAll(".bt-say, .bt-title, .bt-counter, .bt-path, .bt-tree-head, figcaption, .bt-question, .bt-choices button")) {
    const s = getComputedStyle(e);
    const hides = s.overflowX === "hidden" || s.overflowX === "clip" || s.textOverflow === "ellipsis";
    if (e.scrollWidth > e.clientWidth + 1 && (hides || e.getBoundingClientRect().right > window.innerWidth + 1)) {
      out.push((e.className || e.tagName) + ": " + e.textContent.slice(0, 40));
    }
  }
  return out;
}

// Every section link of a language's pages that names an id its target
// page lacks (so a reader would land at the page's top).
function lostSections(code) {
  const lost = [];
  const ids = new Map();
  const idsOf = (file) => {
    if (!ids.has(file)) {
      const html = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
      ids.set(file, new Set([...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1])));
    }
    return ids.get(file);
  };
  for (const p of pages(code)) {
    const file = path.join(site, code, p);
    const html = fs.readFileSync(file, "utf8");
    const main = html.slice(html.indexOf("<main"), html.indexOf("</main>"));
    for (const m of main.matchAll(/href="([^"#:]*)#([^"]+)"/g)) {
      const target = m[1] ? path.join(path.dirname(file), m[1]) : file;
      if (!idsOf(target).has(decodeURIComponent(m[2]))) { lost.push(`${p}: ${m[1]}#${m[2]}`); }
    }
  }
  return lost;
}

// English a translated page must not show: a phrase and where it sat.
const leftovers = [
  ['title="Print this book"', "mdBook's print button"],
  ['placeholder="Search this book ...', "mdBook's search box"],
  ['title="Next chapter"', "mdBook's next-chapter arrow"],
  [">Keyboard shortcuts<", "mdBook's keyboard help"],
  ["<summary>Show the reference solution</summary>", "a folded answer's summary"],
  ["Load average", "a measurement page"],
  ["Each row runs the workbook", "a measurement page"],
  ["<th>work</th>", "a measurement table"],
  ["<th>naive calls</th>", "the apples explosion table"],
  ["time of each stage as a fraction", "the apples timing table's caption"],
  ["<th>time / naive time</th>", "the apples timing table"],
  ["the multiplicative formula takes", "the apples timing note"],
];
// The plots a language's book keeps its own copy of, with a phrase each
// must not show in English (their words are `ui` messages, `svg.rs`).
const plots = [
  ["apples/figures/calls.svg", ">Work to count the ways"],
  ["apples/figures/calls.svg", ">naive calls<"],
  ["knights_tour/attempts.svg", ">attempts (log scale)<"],
  ["n_queens/times.svg", ">n (board size)<"],
];
// A language whose numbers are not written the English way: a table cell
// holding one number with English thousands commas ("1,352,078"; one comma
// alone could be Russian's decimal comma) or an English decimal point
// ("1.85", "4.150 s") is a number left in English there.
const ownNumbers = { ru: /<td[^>]*>\d{1,3}(,\d{3}){2,}<\/td>|<td[^>]*>\d+\.\d+(e-?\d+)?( [µmn]?s)?<\/td>/ };
// A language whose counts come before their noun: Russian's old "посещает
// вершин: 2 095" (a count after its noun, as a label) is a sentence the
// catalogue must word with the count first ("2 095 — столько вершин ...").
const countAfterNoun = { ru: /(вершин|узлов|ферзей|вызовов|обходов|догадок|попыток|клеток|шагов): \d/ };
// And a cell each such language must show in its own convention.
const ownNumberCells = { ru: [["apples/explosion.html", ">1\u202f716</td>"], ["apples/overflow.html", ">4\u202f801\u202f277</td>"]] };
function englishLeft(code) {
  const found = [];
  for (const p of pages(code)) {
    const html = fs.readFileSync(path.join(site, code, p), "utf8");
    for (const [phrase, what] of leftovers) {
      if (html.includes(phrase)) { found.push(`${p}: ${what} in English`); }
    }
    const english = ownNumbers[code] && html.match(ownNumbers[code]);
    if (english) { found.push(`${p}: a table's number written the English way: ${english[0]}`); }
    const after = countAfterNoun[code] && html.match(countAfterNoun[code]);
    if (after) { found.push(`${p}: a count after its noun: ${after[0]}`); }
  }
  for (const [p, phrase] of plots) {
    if (fs.readFileSync(path.join(site, code, p), "utf8").includes(phrase)) { found.push(`${p}: the plot's "${phrase.slice(1)}" in English`); }
  }
  for (const [p, cell] of ownNumberCells[code] || []) {
    if (!fs.readFileSync(path.join(site, code, p), "utf8").includes(cell)) { found.push(`${p}: no cell ${cell}: its numbers are not in the language's convention`); }
  }
  return found;
}

for (const code of codes) {
  let checked = 0;
  const left = englishLeft(code);
  if (left.length) { fail(`${code}: ${left.length} English leftover(s): ${left.slice(0, 4).join("; ")}`); }
  const lost = lostSections(code);
  if (lost.length) { fail(`${code}: ${lost.length} section link(s) land at a page's top: ${lost.slice(0, 4).join("; ")}`); }
  {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${base}${code}/print.html`, { waitUntil: "load" });
    const links = await page.$$eval('main a[href^="#"]', (all) => all.map((a) => a.getAttribute("href").slice(1)));
    const dead = await page.evaluate((ids) => ids.filter((id) => !document.getElementById(decodeURIComponent(id))), links);
    if (dead.length) { fail(`${code}/print.html: ${dead.length} of ${links.length} in-page links lead nowhere: ${[...new Set(dead)].slice(0, 5).join(", ")}`); }
    // Follow each distinct target: the page moves to it.
    let followed = 0;
    for (const id of [...new Set(links)].filter((id) => !dead.includes(id))) {
      await page.evaluate((id) => { location.hash = "#" + id; }, id);
      const there = await page.evaluate((id) => { const e = document.getElementById(decodeURIComponent(id)); const r = e.getBoundingClientRect(); return r.top > -2 && r.top < innerHeight; }, id);
      if (!there) { fail(`${code}/print.html: following #${id} does not show it`); break; }
      followed++;
    }
    console.log(`${code}: print.html's ${links.length} in-page links all land (${followed} targets followed)`);
    await context.close();
  }
  for (const width of [390, 1280]) {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    const page = await context.newPage();
    let errors = [];
    page.on("console", (m) => { if (m.type() === "error") { errors.push(m.text()); } });
    page.on("pageerror", (e) => errors.push(e.message));
    for (const p of pages(code)) {
      errors = [];
      await page.goto(`${base}${code}/${p}`, { waitUntil: "load" });
      checked++;
      const lang = await page.evaluate(() => document.documentElement.lang);
      if (lang !== code) { fail(`${code}/${p}: <html lang="${lang}">`); }
      if (!(await page.$("select.bt-lang"))) { fail(`${code}/${p} at ${width} px: no language picker`); }
      const cut = await page.evaluate(clipped);
      if (cut.length) { fail(`${code}/${p} at ${width} px: text cut off: ${cut.slice(0, 3).join("; ")}`); await shoot(page, `cut_${code}_${width}_${p}`); }
      if (errors.length) { fail(`${code}/${p} at ${width} px: console errors: ${errors.join(" | ")}`); await shoot(page, `errors_${code}_${width}_${p}`); }
      if (width !== 1280) { continue; }
      // Players step and narrate in the language.
      for (const id of await page.$$eval(".bt-player", (all) => all.map((e) => e.id))) {
        const english = await fetch(`${base}${p}`).then((r) => r.text());
        await page.click(`#${id} [data-action="step"]`);
        const step = await page.getAttribute(`#${id}`, "data-step");
        const said = (await page.textContent(`#${id} .bt-say`)).trim();
        if (step !== "1") { fail(`${code}/${p} #${id}: one step shows step ${step}`); }
        if (!said || english.includes(said.replace(/^[^:]*: /, "").slice(0, 30).replace(/"/g, "&quot;"))) {
          fail(`${code}/${p} #${id}: the first narration is English or empty: "${said.slice(0, 60)}"`);
        }
        const play = (await page.textContent(`#${id} [data-action="play"]`)).trim();
        if (play === "Play") { fail(`${code}/${p} #${id}: the Play button is in English`); }
        // At step 40 its tree reads in the language without hovering: every
        // drawn node labelled, no hover title, the heads, folds and frames
        // panel in the language's words.
        await page.focus(`#${id}`);
        for (let k = 1; k < 40; k++) { await page.keyboard.press("ArrowRight"); }
        const tree = await page.$eval(`#${id}`, (root) => {
          const drawn = [...root.querySelectorAll(".bt-tree .tnode")].filter((g) => !g.classList.contains("unseen"));
          return {
            titles: root.querySelectorAll(".bt-tree title").length,
            bare: drawn.filter((g) => !(g.querySelector("text.tlabel") || { textContent: "" }).textContent.trim()).length,
            drawn: drawn.length,
            words: [".bt-tree-head", ".bt-frames-head", ".bt-fold > summary"].map((s) => (root.querySelector(s) || { textContent: "" }).textContent)
              .concat([...root.querySelectorAll(".bt-tree .fold text, .bt-tree text.tnote")].map((t) => t.textContent)).join(" | "),
          };
        });
        if (tree.titles || tree.bare || !tree.drawn) { fail(`${code}/${p} #${id}: at step 40 the tree has ${tree.bare} of ${tree.drawn} nodes unlabelled and ${tree.titles} hover titles`); }
        const leftover = /The search tree|The current path|Open calls of|skips squares|skips \d|forced|earlier|levels above/.exec(tree.words);
        if (leftover) { fail(`${code}/${p} #${id}: the tree says "${leftover[0]}" in English: ${tree.words.slice(0, 120)}`); await shoot(page, `tree_${code}_${id}`); }
      }
      // Quizzes answer, in the language.
      for (const id of await page.$$eval(".bt-quiz", (all) => all.map((e) => e.id))) {
        await page.click(`#${id} button[data-right="1"]`);
        const verdict = (await page.$eval(`#${id}`, (q) => q.innerText)).trim();
        if (/\bRight\.$|\bRight\.\n/.test(verdict)) { fail(`${code}/${p} #${id}: the verdict is in English`); }
      }
    }
    // The picker round-trips on a chapter page.
    if (width === 1280) {
      const p = pages(code).find((x) => x.includes("/")) || "index.html";
      await page.goto(`${base}${code}/${p}`, { waitUntil: "load" });
      await Promise.all([page.waitForNavigation(), page.selectOption("select.bt-lang", "en")]);
      if (page.url() !== `${base}${p}`) { fail(`${code}/${p}: the picker's English leads to ${page.url()}`); }
      await Promise.all([page.waitForNavigation(), page.selectOption("select.bt-lang", code)]);
      if (page.url() !== `${base}${code}/${p}`) { fail(`${p}: the picker's ${code} leads to ${page.url()}`); }
    }
    // A section link from another page scrolls to its section.
    if (width === 1280) {
      const from = pages(code).find((x) => /href="[^"#:]+\.html#[^"]+"/.test(fs.readFileSync(path.join(site, code, x), "utf8").split("<main")[1] || ""));
      if (from) {
        await page.goto(`${base}${code}/${from}`, { waitUntil: "load" });
        const href = await page.$eval("main a[href*='.html#']", (a) => a.href);
        await page.goto(href, { waitUntil: "load" });
        const landed = await page.evaluate(() => {
          const t = document.getElementById(decodeURIComponent(location.hash.slice(1)));
          return t ? Math.abs(t.getBoundingClientRect().top) < 200 || window.scrollY > 0 : false;
        });
        if (!landed) { fail(`${code}/${from}: the link to ${href} does not land on its section`); await shoot(page, `section_${code}`); }
      }
    }
    if (process.argv.includes("--shots")) {
      const p = pages(code).find((x) => fs.readFileSync(path.join(site, code, x), "utf8").includes('class="bt-player"'));
      if (p) {
        await page.goto(`${base}${code}/${p}`, { waitUntil: "load" });
        const id = await page.$eval(".bt-player", (e) => e.id);
        for (let i = 0; i < 3; i++) { await page.click(`#${id} [data-action="step"]`); }
        await page.$eval(`#${id}`, (e) => e.scrollIntoView());
        await shoot(page, `lang_${code}_${width}`);
      }
    }
    await context.close();
  }
  console.log(`${code}: checked ${checked} page loads at 390 and 1280 px`);
}

await browser.close();
server.close();
if (failures.length) {
  console.log(`\n${failures.length} failure(s)`);
  process.exit(1);
}
console.log("every built language: pages, picker, players and quizzes hold");
