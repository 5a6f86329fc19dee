// Screenshots of the book's players and quiz pages for a reader's eye:
// every player page at 1280 and 390 px in the light and coal themes, after
// 40 steps (at 390 px, the unfolded tree too). Usage: node book/tests/screens.mjs OUT_DIR [PAGE...]
// (run `cargo xtask book build` first); PAGE#ID shoots the element with that
// id instead (a figure, a quiz). Nothing is checked here; browser.mjs is
// the test.
import { chromium } from "playwright-core";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const site = path.resolve(here, "../book");
const out = path.resolve(process.argv[2] || path.join(here, "screenshots"));
const pages = process.argv.slice(3).length ? process.argv.slice(3) : [
  "intro/index.html", "apples/recursion.html", "eight_queens/search.html",
  "n_queens/robot.html", "sudoku/fewest.html", "knights_tour/plain-dfs.html",
];
const server = http.createServer((req, res) => {
  let file = path.normalize(path.join(site, decodeURIComponent(req.url.split(/[?#]/)[0])));
  if (!file.startsWith(site) || !fs.existsSync(file)) { res.writeHead(404); res.end(); return; }
  if (fs.statSync(file).isDirectory()) { file = path.join(file, "index.html"); }
  const type = { ".html": "text/html", ".css": "text/css", ".js": "application/javascript", ".svg": "image/svg+xml" }[path.extname(file)];
  res.writeHead(200, type ? { "Content-Type": type } : {});
  res.end(fs.readFileSync(file));
});
await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
const base = `http://127.0.0.1:${server.address().port}/`;
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || "/usr/bin/chromium", args: ["--headless", "--no-sandbox", "--disable-gpu"] });
fs.mkdirSync(out, { recursive: true });
for (const theme of ["light", "coal"]) {
  for (const width of [1280, 390]) {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    await context.addInitScript((t) => localStorage.setItem("mdbook-theme", t), theme);
    const page = await context.newPage();
    for (const arg of pages) {
      const [p, id] = arg.split("#");
      await page.goto(base + p, { waitUntil: "load" });
      const player = id ? null : await page.$(".bt-player");
      let target = id ? await page.$("#" + id) : page;
      if (player) {
        await player.focus();
        for (let i = 0; i < 40; i++) { await page.keyboard.press("ArrowRight"); }
        target = player;
      }
      const name = `${arg.replace(/[^a-z0-9]+/gi, "_")}_${width}_${theme}.png`;
      await target.screenshot({ path: path.join(out, name) });
      console.log(path.join(out, name));
      // On a phone the tree and the frames fold below the controls: the
      // unfolded panel too.
      const fold = player && await player.$(".bt-fold:not([hidden])");
      if (fold) {
        await fold.evaluate((d) => { d.open = true; });
        const tree = await player.$(".bt-fold .bt-treebox");
        const name2 = name.replace(/\.png$/, "_tree.png");
        await tree.screenshot({ path: path.join(out, name2) });
        console.log(path.join(out, name2));
      }
    }
    await context.close();
  }
}
await browser.close();
server.close();
