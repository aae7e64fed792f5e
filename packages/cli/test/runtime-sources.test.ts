import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import * as prettier from "prettier";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import {
  PACKAGE_IMPORTS,
  PEER_IMPORTS,
  RUNTIME_SRC,
  sourceClosure,
  vendoredFiles,
} from "../src/generators/emit/runtime.js";
import { STRICT_OPTIONS, tempDir, typecheck, writeFiles } from "./helpers.js";
import { itCompiles } from "./support/compile.js";
import { transpileForTest } from "./support/transpile.js";

// The runtime package's sources are also what `--runtime vendor` copies into outputs as they
// are (not formatted at generation), so they must already be what prettier prints with the
// generator's options, and import nothing but each other, Node and their listed library.
describe("runtime sources", () => {
  const files = (readdirSync(RUNTIME_SRC, { recursive: true }) as string[])
    .filter((f) => f.endsWith(".ts"))
    .map((f) => f.split("\\").join("/"))
    .sort();

  it.each(files)("%s is prettier-formatted", async (file) => {
    const text = readFileSync(join(RUNTIME_SRC, file), "utf8");
    expect(await prettier.format(text, { parser: "babel-ts", printWidth: 100 })).toBe(text);
  });

  // The runtime has no dependencies, except the auth modules PEER_IMPORTS lists (optional peer
  // dependencies of the package, behind their own entry points): only they may import their library.
  it.each(files)("%s imports only other runtime modules (or its listed library)", (file) => {
    const text = readFileSync(join(RUNTIME_SRC, file), "utf8");
    const libraries = Object.keys(PEER_IMPORTS).filter((p) => PEER_IMPORTS[p]!.includes(file));
    for (const [, from] of text.matchAll(/from "([^"]+)"/g)) {
      // The package's own subpath imports (#default-fetch), which vendored copies make relative.
      if (libraries.includes(from!) || PACKAGE_IMPORTS[from!] !== undefined) continue;
      expect(from).toMatch(/^(\.\.?\/[\w./-]+\.js|node:[\w/]+)$/);
    }
    // A dynamic import (auth/dpop.ts loads jose when a server asks for DPoP) is a library's too,
    // but for Node's own modules (serveHttp loads node:http when called, so the module that
    // holds it loads where node:http is missing).
    const dynamic = text.replace(/typeof import\(/g, "").replace(/\bimport\("node:[\w/]+"\)/g, "");
    if (/\bimport\(/.test(dynamic)) expect(libraries.length, file).toBeGreaterThan(0);
  });

  it("the library table names existing modules, and no core module is among them", () => {
    const listed = Object.values(PEER_IMPORTS).flat();
    for (const module of listed) expect(files).toContain(module);
    for (const core of [
      "transport/http/client/client.ts",
      "auth/http-auth.ts",
      "transport/http/server/server.ts",
      "auth/resource-server.ts",
      "client/engine.ts",
      "server/router.ts",
    ])
      expect(listed).not.toContain(core);
  });

  // README "What it generates": the output compiles with Node's types and no DOM lib, so the
  // runtime must not name DOM-only globals (`CryptoKey`, `ReadableStreamReadResult`, ...).
  // The auth modules are left out: their libraries' own types need the DOM lib.
  itCompiles(
    "modules without a library type-check with Node's types alone (lib ES2022, no DOM)",
    () => {
      const peers = new Set(Object.values(PEER_IMPORTS).flat());
      const plain = files.filter((m) => !sourceClosure([m]).some((reached) => peers.has(reached)));
      expect(plain).toEqual(
        expect.arrayContaining([
          "server/request-state.ts",
          "transport/sse.ts",
          "transport/http/client/client.ts",
          "server/router.ts",
        ]),
      );
      const errors = typecheck(
        plain.map((m) => join(RUNTIME_SRC, m)),
        { ...STRICT_OPTIONS, lib: ["lib.es2022.d.ts"], skipLibCheck: true },
      );
      expect(errors).toEqual([]);
    },
  );

  // A vendored copy has no package.json, so the package's own subpath imports (#default-fetch)
  // must be rewritten to the module their "default" condition names. PACKAGE_IMPORTS is read
  // from package.json: a new import there must work in a copy with no other change.
  itCompiles(
    'every package.json "imports" entry works in a vendored copy: rewritten, compiled, loaded',
    async () => {
      const manifest = JSON.parse(
        readFileSync(join(RUNTIME_SRC, "..", "package.json"), "utf8"),
      ) as {
        imports: Record<string, unknown>;
      };
      expect(Object.keys(PACKAGE_IMPORTS).sort()).toEqual(Object.keys(manifest.imports).sort());
      const specifiers = (file: string) =>
        ts
          .preProcessFile(readFileSync(join(RUNTIME_SRC, file), "utf8"), true, true)
          .importedFiles.map((f) => f.fileName);
      const users = files.filter((f) => specifiers(f).some((spec) => spec.startsWith("#")));
      // Every import is used (else it is dead weight in package.json), and only listed ones are.
      const used = new Set(users.flatMap((f) => specifiers(f).filter((s) => s.startsWith("#"))));
      expect([...used].sort()).toEqual(Object.keys(manifest.imports).sort());
      const copy = vendoredFiles(sourceClosure(users));
      for (const target of Object.values(PACKAGE_IMPORTS))
        expect(copy.map((f) => f.path)).toContain(`runtime/${target}`);
      for (const file of copy)
        expect(
          ts
            .preProcessFile(file.code, true, true)
            .importedFiles.filter((f) => f.fileName.startsWith("#")),
          file.path,
        ).toEqual([]);
      // Compiled where no package.json has "imports": a specifier left as it was fails to resolve.
      const dir = tempDir();
      writeFiles(
        dir,
        copy.map((f) => ({ path: f.path, content: f.code })),
      );
      writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
      expect(typecheck(copy.map((f) => join(dir, f.path)))).toEqual([]);
      // And loaded by Node, as JavaScript, from the same place.
      writeFiles(
        dir,
        copy.map((f) => ({
          path: f.path.replace(/\.ts$/, ".js"),
          content: transpileForTest(f.path, f.code),
        })),
      );
      for (const user of users) {
        const loaded = (await import(
          pathToFileURL(join(dir, "runtime", user.replace(/\.ts$/, ".js"))).href
        )) as Record<string, unknown>;
        expect(Object.keys(loaded).length, user).toBeGreaterThan(0);
      }
    },
  );
});
