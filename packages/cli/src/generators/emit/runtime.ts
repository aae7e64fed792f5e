import { readFileSync } from "node:fs";
import { join, posix } from "node:path";
import { ts } from "../../schema/typescript.js";
import { SCHEMA_FREE_HEADER } from "./headers.js";
import { PACKAGE_ROOT, RUNTIME_PACKAGE, RUNTIME_ROOT } from "./package-info.js";
import type { EmittedFile } from "../print/emitted-file.js";

// Generated code sits on the runtime package (packages/runtime, published as
// @mcp-gen/runtime): router, client engine, request state, transports. By default it imports
// the package, so a fix in the runtime reaches every project through `npm update`, with no
// regeneration. `--runtime vendor` copies the runtime's sources into the output instead
// (runtime/<folder>/...), for projects that take no dependency at all: the files an output
// needs are found by following the modules' real imports from the entry points it uses.

/** How generated code reaches the runtime: the package (default) or a copy in the output. */
export type RuntimeMode = "package" | "vendor";
export const RUNTIME_MODES: readonly RuntimeMode[] = ["package", "vendor"];

/**
 * The runtime's entry points that generated code imports: subpaths of the package (its
 * package.json `exports`), each one source module of the runtime.
 */
export type RuntimeEntry =
  | "core"
  | "server"
  | "client"
  | "transport"
  | "tasks"
  | "auth"
  | "auth/verify"
  | "auth/client"
  | "node/stdio"
  | "node/http"
  | "fetch"
  | "testing";

/** A package.json target: a path, or conditions (`node`, `default`, ...) each naming one. */
type PackageTarget = string | Readonly<Record<string, string>>;

/**
 * The runtime's package.json: its exports (where each entry point's module is) and its imports
 * (its own subpath imports, such as #default-fetch).
 */
const manifest = JSON.parse(readFileSync(join(RUNTIME_ROOT, "package.json"), "utf8")) as {
  exports: Record<string, PackageTarget>;
  imports?: Record<string, PackageTarget>;
};

/** The source of a built module package.json names (`./dist/server/index.js`), relative to src/. */
function sourceOf(built: string): string {
  return built.replace(/^\.\/dist\//, "").replace(/\.js$/, ".ts");
}

/**
 * The versions of the runtime package the generated code works with: the range mcp-gen's own
 * package depends on. It is a property of this mcp-gen, not of the runtime installed beside
 * it, so a runtime patch release changes no output (nor its manifest).
 */
export const RUNTIME_RANGE: string = runtimeDependency();

function runtimeDependency(): string {
  const own = JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8")) as {
    dependencies?: Record<string, string>;
  };
  const range = own.dependencies?.[RUNTIME_PACKAGE];
  if (range === undefined)
    throw new Error(`internal: mcp-gen does not depend on ${RUNTIME_PACKAGE}`);
  return range;
}

/** The source file of an entry point, relative to the package's src/ (`server/index.ts`). */
function entrySource(entry: RuntimeEntry): string {
  const target = manifest.exports[`./${entry}`];
  const built = typeof target === "object" ? target.default : undefined;
  if (built === undefined) throw new Error(`internal: the runtime exports no ./${entry}`);
  return sourceOf(built);
}

/** The packages runtime modules may import, and only the modules listed (optional peer dependencies). */
export const PEER_IMPORTS: Readonly<Record<string, readonly string[]>> = {
  jose: ["auth/jwt.ts", "auth/dpop.ts", "auth/dpop-proof.ts"],
  oauth4webapi: [
    "auth/oauth-client.ts",
    "auth/oauth-tokens.ts",
    "auth/oauth-challenge.ts",
    "auth/discovery.ts",
    "auth/registration.ts",
    "auth/grant.ts",
    "auth/dpop.ts",
    "auth/assertion.ts",
  ],
  "@opentelemetry/api": ["otel/client-tracing.ts", "otel/conventions.ts", "otel/server-tracing.ts"],
  redis: [
    "stores/redis/redis-connection.ts",
    "stores/redis/redis-sessions.ts",
    "stores/redis/redis-bus.ts",
    "stores/redis/event-store-redis.ts",
  ],
};

/** The runtime's sources (its package's src/ folder), which vendor mode copies. */
export const RUNTIME_SRC = join(RUNTIME_ROOT, "src");

const sources = new Map<string, string>();

/** A runtime source file's text, by its path relative to the package's src/. */
export function runtimeSource(path: string): string {
  let text = sources.get(path);
  if (text === undefined) {
    text = readFileSync(join(RUNTIME_SRC, path), "utf8");
    sources.set(path, text);
  }
  return text;
}

/**
 * The package's own subpath imports (package.json "imports") and the module a vendored copy
 * uses for each: a copy has no package.json to pick a condition by, so it takes the portable
 * one, the `default` condition (#default-fetch: globalThis.fetch; the package picks node:http
 * on Node). Read from package.json, so a new import needs no second entry here.
 */
export const PACKAGE_IMPORTS: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(manifest.imports ?? {}).map(([spec, target]) => {
    const portable = typeof target === "string" ? target : target.default;
    if (typeof portable !== "string")
      throw new Error(
        `internal: the runtime's package.json import ${spec} has no "default" condition, which vendored copies use`,
      );
    return [spec, sourceOf(portable)];
  }),
);

/** The runtime modules `path` imports or re-exports (relative specifiers, parsed, not matched). */
function imports(path: string): string[] {
  const { importedFiles } = ts.preProcessFile(runtimeSource(path), true, true);
  return importedFiles
    .map((f) => f.fileName)
    .flatMap((spec) => {
      if (spec.startsWith("."))
        return [posix.join(posix.dirname(path), spec).replace(/\.js$/, ".ts")];
      const mapped = PACKAGE_IMPORTS[spec];
      return mapped === undefined ? [] : [mapped];
    });
}

/**
 * `path`'s source as a vendored copy holds it: package imports made relative (PACKAGE_IMPORTS).
 * The specifiers are found as imports() finds them (static, re-exports and dynamic import()),
 * so every import the closure followed is rewritten.
 */
function vendoredSource(path: string): string {
  const text = runtimeSource(path);
  const { importedFiles } = ts.preProcessFile(text, true, true);
  let out = "";
  let copied = 0;
  for (const { fileName, pos } of importedFiles.sort((a, b) => a.pos - b.pos)) {
    const target = PACKAGE_IMPORTS[fileName];
    if (target === undefined) continue;
    // `pos` is where the string literal's token starts (its quote, for TypeScript 5.9): the
    // specifier is the first occurrence from there.
    const start = text.indexOf(fileName, pos);
    const relative = posix.relative(posix.dirname(path), target).replace(/\.ts$/, ".js");
    out += text.slice(copied, start) + (relative.startsWith(".") ? relative : `./${relative}`);
    copied = start + fileName.length;
  }
  return out + text.slice(copied);
}

/** The vendored copies of the runtime sources `paths` (relative to src/), under runtime/. */
export function vendoredFiles(paths: readonly string[]): EmittedFile[] {
  return paths.map((path) => ({
    path: `runtime/${path}`,
    kind: "generated",
    code: `${SCHEMA_FREE_HEADER}\n${vendoredSource(path)}`,
    preformatted: true,
  }));
}

/** The source files `paths` reach, themselves included, sorted (paths relative to src/). */
export function sourceClosure(paths: readonly string[]): string[] {
  const seen = new Set<string>();
  const visit = (path: string) => {
    if (seen.has(path)) return;
    seen.add(path);
    imports(path).forEach(visit);
  };
  paths.forEach(visit);
  return [...seen].sort();
}

/** The source files the entry points `entries` reach, sorted (paths relative to src/). */
export function runtimeClosure(entries: readonly RuntimeEntry[]): string[] {
  return sourceClosure(entries.map(entrySource));
}

/** How the files of one output folder import the runtime. */
export interface RuntimeImports {
  readonly mode: RuntimeMode;
  /** The module specifier of `entry` for a file of this folder. */
  from(entry: RuntimeEntry): string;
  /** The same, for a file `depth` folders below the output root (legacy/<revision>/: 2). */
  at(depth: number): RuntimeImports;
  /**
   * The files the output needs for `entries`: in vendor mode, the runtime's sources they reach
   * under runtime/; nothing in package mode. Their text is the same for every schema, so
   * their header names no schema: a spec bump leaves them byte-identical.
   */
  files(entries: readonly RuntimeEntry[]): EmittedFile[];
}

export function runtimeImports(mode: RuntimeMode, depth = 0): RuntimeImports {
  const up = depth === 0 ? "./" : "../".repeat(depth);
  return {
    mode,
    from: (entry) =>
      mode === "package"
        ? `${RUNTIME_PACKAGE}/${entry}`
        : `${up}runtime/${entrySource(entry).replace(/\.ts$/, ".js")}`,
    at: (d) => runtimeImports(mode, d),
    files: (entries) => (mode === "package" ? [] : vendoredFiles(runtimeClosure(entries))),
  };
}
