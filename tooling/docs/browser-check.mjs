// `npm run docs:check`: the built site (npm run docs:build) in a real headless browser,
// Debian's Chromium driven by playwright-core, served by VitePress's own preview server on a
// free port. Checks that the home page and a guide render (with their included code), that
// the navigation bar and the sidebar lead where they say, and that the local search finds a
// word only one page has. Exits 1 naming the first thing that failed.
//
//   CHROMIUM=/path/to/chromium   (default /usr/bin/chromium; `.ci/run` installs it)
//   DOCS_SCREENSHOTS=DIR         also save a screenshot of each page checked
import { existsSync, mkdirSync } from "node:fs";
import { once } from "node:events";
import { join } from "node:path";
import { DIST, DOCS } from "./tools.mjs";

const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
// Without the background-networking flags Chromium's own connections are refused by a
// closed network, many at a time (/work/.library/env/machines/node.md).
const FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

function fail(message) {
  console.error(`docs:check: ${message}`);
  process.exit(1);
}

if (!existsSync(join(DIST, "index.html")))
  fail(`no built site in ${DIST}: run npm run docs:build first`);
if (!existsSync(CHROMIUM))
  fail(`no Chromium at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM)`);

const { chromium } = await import(join(DOCS, "node_modules", "playwright-core", "index.mjs"));
const { serve } = await import(join(DOCS, "node_modules", "vitepress", "dist", "node", "index.js"));

const preview = await serve({ root: DOCS, port: 0 });
if (!preview.server.listening) await once(preview.server, "listening");
const site = `http://127.0.0.1:${preview.server.address().port}`;
console.log(`docs:check: the built site on ${site}`);
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  // launch() gives the browser a new empty profile of its own (--user-data-dir is refused).
  args: FLAGS,
});
const shots = process.env.DOCS_SCREENSHOTS;
if (shots) mkdirSync(shots, { recursive: true });

const checks = [];
async function check(name, run) {
  const started = Date.now();
  try {
    await run();
    checks.push(`ok   ${name} (${Date.now() - started} ms)`);
  } catch (error) {
    checks.push(`FAIL ${name}: ${error.message.split("\n")[0]}`);
  }
}

try {
  const page = await browser.newPage();
  page.setDefaultTimeout(15_000);
  const errors = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (msg) => {
    // A failed load is reported with its URL by the response listener below.
    if (msg.type() === "error" && !msg.text().startsWith("Failed to load resource"))
      errors.push(msg.text());
  });
  page.on("response", (response) => {
    if (response.status() >= 400) errors.push(`${response.status()} for ${response.url()}`);
  });
  const heading = (text) => page.locator("h1", { hasText: text }).first().waitFor();
  const shot = async (name) => shots && page.screenshot({ path: join(shots, `${name}.png`) });

  await check("the home page renders its hero and actions", async () => {
    await page.goto(`${site}/`);
    await page.locator(".VPHero .name", { hasText: "mcp-gen" }).waitFor();
    await page.locator(".VPHero a", { hasText: "Get started" }).waitFor();
    const features = await page.locator(".VPFeature").count();
    if (features < 4) throw new Error(`${features} feature cards, expected 4`);
    await shot("home");
  });

  await check("a guide renders, with the code included from examples/", async () => {
    await page.locator(".VPHero a", { hasText: "Get started" }).click();
    await page.waitForURL(`${site}/guide/get-started`);
    await heading("Get started");
    // The client example's code, highlighted: its text is the file's.
    await page
      .locator("div[class*='language-ts'] code", { hasText: "StreamableHTTPClientTransport" })
      .first()
      .waitFor();
    await page
      .locator("div[class*='language-ts'] code", { hasText: "defineTools(" })
      .first()
      .waitFor();
    await shot("get-started");
  });

  await check("the sidebar and the navigation bar lead to their pages", async () => {
    await page.locator(".VPSidebar a", { hasText: "Troubleshooting" }).first().click();
    await page.waitForURL(`${site}/guide/troubleshooting`);
    await heading("Troubleshooting");
    await page.locator(".VPNavBar a", { hasText: "Reference" }).first().click();
    await page.waitForURL(`${site}/reference/cli`);
    await heading("CLI reference");
    await page.locator(".VPNavBar a", { hasText: "API" }).first().click();
    await page.waitForURL(/\/reference\/api\/?$/);
    // The API reference names each module by the subpath it is imported from.
    await page
      .locator(".vp-doc a", { hasText: /^server$/ })
      .first()
      .click();
    await page.waitForURL(/\/reference\/api\/server\/?$/);
    await heading("server");
    await page.locator(".vp-doc a", { hasText: "createRouter" }).first().waitFor();
    await page.locator(".VPSidebar a", { hasText: "Roadmap" }).first().click();
    await page.waitForURL(`${site}/project/ROADMAP`);
    await heading("Roadmap");
    await shot("roadmap");
  });

  await check("search finds a word only the troubleshooting page has, and goes there", async () => {
    await page.goto(`${site}/`);
    await page.locator(".VPNavBarSearch button").click();
    const input = page.locator(".VPLocalSearchBox input");
    await input.fill("Origin not allowed");
    const hit = page.locator(".VPLocalSearchBox .result", { hasText: "Troubleshooting" }).first();
    await hit.waitFor();
    await shot("search");
    await hit.click();
    await page.waitForURL(new RegExp(`${site}/guide/troubleshooting(#.*)?$`));
    await heading("Troubleshooting");
  });

  if (errors.length > 0)
    checks.push(`FAIL the pages logged errors: ${errors.slice(0, 3).join(" | ")}`);
} finally {
  await browser.close();
  preview.server.close();
}

for (const line of checks) console.log(`docs:check: ${line}`);
if (checks.some((line) => line.startsWith("FAIL"))) process.exit(1);
console.log(`docs:check: ${checks.length} checks passed in Chromium (${CHROMIUM})`);
