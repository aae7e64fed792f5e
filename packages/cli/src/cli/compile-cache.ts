import {
  closeSync,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
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
