// The book in a real browser: Debian's chromium driven by playwright-core.
//
// What it proves, on the book `cargo xtask book build` writes to book/book:
//   1. every chapter's player, in each of its instances (three or more),
//      steps forward and back to the board, tree node (the ringed one), lit
//      code line and counters that its trace (recorded by the reference
//      solver) implies, replayed here independently of the player's own
//      code; the s, d and g keys (shift: back) visit the solutions, dead
//      ends and guesses in order; the timeline scrubs to a marker; at the
//      end every counter equals the reference's total and the last
//      narration states it; every counter is in the legend; the narration
//      is a live region;
//   2. every quiz on every page, answered wrong, offers a retry with the
//      answer hidden (and that choice's feedback); answered wrong again,
//      shows the answer (which names the right one) with the second
//      choice's own feedback; answered right, says so; no element of a
//      quiz floats; a teaching page ends with a quiz; a quiz remembers its
//      answer after a reload and the chapter's first page shows the score;
//   3. no page logs a console error or throws, shows an authoring note
//      ("do not edit"), or at 390 px scrolls sideways (wide tables and code
//      scroll inside themselves);
//   4. in a dark theme (coal) every figure loads and draws in the theme's
//      text colour, not black on black, and no plot sits on a white card;
//   4b. every measurement plot at 390 px in all five themes: no card, text
//      at least 11 px, no text cut by the edge of its canvas;
//   5. the n-queens tree's node labels are at least 11 px tall on a 390 px
//      phone, in the theme's text colour, in all five themes;
//   6. every drawn board, grid, graph and tree (the figures and every
//      instance of every player: board and search tree) at 390 px in all
//      five themes: each text at least 11 px, none outside its drawing,
//      none in the background's colour;
//   5b. every player's tree, in every instance and all five themes, can be
//      read without hovering: each drawn node carries its label as text
//      (its call's arguments when the trace gives them), no hover title;
//      a node shows what it returned once left; the eight-queens tree is
//      at most 8 deep (a level per queen); runs fold into one labelled
//      node (eight queens: skipped squares; sudoku: forced cells); the
//      path line names the decisions (at most a dozen entries); the frames
//      panel lists the open calls, innermost first, each with its latest
//      recorded locals (shown at some step for apples, sudoku and the tour);
//   7. on a 390 x 844 phone, every player (after its top is scrolled into
//      view, and again after 40 steps) shows its board, its narration and
//      its step controls inside the screen, with the tree and the code
//      folded below; at 1280 px the tree and the code stand beside the board
//      with no fold.
// A failing page is screenshotted into book/tests/screenshots/ (CI output).
//
// Usage (from the repository root):
//   node book/tests/browser.mjs [--no-build]
// Environment: CHROMIUM (default /usr/bin/chromium). No network is used: the
// book is served from 127.0.0.1 and chromium runs with its background
// services off, in a fresh temporary profile.

import { chromium } from "playwright-core";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");
const site = path.join(root, "book/book");
const shots = path.join(here, "screenshots");
const failures = [];

function fail(what) {
  failures.push(what);
  console.log("FAIL " + what);
}

// ---- build and serve --------------------------------------------------------

if (!process.argv.includes("--no-build")) {
  console.log("building the book: cargo xtask book build");
  execFileSync("cargo", ["run", "-q", "-p", "xtask", "--", "book", "build"], { cwd: root, stdio: "inherit" });
}

const types = {
  ".html": "text/html; charset=utf-8", ".css": "text/css", ".js": "application/javascript",
  ".json": "application/json", ".svg": "image/svg+xml", ".png": "image/png",
  ".woff": "font/woff", ".woff2": "font/woff2", ".ttf": "font/ttf", ".ico": "image/x-icon",
};
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

// The translations (book/book/<code>/) are languages.mjs's: their narration
// states its counters in their own words, so this file's English checks skip them.
const languageDirs = new Set([...fs.readFileSync(path.join(site, "..", "po", "languages.toml"), "utf8")
  .matchAll(/^code\s*=\s*"([^"]+)"/gm)].map((m) => m[1]));

function pages() {
  const out = [];
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      // generated/ holds the snippets pages include; mdBook copies them too.
      if (e.isDirectory()) {
        if (e.name !== "generated" && !(dir === site && languageDirs.has(e.name))) { walk(p); }
      } else if (e.name.endsWith(".html") && e.name !== "toc.html") {
        out.push(path.relative(site, p).split(path.sep).join("/"));
      }
    }
  };
  walk(site);
  return out.sort();
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
  ],
});

async function open(width, theme, height = 900) {
  const context = await browser.newContext({ viewport: { width, height } });
  if (theme) { await context.addInitScript((t) => localStorage.setItem("mdbook-theme", t), theme); }
  // Nothing may leave the machine: any request off 127.0.0.1 is a failure.
  await context.route(/^(?!http:\/\/127\.0\.0\.1)/, (route) => {
    fail(`a page asked the network for ${route.request().url()}`);
    return route.abort();
  });
  return context;
}

async function shoot(page, name) {
  fs.mkdirSync(shots, { recursive: true });
  const file = path.join(shots, name.replace(/[^a-z0-9]+/gi, "_") + ".png");
  await page.screenshot({ path: file, fullPage: true }).catch(() => {});
  console.log("  screenshot: " + path.relative(root, file));
}

// Runs in the page: the elements of the text that reach past the right edge
// of the window and are not inside a box that scrolls sideways within it.
// Such an element makes the page scroll sideways, or (when the page clips
// it) hides a table column or the end of a line.
function overflow() {
  const vw = document.documentElement.clientWidth;
  const out = [];
  if (document.documentElement.scrollWidth > vw + 1) { out.push(`the page is ${document.documentElement.scrollWidth} px wide`); }
  for (const el of document.querySelectorAll("main *")) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.right <= vw + 1) { continue; }
    let a = el.parentElement;
    let scrolled = false;
    while (a && a.tagName !== "MAIN" && !scrolled) {
      scrolled = /(auto|scroll)/.test(getComputedStyle(a).overflowX) && a.getBoundingClientRect().right <= vw + 1;
      a = a.parentElement;
    }
    if (!scrolled) {
      const cls = typeof el.className === "string" ? el.className : el.className.baseVal;
      out.push(`<${el.tagName.toLowerCase()}${cls ? ` class="${cls}"` : ""}> to ${Math.round(r.right)} px: "${el.textContent.trim().slice(0, 40)}"`);
    }
  }
  return out.length ? out : null;
}

// ---- 1. every page at 390 px: console errors and sideways scrolling ---------

async function everyPage() {
  const context = await open(390);
  const page = await context.newPage();
  let errors = [];
  page.on("console", (m) => { if (m.type() === "error") { errors.push(m.text()); } });
  page.on("pageerror", (e) => errors.push(e.message));
  const all = pages();
  for (const p of all) {
    errors = [];
    await page.goto(base + p, { waitUntil: "load" });
    const wide = await page.evaluate(overflow);
    // Authoring notes ("Generated by ...; do not edit") are HTML comments.
    if (/do not edit/i.test(await page.evaluate(() => document.querySelector("main").innerText))) {
      fail(`${p}: shows the authoring note "do not edit" to readers`);
    }
    if (errors.length) { fail(`${p}: console errors: ${errors.join(" | ")}`); await shoot(page, "errors_" + p); }
    if (wide) {
      fail(`${p}: at 390 px ${wide.length} element(s) stick out of the screen without a scroller of their own, e.g. ${wide.slice(0, 3).join("; ")}`);
      await shoot(page, "wide_" + p);
    }
  }
  console.log(`checked ${all.length} pages at 390 px for console errors and sideways scrolling`);
  await context.close();
}

// ---- 1b. every table whole at 1280 px ---------------------------------------

async function wideTables() {
  const context = await open(1280);
  const page = await context.newPage();
  let tables = 0;
  for (const p of pages()) {
    if (p === "print.html" || !fs.readFileSync(path.join(site, p), "utf8").includes("<table")) { continue; }
    await page.goto(base + p, { waitUntil: "load" });
    await page.evaluate(() => document.fonts.ready);
    const cut = await page.evaluate(() => [...document.querySelectorAll("main table")].map((t) => {
      const hidden = Math.max(t.scrollWidth - t.clientWidth, t.parentElement.scrollWidth - t.parentElement.clientWidth);
      return hidden > 1
        ? `${hidden} px of "${t.querySelector("tr").textContent.trim().replace(/\s+/g, " ").slice(0, 60)}"` : null;
    }));
    tables += cut.length;
    const hidden = cut.filter(Boolean);
    const out = await page.evaluate(overflow);
    if (out) { hidden.push(...out); }
    if (hidden.length) {
      fail(`${p}: at 1280 px a table hides columns behind a scroll bar: ${hidden.join("; ")}`);
      await shoot(page, "table_" + p);
    }
  }
  console.log(`checked ${tables} tables at 1280 px for hidden columns`);
  await context.close();
}

// ---- 2. players -------------------------------------------------------------

// The state after k steps, replayed from the trace alone (the format is
// documented in solutions/trace/src/lib.rs): the texts of the cells, the
// current tree node, the lit code line and every counter's value.
function expected(trace, k) {
  const graph = trace.board.kind === "graph";
  const cells = new Map(trace.given.map((g) => [`${g[0]},${g[1]}`, { text: g[2], given: true }]));
  const depth = [0];
  for (const [, node, parent] of trace.steps) { if (node === depth.length) { depth.push(depth[parent] + 1); } }
  const counters = {};
  let node = 0;
  let line = 0;
  let nodes = 0;
  for (const c of trace.counters) { counters[c[0]] = 0; }
  for (const [op, v, , ln, mark, r, c, text] of trace.steps.slice(0, k)) {
    node = v;
    line = ln;
    nodes = Math.max(nodes, v + 1);
    for (const [name, rule] of trace.counters) {
      if (rule.startsWith("steps:") && rule.slice(6).split(",").includes(op)) { counters[name]++; }
      if (rule === "marks:" + mark) { counters[name]++; }
      if (rule === "line:" + ln) { counters[name]++; }
    }
    const key = `${r},${c}`;
    const cell = cells.get(key);
    if (r < 0 || (cell && cell.given)) { continue; }
    if (op === "try" && !cell) { cells.set(key, { text, tried: true }); }
    if (op === "place") { cells.set(key, { text }); }
    if (op === "reject" && cell && cell.tried) { cells.delete(key); }
    if (op === "undo") {
      if (graph) { cells.set(key, { text: text || (cell && cell.text) || "" }); } else { cells.delete(key); }
    }
  }
  for (const [name, rule] of trace.counters) {
    if (rule === "depth") { counters[name] = depth[node]; }
    if (rule === "nodes") { counters[name] = nodes; }
  }
  const board = {};
  for (const [key, cell] of cells) { if (cell.text) { board[key] = cell.text; } }
  return { board, node, line, counters };
}

async function shown(page, id) {
  return page.evaluate((id) => {
    const root = document.getElementById(id);
    const board = {};
    for (const g of root.querySelectorAll("g.cell")) {
      const texts = g.querySelectorAll("text");
      const t = (texts.length > 1 ? texts[1] : texts[0]).textContent;
      if (t) { board[`${g.dataset.r},${g.dataset.c}`] = t; }
    }
    const counters = {};
    for (const c of root.querySelectorAll(".bt-status [data-counter]")) {
      if (c.dataset.counter !== "step") { counters[c.dataset.counter] = Number(c.dataset.value); }
    }
    const cur = root.querySelectorAll(".bt-tree .tnode.cur");
    const lit = root.querySelectorAll(".bt-line.lit");
    return {
      board,
      counters,
      step: Number(root.dataset.step),
      node: Number(root.dataset.node),
      treeNode: cur.length === 1 ? Number(cur[0].dataset.node) : `${cur.length} ringed nodes`,
      line: lit.length === 1 ? Number(lit[0].dataset.line) : lit.length === 0 ? 0 : `${lit.length} lit lines`,
      say: root.querySelector(".bt-say").textContent,
      live: root.querySelector(".bt-say").getAttribute("aria-live"),
    };
  }, id);
}

function same(a, b) {
  return JSON.stringify(a, Object.keys(a).sort()) === JSON.stringify(b, Object.keys(b).sort())
    && Object.keys(a).length === Object.keys(b).length;
}

// A player's traces, read from the page's HTML as the server sent it (the
// player empties its element once it has read them): the JSON block of
// <div class="bt-player" id=ID>, decoded here by the format's rule, not
// by the player's own code.
function pageTraces(html, id) {
  const start = html.indexOf(`<div class="bt-player" id="${id}">`);
  const open = '<script type="application/json" class="bt-traces">';
  const from = html.indexOf(open, start);
  const to = html.indexOf("</script>", from);
  if (start < 0 || from < 0 || to < 0) { return null; }
  const traces = JSON.parse(html.slice(from + open.length, to));
  // Each narration is written once, in `says`; a step names its index
  // (core/src/players/render.rs).
  for (const t of traces) {
    if (!t.says) { continue; }
    for (const step of t.steps) {
      if (typeof t.says[step[8]] !== "string") { throw new Error(`${id}: a step's narration ${step[8]} is not in says`); }
      step[8] = t.says[step[8]];
    }
  }
  return traces;
}

// Every page with a player (print.html aside), opened in `page` in turn:
// its path, its HTML as the server sent it and its players' ids.
async function* playerPages(page) {
  for (const p of pages()) {
    const html = fs.readFileSync(path.join(site, p), "utf8");
    if (!html.includes('class="bt-player"') || p === "print.html") { continue; }
    await page.goto(base + p, { waitUntil: "load" });
    yield { p, html, ids: await page.$$eval(".bt-player", (all) => all.map((e) => e.id)) };
  }
}

async function players() {
  const context = await open(390);
  const page = await context.newPage();
  let count = 0;
  let instances = 0;
  for await (const { p, html, ids } of playerPages(page)) {
    for (const id of ids) {
      count++;
      const traces = pageTraces(html, id);
      if (!traces) { fail(`${p} #${id}: no JSON block of traces in the page`); continue; }
      if (traces.length < 3) { fail(`${p} #${id}: ${traces.length} instance(s), not 3 or more`); }
      for (let i = 0; i < traces.length; i++) {
        instances++;
        const trace = traces[i];
        const where = `${p} #${id} (${trace.instance})`;
        if (i > 0) { await page.selectOption(`#${id} .bt-instance select`, String(i)); }
        await page.focus("#" + id);
        await page.keyboard.press("Home");
        const n = trace.steps.length;
        const check = async (steps, how) => {
          const got = await shown(page, id);
          const want = expected(trace, steps);
          const problems = [];
          if (got.step !== steps) { problems.push(`step ${got.step}, not ${steps}`); }
          if (got.node !== want.node || got.treeNode !== want.node) { problems.push(`tree node ${got.node} (ringed: ${got.treeNode}), the trace's is ${want.node}`); }
          if (got.line !== want.line) { problems.push(`lit line ${got.line}, the trace's is ${want.line}`); }
          if (!same(got.counters, want.counters)) { problems.push(`counters ${JSON.stringify(got.counters)}, the trace's are ${JSON.stringify(want.counters)}`); }
          if (!same(got.board, want.board)) { problems.push(`board ${JSON.stringify(got.board)}, the trace's is ${JSON.stringify(want.board)}`); }
          if (got.live !== "polite") { problems.push("the narration is not a live region"); }
          if (problems.length) {
            fail(`${where} after ${how}: ${problems.join("; ")}`);
            await shoot(page, `player_${id}_${i}_${how}`);
            return null;
          }
          return got;
        };
        // Every one of the first 37 steps, one arrow press each.
        const k = Math.min(n, 37);
        let ok = true;
        for (let s = 1; s <= k && ok; s++) {
          await page.keyboard.press("ArrowRight");
          ok = !!await check(s, `${s} steps`);
        }
        if (!ok) { continue; }
        await page.keyboard.press("ArrowLeft");
        if (!await check(k - 1, "one step back")) { continue; }
        // Each marker key visits that marker's steps in order (the first five).
        for (const [mark, key] of [["solution", "s"], ["dead", "d"], ["guess", "g"]]) {
          await page.keyboard.press("Home");
          const at = trace.steps.map((s, j) => (s[4] === mark ? j + 1 : 0)).filter(Boolean).slice(0, 5);
          for (const want of at) {
            await page.keyboard.press(key);
            if (!await check(want, `key ${key} to the next ${mark}`)) { break; }
          }
          if (at.length) {
            await page.keyboard.press("Shift+" + key.toUpperCase());
            const back = at.length > 1 ? at[at.length - 2] : at[0];
            if (at.length > 1) { await check(back, `shift+${key} to the previous ${mark}`); }
          }
        }
        // The timeline scrubs to any step, a marker's included.
        const marked = trace.steps.findIndex((s) => s[4] !== "-");
        const target = marked >= 0 ? marked + 1 : Math.floor(n / 2);
        await page.$eval(`#${id} .bt-range`, (r, v) => { r.value = String(v); r.dispatchEvent(new Event("input", { bubbles: true })); }, target);
        await check(target, "scrubbing the timeline");
        await page.focus("#" + id);
        await page.keyboard.press("End");
        const end = await check(n, "the end");
        if (end) {
          for (const [name, value] of Object.entries(trace.totals)) {
            if (end.counters[name] !== value) { fail(`${where}: counter ${name} ends at ${end.counters[name]}, the reference's total is ${value}`); }
            if (name !== "depth" && !new RegExp(`(^|[^0-9,])${value}([^0-9,]|$)`).test(end.say.replace(/(\d),(?=\d{3}\b)/g, "$1"))) {
              fail(`${where}: the last narration "${end.say}" does not state ${name} = ${value}`);
            }
          }
          if (!Object.keys(trace.totals).length) { fail(`${where}: no counter has a total to check`); }
        }
        if (page.url() !== base + p) { fail(`${where}: the keys turned the page`); await page.goto(base + p, { waitUntil: "load" }); }
      }
      // Every counter is defined in the legend.
      const legend = await page.$$eval(`#${id} .bt-legend dt`, (all) => all.map((d) => d.textContent));
      for (const [name] of traces[0].counters) {
        if (!legend.includes(name)) { fail(`${p} #${id}: counter "${name}" is not in the legend`); }
      }
    }
  }
  if (count < 6) { fail(`only ${count} players found; every chapter (0 to 5) should have one`); }
  console.log(`drove ${count} players (${instances} instances) against their traces, each of the first 37 steps: board, tree node, lit line, counters; then the marker keys, the scrubber, the totals the narration states`);
  await context.close();
}

// ---- 3. quizzes ----------------------------------------------------------------

// Pages of chapters 0-5 that need not end with a quiz: the fast solver's
// pages, whose figures are times only (a quiz is never built on a time),
// and each chapter's practice page (its problems are the exercise).
const NO_CLOSING_QUIZ = new Set([
  "sudoku/fast.html", "sudoku/throughput.html",
  ...["intro", "apples", "eight_queens", "n_queens", "sudoku", "knights_tour"].map((c) => `${c}/practice.html`),
]);
const CHAPTERS = /^(intro|apples|eight_queens|n_queens|sudoku|knights_tour)\//;

// Answers every quiz of a page wrong (a retry is offered, the answer stays
// hidden), wrong again where there is a second wrong choice (the answer is
// shown with that choice's own feedback), then right; returns the count.
async function answerAll(page, p) {
  const ids = await page.$$eval(".bt-quiz", (all) => all.map((e) => e.id));
  for (const id of ids) {
    const q = "#" + id;
    const state = () => page.evaluate((q) => {
      const root = document.querySelector(q);
      const d = root.querySelector("details");
      const para = d && d.querySelector("p");
      const floats = [...root.querySelectorAll("*")].filter((e) => getComputedStyle(e).float !== "none").map((e) => e.tagName + "." + e.className);
      return {
        verdict: (root.querySelector(".bt-verdict") || {}).textContent || "",
        open: !!(d && d.open && !d.hidden),
        explained: para ? para.getBoundingClientRect().height > 0 && para.textContent.trim().length > 20 : false,
        named: para ? (para.querySelector("strong") || {}).textContent : "",
        right: [...root.querySelectorAll('button[data-right="1"]')].map((b) => b.textContent).join(", "),
        floats,
      };
    }, q);
    const wrong = await page.$$eval(`${q} button[data-right="0"]`, (all) => all.map((b) => [b.textContent, b.dataset.why || ""]));
    if (wrong.length === 0) { fail(`${p} ${q}: no wrong answer to choose`); continue; }
    // Every wrong choice says why it is wrong (issue 35), not just "try again".
    for (const [text, why] of wrong) {
      if (why.trim().length < 20) { fail(`${p} ${q}: the wrong choice "${text}" gives no reason`); }
    }
    const pick = (text) => page.$$eval(`${q} button`, (all, text) => all.find((b) => b.textContent === text).click(), text);
    await pick(wrong[0][0]);
    let after = await state();
    if (!/Not quite/.test(after.verdict) || !/Try again/.test(after.verdict) || after.open) {
      fail(`${p} ${q}: a first wrong answer shows "${after.verdict}", the answer shown: ${after.open} (a retry should be offered with the answer hidden)`);
      await shoot(page, `quiz_${id}_wrong`);
    }
    if (wrong[0][1] && !after.verdict.includes(wrong[0][1])) { fail(`${p} ${q}: the first wrong answer's feedback is not shown`); }
    if (wrong.length > 1) {
      await pick(wrong[1][0]);
      after = await state();
      if (!/Not quite/.test(after.verdict) || !after.open || !after.explained) {
        fail(`${p} ${q}: a second wrong answer shows "${after.verdict}", the answer shown: ${after.open}`);
        await shoot(page, `quiz_${id}_wrong2`);
      }
      if (wrong[1][1] && !after.verdict.includes(wrong[1][1])) { fail(`${p} ${q}: the second wrong answer's own feedback is not shown`); }
      if (after.named !== after.right) { fail(`${p} ${q}: the explanation names "${after.named}", the right button is "${after.right}"`); }
    }
    await page.click(`${q} button[data-right="1"]`);
    after = await state();
    if (after.verdict !== "Right." || !after.open) { fail(`${p} ${q}: the right answer says "${after.verdict}", the answer shown: ${after.open}`); await shoot(page, `quiz_${id}_right`); }
    if (after.floats.length) { fail(`${p} ${q}: quiz elements float: ${after.floats.join(", ")}`); }
  }
  return ids.length;
}

async function quizzes() {
  const context = await open(1280);
  const page = await context.newPage();
  let count = 0;
  for (const p of pages()) {
    if (p === "print.html" || !CHAPTERS.test(p)) { continue; }
    await page.goto(base + p, { waitUntil: "load" });
    count += await answerAll(page, p);
    const last = await page.evaluate(() => {
      const kids = [...document.querySelector("main").children].filter((e) => !/^(NAV|SCRIPT)$/.test(e.tagName));
      const end = kids[kids.length - 1];
      return end ? end.className : "";
    });
    if (!NO_CLOSING_QUIZ.has(p) && !/bt-quiz/.test(last)) { fail(`${p}: the page does not end with a quiz (its last element is "${last}")`); }
  }
  if (count < 40) { fail(`only ${count} quizzes found`); }
  // A reload keeps the last answer (the right one, picked last above).
  const p = "intro/index.html";
  await page.goto(base + p, { waitUntil: "load" });
  const kept = await page.$eval("#quiz-dfs-order button.bt-picked", (b) => b.dataset.right).catch(() => null);
  if (kept !== "1") { fail(`${p}: after a reload the quiz forgot the answer`); await shoot(page, "quiz"); }
  // The chapter's first page shows the score of the quizzes answered above.
  const score = await page.textContent("main .bt-score").catch(() => "");
  const total = await page.$eval("main .bt-quiz-list", (e) => e.dataset.quizzes.split(" ").length).catch(() => 0);
  const m = /(\d+) of (\d+) answered, \d+ right at the first try/.exec(score);
  if (!m || Number(m[1]) !== total || Number(m[2]) !== total) { fail(`${p}: the chapter's score reads "${score}" (all ${total} quizzes were answered)`); }
  // Another language keeps its own answers and score.
  if (fs.existsSync(path.join(site, "ja/intro/index.html"))) {
    await page.goto(base + "ja/" + p, { waitUntil: "load" });
    const picked = await page.$$eval(".bt-quiz button.bt-picked", (all) => all.length);
    if (picked > 0) { fail(`ja/${p}: opens with ${picked} quizzes answered in English`); }
  }
  console.log(`answered ${count} quizzes wrong (retry, answer hidden), wrong again (answer and that choice's feedback shown), then right; none floats; the answer is kept after a reload; the chapter's score is shown`);
  await context.close();
}

// ---- 3a. issue 35's defects and the "what happens next?" quizzes ------------

// The overflow table is the recorder's (35 people overflow at 34 apples);
// a sudoku guess is drawn orange in the player, as the caption says; the
// intro names only keys the player has; each chapter's "what happens
// next?" quiz takes its player to the step it asks about.
async function defects() {
  const context = await open(1280);
  const page = await context.newPage();
  await page.goto(base + "apples/overflow.html", { waitUntil: "load" });
  const rows = await page.$$eval("#fig-overflow-table tbody tr", (all) => all.map((r) => [...r.cells].map((c) => c.textContent)));
  const row35 = rows.find((r) => r[0] === "35");
  if (!row35 || row35[1] !== "33" || row35[2] !== "34") { fail(`apples/overflow.html: the row for 35 people reads ${JSON.stringify(row35)}`); }
  // A numbered tour's lines stop short of its numbers: no point of a path
  // lies inside a number's box.
  for (const [p, fig] of [["knights_tour/warnsdorff.html", "#fig-warnsdorff8"], ["knights_tour/plain-dfs.html", "#fig-tour5"]]) {
    await page.goto(base + p, { waitUntil: "load" });
    const crossed = await page.evaluate((fig) => {
      const root = document.querySelector(fig);
      if (!root) { return ["no figure"]; }
      const boxes = [...root.querySelectorAll("text.t")].map((t) => [t.textContent, t.getBBox()]);
      const hits = [];
      root.querySelectorAll(".path").forEach((path) => {
        const n = path.getTotalLength();
        for (let l = 0; l <= n; l += 1) {
          const pt = path.getPointAtLength(l);
          const hit = boxes.find(([, b]) => pt.x > b.x + 1 && pt.x < b.x + b.width - 1 && pt.y > b.y + 1 && pt.y < b.y + b.height - 1);
          if (hit && !hits.includes(hit[0])) { hits.push(hit[0]); }
        }
      });
      return hits;
    }, fig);
    if (crossed.length) { fail(`${p} ${fig}: a line crosses the numbers ${crossed.join(", ")}`); await shoot(page, "tour_lines"); }
  }
  await page.goto(base + "sudoku/fewest.html", { waitUntil: "load" });
  await page.focus("#player-fewest");
  await page.keyboard.press("g");
  const guesses = await page.$$eval("#player-fewest .cell.guess", (all) => all.length);
  if (guesses < 1) { fail("sudoku/fewest.html: after g (the next guess) no cell is drawn as a guess"); await shoot(page, "sudoku_guess"); }
  await page.goto(base + "intro/index.html", { waitUntil: "load" });
  const keys = await page.$$eval("main p", (all) => all.map((p) => p.innerHTML).join(" ").match(/<strong>(\w)<\/strong> jumps/g) || []);
  for (const k of keys) {
    if (!/<strong>[sdg]<\/strong>/.test(k)) { fail(`intro/index.html names a key the player does not have: ${k}`); }
  }
  const players = { "intro/index.html": "dfs", "apples/recursion.html": "apples", "eight_queens/search.html": "sample-one",
    "n_queens/robot.html": "robot6", "sudoku/fewest.html": "fewest", "knights_tour/plain-dfs.html": "plain5" };
  for (const [p, id] of Object.entries(players)) {
    await page.goto(base + p, { waitUntil: "load" });
    const q = `#quiz-next-${id}`;
    const want = await page.$eval(q, (e) => e.dataset.step).catch(() => null);
    if (want === null) { fail(`${p}: no "what happens next?" quiz`); continue; }
    await page.click(`${q} .bt-goto`);
    const at = await page.$eval(`#player-${id}`, (e) => e.dataset.step);
    if (at !== want) { fail(`${p}: the quiz's button took the player to step ${at}, not ${want}`); }
    // The right answer is what the player says at the next step.
    await page.focus(`#player-${id}`);
    await page.keyboard.press("ArrowRight");
    const said = await page.$eval(`#player-${id} .bt-say`, (e) => e.textContent);
    const right = await page.$eval(`${q} button[data-right="1"]`, (b) => b.textContent);
    if (!said.includes(right)) { fail(`${p}: step ${Number(want) + 1} says "${said}", the quiz's answer is "${right}"`); }
  }
  console.log("the overflow table, the tours' numbers clear of their lines, the sudoku guesses, the intro's keys and six \"what happens next?\" quizzes hold");
  await context.close();
}

// ---- 3b. the n-queens tree is legible on a phone, in every theme ------------

async function tree() {
  for (const theme of ["light", "rust", "coal", "navy", "ayu"]) {
    const context = await open(390, theme);
    const page = await context.newPage();
    await page.goto(base + "n_queens/robot.html", { waitUntil: "load" });
    const t = await page.evaluate(() => {
      const labels = [...document.querySelectorAll("#fig-tree4 text.node-label")];
      const sizes = labels.map((e) => parseFloat(getComputedStyle(e).fontSize) * e.getScreenCTM().a);
      const ink = labels.length ? getComputedStyle(labels[0]).fill : "";
      return { count: labels.length, smallest: Math.min(...sizes), ink, fg: getComputedStyle(document.body).color };
    });
    if (t.count < 61) { fail(`n_queens/robot.html (${theme}): the tree shows ${t.count} labelled nodes, not 61`); }
    if (!(t.smallest >= 11)) { fail(`n_queens/robot.html (${theme}): a tree label is ${t.smallest.toFixed(1)} px at 390 px`); await shoot(page, "tree_" + theme); }
    if (t.ink !== t.fg) { fail(`n_queens/robot.html (${theme}): tree labels draw in ${t.ink}, the text is ${t.fg}`); }
    await context.close();
  }
  console.log("read the n-queens tree at 390 px in five themes: 61 labels, each 11 px or more");
}

// ---- 4. figures in a dark theme ---------------------------------------------

async function darkFigures() {
  const context = await open(1280, "coal");
  const page = await context.newPage();
  let figures = 0;
  for (const p of pages()) {
    if (p === "print.html") { continue; }
    const html = fs.readFileSync(path.join(site, p), "utf8");
    if (!html.includes("bt-figure") && !/<img[^>]+\.svg/.test(html)) { continue; }
    await page.goto(base + p, { waitUntil: "load" });
    const bad = await page.evaluate(() => {
      const problems = [];
      const bg = getComputedStyle(document.body).backgroundColor;
      for (const img of document.querySelectorAll("main img")) {
        if (!img.complete || img.naturalWidth === 0) { problems.push(`image ${img.getAttribute("src")} did not load`); }
        else if (getComputedStyle(img).backgroundColor !== "rgba(0, 0, 0, 0)") { problems.push(`image ${img.getAttribute("src")} sits on a card, not on the theme's background`); }
        else if (/\.svg$/.test(img.getAttribute("src")) && !/invert/.test(getComputedStyle(img).filter)) { problems.push(`plot ${img.getAttribute("src")} keeps black ink in a dark theme`); }
      }
      for (const svg of document.querySelectorAll("main .bt-figure svg")) {
        const r = svg.getBoundingClientRect();
        const text = svg.querySelector("text, polyline");
        const ink = text && getComputedStyle(text)[text.tagName === "text" ? "fill" : "stroke"];
        if (r.width < 150 || r.height < 100) { problems.push(`figure ${svg.parentElement.id} is ${Math.round(r.width)}x${Math.round(r.height)} px`); }
        if (ink && (ink === bg || ink === "rgb(0, 0, 0)")) { problems.push(`figure ${svg.parentElement.id} draws in ${ink} on ${bg}`); }
      }
      return { problems, count: document.querySelectorAll("main .bt-figure svg, main img").length };
    });
    figures += bad.count;
    for (const b of bad.problems) { fail(`${p} (coal theme): ${b}`); }
    if (bad.problems.length) { await shoot(page, "dark_" + p); }
  }
  console.log(`checked ${figures} figures in the coal theme`);
  await context.close();
}

// ---- 4b. the measurement plots at 390 px, in every theme -------------------

// Every plot (an SVG file shown as an image) keeps its text at 11 px or
// more on a phone (it scrolls inside its paragraph rather than shrink), has
// no card, and no text of it is cut by the edge of its canvas.
async function plots() {
  let count = 0;
  for (const theme of ["light", "rust", "coal", "navy", "ayu"]) {
    const context = await open(390, theme);
    const page = await context.newPage();
    for (const p of pages()) {
      if (p === "print.html" || !/<img[^>]+\.svg/.test(fs.readFileSync(path.join(site, p), "utf8"))) { continue; }
      await page.goto(base + p, { waitUntil: "load" });
      const bad = await page.evaluate(async () => {
        const problems = [];
        let n = 0;
        // mdBook's zoom keeps a hidden copy of each image in .img-wrapper.
        for (const img of document.querySelectorAll('main img[src$=".svg"]:not(.img-wrapper img)')) {
          await img.decode().catch(() => {});
          n++;
          const src = img.getAttribute("src");
          const text = await (await fetch(img.src)).text();
          const box = document.createElement("div");
          box.style.cssText = "position:absolute;left:0;top:0;visibility:hidden";
          box.innerHTML = text;
          document.body.appendChild(box);
          const svg = box.querySelector("svg");
          const width = svg.width.baseVal.value;
          for (const r of svg.querySelectorAll("rect")) {
            if (/^(white|#fff(fff)?)$/i.test(r.getAttribute("fill") || "") && r.getBBox().width >= width * 0.9) { problems.push(`${src}: a white card behind the plot`); }
          }
          const scale = img.getBoundingClientRect().width / width;
          let smallest = Infinity;
          for (const t of svg.querySelectorAll("text")) {
            const b = t.getBBox();
            const size = parseFloat(t.getAttribute("font-size") || svg.getAttribute("font-size") || "16");
            smallest = Math.min(smallest, size * scale);
            if (b.x < -0.5 || b.x + b.width > width + 0.5) { problems.push(`${src}: "${t.textContent}" is cut by the canvas edge (${Math.round(b.x)} to ${Math.round(b.x + b.width)} of ${width})`); }
          }
          if (smallest < 11) { problems.push(`${src}: text is ${smallest.toFixed(1)} px at 390 px`); }
          box.remove();
        }
        return { problems, n };
      });
      count += bad.n;
      for (const b of bad.problems) { fail(`${p} (${theme}, 390 px): ${b}`); }
      if (bad.problems.length) { await shoot(page, `plot_${theme}_${p}`); }
    }
    await context.close();
  }
  console.log(`read ${count} plots at 390 px in five themes: text 11 px or more, nothing cut by the canvas, no card`);
}

// ---- 6. every board and grid at 390 px, in every theme ---------------------

// Runs in the page: the problems of the drawings under `sel` (inline SVG):
// a text smaller than 11 px as rendered, a text reaching outside the
// drawing's viewBox (clipped), a text drawn in the background's colour.
function legible(sel) {
  const problems = [];
  let texts = 0;
  const bg = getComputedStyle(document.body).backgroundColor;
  for (const svg of document.querySelectorAll(sel)) {
    const where = (svg.closest("[id]") || {}).id || svg.getAttribute("class");
    const vb = svg.viewBox.baseVal;
    const ctm = svg.getScreenCTM();
    if (!ctm || svg.getBoundingClientRect().width === 0) { continue; }
    const box = vb && vb.width ? vb : { x: 0, y: 0, width: svg.getBBox().width, height: svg.getBBox().height };
    const bad = new Set();
    for (const t of svg.querySelectorAll("text")) {
      if (!t.textContent.trim() || t.getClientRects().length === 0) { continue; }
      texts++;
      const cs = getComputedStyle(t);
      const m = t.getScreenCTM();
      const px = parseFloat(cs.fontSize) * Math.hypot(m.a, m.b);
      const b = t.getBBox();
      // The box in the drawing's own units (a text may sit in a group
      // moved by a transform).
      const p = svg.createSVGPoint();
      p.x = b.x; p.y = b.y;
      const q = p.matrixTransform(ctm.inverse().multiply(m));
      p.x = b.x + b.width; p.y = b.y + b.height;
      const r = p.matrixTransform(ctm.inverse().multiply(m));
      if (px < 11 - 0.05) { bad.add(`"${t.textContent}" is ${px.toFixed(1)} px`); }
      if (q.x < box.x - 0.5 || q.y < box.y - 0.5 || r.x > box.x + box.width + 0.5 || r.y > box.y + box.height + 0.5) {
        bad.add(`"${t.textContent}" reaches outside the drawing`);
      }
      if (cs.fill === bg) { bad.add(`"${t.textContent}" is drawn in the background's colour`); }
    }
    if (bad.size) { problems.push(`${where}: ${[...bad].slice(0, 4).join("; ")}${bad.size > 4 ? ` (${bad.size} in all)` : ""}`); }
  }
  return { problems, texts };
}

async function boards() {
  let drawings = 0;
  let texts = 0;
  for (const theme of ["light", "rust", "coal", "navy", "ayu"]) {
    const context = await open(390, theme);
    const page = await context.newPage();
    for (const p of pages()) {
      if (p === "print.html") { continue; }
      const html = fs.readFileSync(path.join(site, p), "utf8");
      if (!html.includes("bt-figure") && !html.includes('class="bt-player"')) { continue; }
      await page.goto(base + p, { waitUntil: "load" });
      await page.evaluate(() => document.fonts.ready);
      // On a phone a player's tree is folded below its controls: unfold it,
      // so its texts are read too.
      await page.$$eval(".bt-player .bt-fold", (all) => all.forEach((d) => { d.open = true; }));
      const all = [];
      const figs = await page.evaluate(legible, "main .bt-figure svg");
      all.push(...figs.problems);
      texts += figs.texts;
      drawings += await page.$$eval("main .bt-figure svg", (e) => e.length);
      // Every instance of every player, after a few steps (so the board and
      // the tree hold some marks), board and tree alike.
      for (const id of await page.$$eval(".bt-player", (e) => e.map((x) => x.id))) {
        const n = await page.$$eval(`#${id} .bt-instance option`, (o) => o.length);
        for (let i = 0; i < Math.max(n, 1); i++) {
          if (n) { await page.selectOption(`#${id} .bt-instance select`, String(i)); }
          await page.focus("#" + id);
          // After 12 steps (a board half filled, a small tree) and at the
          // end (the whole board, the biggest tree).
          for (const at of ["after 12 steps", "at the end"]) {
            if (at === "at the end") { await page.keyboard.press("End"); } else { for (let k = 0; k < 12; k++) { await page.keyboard.press("ArrowRight"); } }
            const got = await page.evaluate(legible, `#${id} svg`);
            all.push(...got.problems.map((x) => `instance ${i} ${at}: ${x}`));
            texts += got.texts;
            drawings += await page.$$eval(`#${id} svg`, (e) => e.length);
          }
        }
      }
      for (const b of all) { fail(`${p} (${theme}, 390 px): ${b}`); }
      if (all.length) { await shoot(page, `board_${theme}_${p}`); }
    }
    await context.close();
  }
  console.log(`read ${drawings} drawn boards, grids, graphs and trees (${texts} texts) at 390 px in five themes: each text 11 px or more, inside its drawing, not in the background's colour`);
}

// ---- 5b. trees a reader can read without hovering -------------------------

// Runs in the page: what player `id` shows of its tree and frames.
function treeShown(id) {
  const root = document.getElementById(id);
  const nodes = [...root.querySelectorAll(".bt-tree .tnode")].filter((g) => !g.classList.contains("unseen"));
  return {
    titles: root.querySelectorAll(".bt-tree title").length,
    nodes: nodes.map((g) => ({
      node: g.dataset.node === undefined ? null : Number(g.dataset.node),
      fold: g.classList.contains("fold") ? g.getAttribute("class") : null,
      label: (g.querySelector("text.tlabel") || { textContent: "" }).textContent,
      value: (g.querySelector("text.tval") || { textContent: "" }).textContent,
    })),
    path: root.querySelector(".bt-path").textContent,
    frames: [...root.querySelectorAll(".bt-frames li")].map((li) => li.textContent),
    locals: [...root.querySelectorAll(".bt-frames li")].map((li) => (li.querySelector(".bt-locals") || { textContent: "" }).textContent),
    node: Number(root.dataset.node),
  };
}

async function readableTrees() {
  let checked = 0;
  // The players some checks below are about by name: each must be met, or those checks never ran.
  const named = new Set(["player-sample-one", "player-fewest", "player-apples", "player-plain5"]);
  const met = new Set();
  for (const theme of ["light", "rust", "coal", "navy", "ayu"]) {
    const context = await open(1280, theme);
    const page = await context.newPage();
    for await (const { p, html, ids } of playerPages(page)) {
      for (const id of ids) {
        met.add(id);
        const traces = pageTraces(html, id);
        const folds = new Set();
        let localsShown = 0;
        for (let i = 0; i < traces.length; i++) {
          const trace = traces[i];
          const where = `${p} #${id} (${trace.instance}, ${theme})`;
          if (i > 0) { await page.selectOption(`#${id} .bt-instance select`, String(i)); }
          const parent = [-1];
          const depth = [0];
          for (const [, node, par] of trace.steps) { if (node === depth.length) { parent.push(par); depth.push(depth[par] + 1); } }
          const args = new Map((trace.calls || []).map(([v, a]) => [v, a]));
          if (id === "player-sample-one" && Math.max(...depth) > 8) {
            fail(`${where}: the eight-queens tree is ${Math.max(...depth)} deep; a level per queen makes it 8 at most`);
          }
          if (trace.function && !args.size) { fail(`${where}: the trace names ${trace.function} but labels no call`); }
          await page.focus("#" + id);
          await page.keyboard.press("Home");
          let at = 0;
          let returned = 0;
          const n = trace.steps.length;
          for (const k of [40, 80, 160, 320, n].filter((x, j, all) => x <= n && all.indexOf(x) === j)) {
            for (; at < k; at++) { await page.keyboard.press("ArrowRight"); }
            const got = await page.evaluate(treeShown, id);
            checked++;
            const bad = [];
            if (got.titles) { bad.push(`${got.titles} hover titles in the tree`); }
            const unlabelled = got.nodes.filter((g) => !g.label.trim());
            if (unlabelled.length) { bad.push(`${unlabelled.length} of ${got.nodes.length} drawn nodes carry no label`); }
            for (const g of got.nodes) {
              // A sibling's label may drop what it shares with the node on
              // the path ("…3" beside "0,2,4,1"): what it keeps ends its call.
              const shown = g.label.split(" ")[0];
              const whole = g.node !== null && args.has(g.node) ? args.get(g.node) : null;
              if (whole !== null && !g.label.startsWith(whole) && !(shown.startsWith("…") && whole.endsWith(shown.slice(1)))) {
                bad.push(`node ${g.node} reads "${g.label}", its call is (${args.get(g.node)})`);
                break;
              }
              if (g.fold) { folds.add(g.fold.includes("skip") ? "skip:" + g.label : g.fold.includes("forced") ? "forced:" + g.label : "earlier"); }
              if (/→|✓|✗/.test(g.label + g.value)) { returned++; }
            }
            // The path line: one entry per decision. A trace that counts its
            // guesses folds each run of forced levels into one entry, so
            // at most two entries per guess (and the root, the current
            // node); any other names every level (each is a choice).
            const entries = got.path.split(" → ").length;
            const onPath = [];
            for (let v = got.node; v >= 0; v = parent[v]) { onPath.push(v); }
            const guessed = new Set(trace.steps.filter((st) => st[4] === "guess").map((st) => st[1]));
            if (trace.counters.some((c) => c[1] === "marks:guess")) {
              const decisions = onPath.filter((v) => guessed.has(v)).length;
              if (entries > 2 * decisions + 3) { bad.push(`the path line has ${entries} entries for ${decisions} guesses: "${got.path.slice(0, 80)}…"`); }
            } else if (entries !== onPath.length) {
              bad.push(`the path line has ${entries} entries for ${onPath.length} levels`);
            }
            if (id === "player-sample-one" && entries > 9) { bad.push(`the path line names ${entries} entries; 8 queens and the start make 9 at most`); }
            if (trace.function) {
              const open = [];
              for (let v = got.node; v >= 0; v = parent[v]) { if (args.has(v)) { open.push(v); } }
              if (got.frames.length !== open.length) {
                bad.push(`the frames panel lists ${got.frames.length} calls, the path has ${open.length} open`);
              } else if (open.length && !got.frames[0].startsWith(`${trace.function}(${args.get(open[0])})`)) {
                bad.push(`the innermost frame reads "${got.frames[0]}", not ${trace.function}(${args.get(open[0])})`);
              } else {
                // Each open call shows its latest locals recorded by step k
                // (a `locals` record holds from the step it goes with).
                for (let j = 0; j < open.length; j++) {
                  let want = "";
                  for (const [v, text, from] of trace.locals || []) { if (v === open[j] && from <= k) { want = text; } }
                  if (got.locals[j] !== want) { bad.push(`frame ${j} (node ${open[j]}) shows locals "${got.locals[j]}", not "${want}"`); break; }
                  if (want) { localsShown++; }
                }
              }
            }
            if (bad.length) { fail(`${where} at step ${k}: ${bad.join("; ")}`); await shoot(page, `tree_${theme}_${id}_${i}_${k}`); break; }
          }
          // Something to show: a return recorded, a dead end or a solution.
          const ends = (trace.returns || []).length || trace.steps.some((st) => st[4] === "dead" || st[4] === "solution");
          if (ends && !returned) { fail(`${where}: no node shows what it returned (→ value, ✓ or ✗), even at the end`); }
        }
        if (["player-apples", "player-plain5", "player-fewest"].includes(id) && !localsShown) { fail(`${p} #${id} (${theme}): the frames panel never shows an open call's locals`); }
        const skips = [...folds].filter((f) => /^skip:.*\d+–\d+/.test(f));
        if (id === "player-sample-one" && !skips.length) { fail(`${p} #${id} (${theme}): no run of skipped squares is folded into one labelled node`); }
        if (id === "player-fewest" && ![...folds].some((f) => f.startsWith("forced:"))) { fail(`${p} #${id} (${theme}): no run of forced cells is folded into one node`); }
      }
    }
    await context.close();
  }
  for (const id of named) { if (!met.has(id)) { fail(`no player #${id} in the book: the checks named for it did not run`); } }
  console.log(`read ${checked} player trees in five themes at 1280 px: every node labelled without hovering, returns shown, eight queens at most 8 deep, runs folded, the path line of decisions, the frames panel with its calls' locals`);
}

// ---- 7. a player on a phone: board, narration and controls on one screen ---

// Runs in the page: what of player `id` is outside the screen.
function offScreen(id) {
  const root = document.getElementById(id);
  const h = window.innerHeight;
  const w = document.documentElement.clientWidth;
  const out = [];
  for (const [name, sel] of [["board", ".bt-boardbox svg"], ["narration", ".bt-say"], ["controls", ".bt-controls"]]) {
    const e = root.querySelector(sel);
    if (!e) { out.push(`no ${name}`); continue; }
    const r = e.getBoundingClientRect();
    if (r.height === 0) { out.push(`the ${name} is not drawn`); continue; }
    if (r.top < -1 || r.bottom > h + 1 || r.left < -1 || r.right > w + 1) {
      out.push(`the ${name} spans ${Math.round(r.top)}-${Math.round(r.bottom)} px of a ${h} px screen`);
    }
  }
  const fold = root.querySelector(".bt-fold");
  if (!fold || fold.hidden || fold.open || !fold.querySelector(".bt-treebox") || !fold.querySelector(".bt-code")) {
    out.push("the tree and the code are not folded below the controls");
  }
  return out;
}

async function phone() {
  const small = await open(390, undefined, 844);
  const wide = await open(1280);
  const page = await small.newPage();
  const big = await wide.newPage();
  let count = 0;
  for await (const { p, ids } of playerPages(page)) {
    for (const id of ids) {
      count++;
      await page.$eval("#" + id, (e) => e.scrollIntoView({ block: "start" }));
      let bad = await page.evaluate(offScreen, id);
      if (!bad.length) {
        await page.focus("#" + id);
        for (let i = 0; i < 40; i++) { await page.keyboard.press("ArrowRight"); }
        await page.$eval("#" + id, (e) => e.scrollIntoView({ block: "start" }));
        bad = (await page.evaluate(offScreen, id)).map((b) => "after 40 steps, " + b);
      }
      if (bad.length) { fail(`${p} #${id} at 390 x 844: ${bad.join("; ")}`); await shoot(page, "phone_" + p + "_" + id); }
    }
    await big.goto(base + p, { waitUntil: "load" });
    const beside = await big.$$eval(".bt-player", (all) => all.map((e) => {
      const board = e.querySelector(".bt-stage .bt-boardbox");
      const tree = e.querySelector(".bt-stage .bt-treebox");
      const fold = e.querySelector(".bt-fold");
      if (!board || !tree || !e.querySelector(".bt-stage .bt-code")) { return `${e.id}: the tree or the code is not in the stage`; }
      if (fold && !fold.hidden) { return `${e.id}: the fold shows on a wide screen`; }
      const b = board.getBoundingClientRect();
      const t = tree.getBoundingClientRect();
      return t.left >= b.right - 1 && t.top < b.bottom ? null : `${e.id}: the tree is not beside the board`;
    }));
    for (const b of beside.filter(Boolean)) { fail(`${p} at 1280 px: ${b}`); }
  }
  await small.close();
  await wide.close();
  console.log(`read ${count} players on a 390 x 844 phone: board, narration and controls on one screen, tree and code folded; at 1280 px beside the board`);
}

try {
  await everyPage();
  await wideTables();
  await players();
  await quizzes();
  await defects();
  await tree();
  await readableTrees();
  await darkFigures();
  await plots();
  await boards();
  await phone();
} finally {
  await browser.close();
  server.close();
}
if (failures.length) {
  console.log(`\n${failures.length} failure(s); screenshots in ${path.relative(root, shots)}/`);
  process.exit(1);
}
console.log("\nthe book passes in chromium");
