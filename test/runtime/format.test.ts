import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import * as prettier from "prettier";
import { describe, expect, it } from "vitest";
import { PEER_IMPORTS, runtimeClosure } from "../../generators/runtime.js";
import { ROOT, STRICT_OPTIONS, typecheck } from "../helpers.js";

// Runtime modules are copied into outputs as they are (not formatted at generation), so the
// sources themselves must already be what prettier prints with the generator's options.
describe("runtime sources", () => {
  const dir = join(ROOT, "runtime");
  const files = readdirSync(dir).filter((f) => f.endsWith(".ts"));

  it.each(files)("%s is prettier-formatted", async (file) => {
    const text = readFileSync(join(dir, file), "utf8");
    expect(await prettier.format(text, { parser: "babel-ts", printWidth: 100 })).toBe(text);
  });

  // Generated code has no dependencies, except the auth modules PEER_IMPORTS lists (emitted
  // only when asked, `auth`): only they may import their library, a peer dependency of the output.
  it.each(files)("%s imports only other runtime modules (or its listed library)", (file) => {
    const text = readFileSync(join(dir, file), "utf8");
    const module = file.replace(/\.ts$/, "");
    const libraries = Object.keys(PEER_IMPORTS).filter((p) => PEER_IMPORTS[p]!.includes(module));
    for (const [, from] of text.matchAll(/from "([^"]+)"/g)) {
      if (libraries.includes(from!)) continue;
      expect(from).toMatch(/^(\.\/[\w-]+\.js|node:[\w/]+)$/);
    }
    // A dynamic import (auth-dpop.ts loads jose when a server asks for DPoP) is a library's too.
    if (/\bimport\(/.test(text.replace(/typeof import\(/g, "")))
      expect(libraries.length, file).toBeGreaterThan(0);
  });

  it("the library table names existing modules, and no core module is among them", () => {
    const listed = Object.values(PEER_IMPORTS).flat();
    for (const module of listed) expect(files).toContain(`${module}.ts`);
    for (const core of [
      "http-client",
      "http-auth",
      "http-server",
      "resource-server",
      "client",
      "router",
    ])
      expect(listed).not.toContain(core);
  });

  // README "What it generates": the output compiles with Node's types and no DOM lib, so the
  // runtime must not name DOM-only globals (`CryptoKey`, `ReadableStreamReadResult`, ...).
  // The auth modules are left out: their libraries' own types need the DOM lib.
  it("modules without a library type-check with Node's types alone (lib ES2022, no DOM)", () => {
    const peers = new Set(Object.values(PEER_IMPORTS).flat());
    const plain = files
      .map((f) => f.replace(/\.ts$/, ""))
      .filter((m) => !runtimeClosure([m]).some((reached) => peers.has(reached)));
    expect(plain).toEqual(
      expect.arrayContaining(["request-state", "sse", "http-client", "router"]),
    );
    const errors = typecheck(
      plain.map((m) => join(dir, `${m}.ts`)),
      { ...STRICT_OPTIONS, lib: ["lib.es2022.d.ts"], skipLibCheck: true },
    );
    expect(errors).toEqual([]);
  }, 60_000);
});
