import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import * as prettier from "prettier";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers.js";

/**
 * The only runtime modules with a dependency, and the library each may import: auth modules,
 * emitted only when asked (`auth`), whose library is a peer dependency of the output.
 */
const LIBRARY_IMPORTS: Record<string, string> = { "auth-jwt.ts": "jose" };

// Runtime modules are copied into outputs as they are (not formatted at generation), so the
// sources themselves must already be what prettier prints with the generator's options.
describe("runtime sources", () => {
  const dir = join(ROOT, "runtime");
  const files = readdirSync(dir).filter((f) => f.endsWith(".ts"));

  it.each(files)("%s is prettier-formatted", async (file) => {
    const text = readFileSync(join(dir, file), "utf8");
    expect(await prettier.format(text, { parser: "babel-ts", printWidth: 100 })).toBe(text);
  });

  it.each(files)("%s imports only other runtime modules (and its one library, if allowed)", (file) => {
    const text = readFileSync(join(dir, file), "utf8");
    for (const [, from] of text.matchAll(/from "([^"]+)"/g)) {
      if (from === LIBRARY_IMPORTS[file]) continue;
      expect(from).toMatch(/^(\.\/[\w-]+\.js|node:[\w/]+)$/);
    }
  });
});
