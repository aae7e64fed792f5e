import {
  closeSync,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { isAscii } from "node:buffer";
import nodeModule from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Script } from "node:vm";
import { crc32 } from "node:zlib";

// Most of a cold `mcp-gen generate` is V8 compiling the TypeScript compiler (9 MB of
// JavaScript) and the functions of it the run then calls. Node 22.1+ keeps compiled code on
// disk (module.enableCompileCache); Node 20 has no such switch, so there the CLI keeps V8's
// code cache of each large CommonJS module itself, as tsc and yarn do: compiled once, after
// a run (so the functions that run used are in it), read back later. V8 checks the cache
// against the flags and version that made it and rejects a mismatch; the cache file's name
// carries the module's size and modification time, so an edited module never gets the code
// of its old text (a checksum of 9 MB cost more than the rest). NODE_DISABLE_COMPILE_CACHE=1
// turns it off, as it does Node's own.

/** Modules smaller than this compile faster than their cache is read and checked. */
const MIN_SOURCE = 256 * 1024;

interface Compilable {
  _compile(content: string, filename: string): unknown;
  exports: unknown;
  require(id: string): unknown;
}

type ModuleStatics = typeof nodeModule & {
  wrap(script: string): string;
  _resolveFilename(request: string, parent: unknown, isMain: boolean, options?: unknown): string;
  _cache: Record<string, unknown>;
  enableCompileCache?: () => unknown;
};

/** Turns on a cache of compiled code for the modules loaded after it; never fails a run. */
export function enableCompileCache(): void {
  const Module = nodeModule as ModuleStatics;
  if (Module.enableCompileCache) {
    Module.enableCompileCache();
    return;
  }
  if (process.env.NODE_DISABLE_COMPILE_CACHE) return;
  const dir = cacheDir();
  if (!dir) return;
  readLargeModulesAsLatin1(Module);
  const toWrite: { file: string; script: Script }[] = [];
  const proto = (Module as unknown as { prototype: Compilable }).prototype;
  const compile = proto._compile;
  proto._compile = function (this: Compilable, content: string, filename: string) {
    if (content.length < MIN_SOURCE) return compile.call(this, content, filename);
    const file = join(dir, `${crc32(filename)}-${sourceVersion(filename, content)}.bin`);
    const cachedData = readCache(file);
    const script = new Script(Module.wrap(content), { filename, cachedData });
    if (!cachedData || script.cachedDataRejected) toWrite.push({ file, script });
    const run = script.runInThisContext() as (...args: unknown[]) => unknown;
    return run.call(
      this.exports,
      this.exports,
      requireFor(this, Module),
      this,
      filename,
      dirname(filename),
    );
  };
  process.once("exit", () => {
    for (const { file, script } of toWrite) {
      try {
        writeFileSync(file, script.createCachedData(), { mode: 0o600 });
      } catch {
        // A cache that cannot be written costs the next run time, nothing else.
      }
    }
  });
}

type LoadModule = (module: Compilable, filename: string) => void;

/**
 * Has Node read each large CommonJS module as Latin-1 when it is ASCII, as the TypeScript
 * compiler is: the same string without UTF-8 decoding, which for its 9 MB cost Node 20
 * about 30 ms of a cold run (V8 needs the source even when the compiled code is cached).
 * A module that is not certainly CommonJS (a .js file in a "type": "module" package), or
 * not large, is read by Node as before.
 */
function readLargeModulesAsLatin1(Module: ModuleStatics): void {
  const extensions = (Module as unknown as { _extensions: Record<string, LoadModule> })._extensions;
  for (const ext of [".js", ".cjs"]) {
    const load = extensions[ext];
    if (!load) continue;
    extensions[ext] = function (this: unknown, module: Compilable, filename: string) {
      const bytes = largeCommonJs(filename, ext);
      if (!bytes) return load.call(this, module, filename);
      module._compile(bytes.toString(isAscii(bytes) ? "latin1" : "utf8"), filename);
    };
  }
}

/** The bytes of `filename` when it is large and certainly CommonJS, else undefined. */
function largeCommonJs(filename: string, ext: string): Buffer | undefined {
  try {
    if (statSync(filename).size < MIN_SOURCE) return undefined;
    if (ext === ".js" && packageType(filename) !== "commonjs") return undefined;
    return readFileSync(filename);
  } catch {
    return undefined;
  }
}

/** The `type` of the package.json nearest `filename`, as Node reads it for a .js file. */
function packageType(filename: string): string {
  for (let dir = dirname(filename); ; dir = dirname(dir)) {
    let text: string | undefined;
    try {
      text = readFileSync(join(dir, "package.json"), "utf8");
    } catch {
      // no package.json here: look further up
    }
    if (text !== undefined) {
      const type = (JSON.parse(text) as { type?: unknown }).type;
      return type === undefined ? "commonjs" : String(type);
    }
    if (dirname(dir) === dir) return "commonjs";
  }
}

/** The `require` a module's code gets: what Node passes a CommonJS module, for what bundles use. */
function requireFor(module: Compilable, Module: ModuleStatics) {
  const require = (id: string) => module.require(id);
  require.resolve = (request: string, options?: unknown) =>
    Module._resolveFilename(request, module, false, options);
  require.cache = Module._cache;
  require.main = process.mainModule;
  return require;
}

/** What changes whenever the module's text does: its length, size on disk and modification time. */
function sourceVersion(filename: string, content: string): string {
  const { size, mtimeMs, ino } = statSync(filename);
  return `${content.length}-${size}-${ino}-${Math.round(mtimeMs * 1000)}`;
}

/**
 * A folder only this user can write: compiled code read from a folder someone else could
 * write would be code that person chose. Null when there is none to be had.
 */
function cacheDir(): string | null {
  const uid = process.getuid?.();
  if (uid === undefined) return null;
  const dir = join(tmpdir(), `mcp-gen-compile-cache-${uid}`, `${process.version}-${process.arch}`);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    for (const d of [dirname(dir), dir]) {
      const fd = openSync(d, "r");
      const { uid: owner, mode } = fstatSync(fd);
      closeSync(fd);
      if (owner !== uid || (mode & 0o022) !== 0) return null;
    }
    return dir;
  } catch {
    return null;
  }
}

function readCache(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}
