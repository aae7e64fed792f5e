import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// The runtime's modules import each other without cycles: a cycle makes load order matter
// (a class read before its module ran is undefined) and ties layers that eslint.config.js
// keeps apart (RUNTIME_LAYERS). Type-only imports vanish at compile time, so they cannot
// change load order; a cycle through them still ties two modules into one, so none is kept.

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), "..", "src");

/** The modules `file` imports at run time, by path relative to src/ (statements and import()). */
function runtimeImports(file: string, text: string, withTypes = false): string[] {
  const statement = withTypes
    ? /^\s*(?:import|export)\s+[^;]*?\bfrom\s+"(\.[^"]+)"/gm
    : /^\s*(?:import|export)\s+(?!type\s)[^;]*?\bfrom\s+"(\.[^"]+)"/gm;
  const specifiers = [
    // `import x from`, `import { a, type b } from`, `export * from`, `export { a } from`; not
    // `import type` nor `export type`.
    ...text.matchAll(statement),
    ...text.matchAll(/^\s*import\s+"(\.[^"]+)"/gm),
    ...text.matchAll(/(?<!typeof )\bimport\(\s*"(\.[^"]+)"\s*\)/g),
  ].map((match) => match[1]!);
  return specifiers.map((spec) =>
    relative(SRC, resolve(dirname(join(SRC, file)), spec.replace(/\.js$/, ".ts"))),
  );
}

/** Each cycle found by a depth-first walk, as the modules on it (the first repeated at the end). */
function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const cycles: string[][] = [];
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (node: string) => {
    const at = path.indexOf(node);
    if (at !== -1) return void cycles.push([...path.slice(at), node]);
    if (done.has(node)) return;
    path.push(node);
    for (const next of graph.get(node) ?? []) visit(next);
    path.pop();
    done.add(node);
  };
  for (const node of [...graph.keys()].sort()) visit(node);
  return cycles;
}

describe("the runtime's import graph", () => {
  const files = (readdirSync(SRC, { recursive: true }) as string[])
    .map((f) => f.split("\\").join("/"))
    .filter((f) => f.endsWith(".ts"));
  const graph = new Map(
    files.map((file) => [file, runtimeImports(file, readFileSync(join(SRC, file), "utf8"))]),
  );

  it("is read: every import names a module of src/", () => {
    expect(files.length).toBeGreaterThan(100);
    expect(graph.get("client/errors.ts")).toContain("core/transport-error.ts");
    expect(graph.get("client/engine.ts")).not.toContain("core/transport.ts"); // type-only
    for (const [file, targets] of graph)
      for (const target of targets) expect(files, `${file} -> ${target}`).toContain(target);
  });

  it("has no cycles", () => {
    expect(cyclesOf(graph)).toEqual([]);
  });

  it("has no cycles through type-only imports either", () => {
    const withTypes = new Map(
      files.map((file) => [
        file,
        runtimeImports(file, readFileSync(join(SRC, file), "utf8"), true),
      ]),
    );
    expect(withTypes.get("client/engine.ts")).toContain("core/transport.ts");
    expect(cyclesOf(withTypes)).toEqual([]);
  });

  // Stores sit above transports: the HTTP server takes its default stores (in memory) from
  // the entry points that wire them, and a store reaches only the contracts it implements.
  it("keeps the stores above the transports, with the entry points wiring the memory defaults", () => {
    const withTypes = (file: string) =>
      runtimeImports(file, readFileSync(join(SRC, file), "utf8"), true);
    const entries = ["transport/http/server/server.ts", "fetch.ts"];
    for (const file of files.filter((f) => f.startsWith("transport/") && !entries.includes(f)))
      expect(
        withTypes(file).filter((target) => target.startsWith("stores/")),
        file,
      ).toEqual([]);
    for (const entry of entries) expect(graph.get(entry)).toContain("stores/memory/defaults.ts");
    const contracts = [
      "transport/http/server/sessions.ts",
      "transport/http/server/event-store.ts",
      "transport/http/server/local-sessions.ts",
      "transport/http/server/store-defaults.ts",
    ];
    const memory = files.filter((f) => f.startsWith("stores/memory/"));
    expect(memory).toContain("stores/memory/sessions.ts");
    for (const file of memory)
      for (const target of withTypes(file))
        expect(
          target.startsWith("core/") ||
            target.startsWith("stores/memory/") ||
            contracts.includes(target),
          `${file} -> ${target}`,
        ).toBe(true);
  });

  it("finds a cycle when there is one, type-only imports aside", () => {
    const planted = new Map(graph);
    planted.set("core/errors.ts", [...graph.get("core/errors.ts")!, "client/engine.ts"]);
    expect(cyclesOf(planted).some((cycle) => cycle.includes("core/errors.ts"))).toBe(true);
    expect(runtimeImports("a/b.ts", 'import type { X } from "./x.js";')).toEqual([]);
    expect(runtimeImports("a/b.ts", 'import { type X, y } from "../c/x.js";')).toEqual(["c/x.ts"]);
  });
});
