import { readFileSync } from "node:fs";
import { join } from "node:path";
import { SCHEMA_FREE_HEADER } from "./headers.js";
import { RUNTIME_DIR } from "./package-info.js";
import type { EmittedFile } from "./plugin.js";

// The runtime (router, client engine, request state, transports) is ordinary TypeScript in
// runtime/, type-checked and unit-tested in this repository. Generation copies the modules
// an output needs into its runtime/ folder, so generated code keeps zero dependencies and
// needs no mcp-gen package at run time. Revision facts reach them as data (protocol.ts).

/** A runtime module that needs Node.js (kept out of index.ts): it imports a `node:` module. */
const nodeOnly = (module: string) => /from "node:/.test(source(module));
/** The packages runtime modules may import, and only the modules listed (their peer dependencies). */
export const PEER_IMPORTS: Readonly<Record<string, readonly string[]>> = {
  jose: ["auth-jwt", "auth-dpop", "auth-dpop-proof"],
  oauth4webapi: [
    "auth-client",
    "auth-discovery",
    "auth-registration",
    "auth-grant",
    "auth-dpop",
    "auth-assertion",
  ],
};
const peerOf = (module: string) =>
  Object.keys(PEER_IMPORTS).find((p) => PEER_IMPORTS[p]!.includes(module));

const sources = new Map<string, string>();

function source(module: string): string {
  let text = sources.get(module);
  if (text === undefined) {
    text = readFileSync(join(RUNTIME_DIR, `${module}.ts`), "utf8");
    sources.set(module, text);
  }
  return text;
}

/** The runtime modules `module` imports (relative imports only: the runtime has no dependencies). */
function imports(module: string): string[] {
  return [...source(module).matchAll(/from "\.\/([\w-]+)\.js"/g)].map((m) => m[1]!);
}

/** `entries` and every runtime module they reach, sorted. */
export function runtimeClosure(entries: readonly string[]): string[] {
  const seen = new Set<string>();
  const visit = (module: string) => {
    if (seen.has(module)) return;
    seen.add(module);
    imports(module).forEach(visit);
  };
  entries.forEach(visit);
  return [...seen].sort();
}

/**
 * The files of runtime/ in the output, for the given entry modules. Their text is the same for
 * every schema, so their header names no schema: a spec bump leaves them byte-identical.
 */
export function runtimeFiles(entries: readonly string[]): EmittedFile[] {
  return runtimeClosure(entries).map((module) => ({
    path: `runtime/${module}.ts`,
    kind: "generated",
    code: `${SCHEMA_FREE_HEADER}\n${source(module)}`,
    preformatted: true,
    ...(nodeOnly(module) ? { nodeOnly: true } : {}),
    ...(peerOf(module) ? { peerDependency: peerOf(module)! } : {}),
  }));
}

/** The names a runtime module exports: values (functions, constants) and types. */
export function runtimeExports(module: string): { values: string[]; types: string[] } {
  const text = source(module);
  const values = [...text.matchAll(/^export (?:function|const|let) ([\w$]+)/gm)].map((m) => m[1]!);
  const types = [...text.matchAll(/^export (?:type|interface) ([\w$]+)/gm)].map((m) => m[1]!);
  return { values, types };
}
