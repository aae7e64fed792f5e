// The broken-link check on the built site: every link and asset a page names (href, src)
// that stays on the site must reach a built file, and a link with a #fragment an element
// with that id in the page it reaches. VitePress's own check (ignoreDeadLinks: false) fails
// the build on links to missing pages; this adds anchors, assets and the pages TypeDoc wrote.
// Links that leave the site (http:, https:, mailto:) are not fetched: the build machine
// reaches no network but the npm registry.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { DIST } from "./tools.mjs";

function htmlFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? htmlFiles(path) : entry.name.endsWith(".html") ? [path] : [];
  });
}

/** The built file a site path reaches (clean URLs: /guide/x is guide/x.html), or undefined. */
function fileFor(dist, pathname) {
  const path = decodeURIComponent(pathname).replace(/^\//, "");
  for (const candidate of [path, `${path}.html`, join(path, "index.html")]) {
    const full = join(dist, candidate);
    if (existsSync(full) && statSync(full).isFile()) return full;
  }
  return undefined;
}

const ids = new Map();
function idsOf(file) {
  if (!ids.has(file)) {
    const html = readFileSync(file, "utf8");
    ids.set(file, new Set([...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1])));
  }
  return ids.get(file);
}

/** Every broken link of the built site, `page: link (why)`. */
export function brokenLinks(dist = DIST) {
  const broken = [];
  const pages = htmlFiles(dist);
  if (pages.length === 0) throw new Error(`no built pages in ${dist}: run the build first`);
  for (const page of pages) {
    const html = readFileSync(page, "utf8");
    const base = new URL(`http://site/${relative(dist, page)}`);
    for (const [, attr, raw] of html.matchAll(/\s(href|src)="([^"]*)"/g)) {
      const link = raw.replaceAll("&amp;", "&");
      if (/^(https?:|mailto:|data:|javascript:)/.test(link) || link.startsWith("//")) continue;
      const url = new URL(link, base);
      const target = url.pathname === base.pathname ? page : fileFor(dist, url.pathname);
      const name = `${relative(dist, page)}: ${attr}="${raw}"`;
      if (!target) {
        broken.push(`${name} (no such page or file)`);
        continue;
      }
      const fragment = decodeURIComponent(url.hash.slice(1));
      if (fragment && target.endsWith(".html") && !idsOf(target).has(fragment))
        broken.push(`${name} (no #${fragment} in ${relative(dist, target)})`);
    }
  }
  return { pages: pages.length, broken };
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  const { pages, broken } = brokenLinks();
  if (broken.length > 0) {
    console.error(`check-links: ${broken.length} broken links:\n${broken.join("\n")}`);
    process.exit(1);
  }
  console.log(`check-links: every link of ${pages} pages reaches its page and anchor`);
}
