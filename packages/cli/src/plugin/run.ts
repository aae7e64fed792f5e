import { isAbsolute, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { McpGenError } from "../schema/diagnostics.js";
import type { SourceLocation } from "../schema/model.js";
import type { EmittedFile, Generator, GeneratorContext } from "../generators/emit/plugin.js";
import { GeneratedFile, isPrinted } from "../generators/print/generated-file.js";
import { isInside } from "../generators/output/manifest.js";
import { PACKAGE_ROOT } from "../generators/emit/package-info.js";
import {
  PLUGIN_API_VERSION,
  type McpGenPlugin,
  type PluginContext,
  type PrintedFile,
  type ProtocolView,
} from "./api.js";
import { protocolView } from "./view.js";

// Running generators through the plugin API: the built-in ones (wrapped by builtinPlugin)
// and the user's (loaded by load.ts) are called the same way, and their files pass the same
// checks before the output rules (output.ts) see them. A user's plugin that fails is one
// line naming it, at the place in its own file where there is one; the run writes nothing.

/** A plugin and the module it came from (none for the built-ins, or one passed in code). */
export interface LoadedPlugin {
  plugin: McpGenPlugin;
  source?: { spec: string; file: string; dir: string };
}

/** The built-in generator behind a plugin: it is handed the internal context too. */
const BUILTINS = new WeakMap<McpGenPlugin, Generator>();
/** The internal context behind a plugin context (the full models, for the built-ins). */
const INTERNAL = new WeakMap<PluginContext, GeneratorContext>();

/** A built-in generator registered through the plugin API. */
export function builtinPlugin(generator: Generator): McpGenPlugin {
  const plugin: McpGenPlugin = {
    apiVersion: PLUGIN_API_VERSION,
    name: generator.name,
    description: generator.description,
    ...(generator.requires ? { requires: generator.requires } : {}),
    generate: (ctx) => {
      const internal = INTERNAL.get(ctx);
      if (!internal) throw new Error(`internal: ${generator.name} was given a foreign context`);
      return generator.emit(internal);
    },
  };
  BUILTINS.set(plugin, generator);
  return plugin;
}

export const isBuiltin = (plugin: McpGenPlugin): boolean => BUILTINS.has(plugin);

/** Paths of the output that are mcp-gen's alone, whatever the options. */
const RESERVED = /^(index\.ts$|runtime\/|source\/)/;

/** Why a plugin may not write `path`, or undefined when it may. */
export function pathProblem(path: unknown): string | undefined {
  if (typeof path !== "string") return `a file path must be a string, not ${typeof path}`;
  if (path.includes("\\") || !isInside(path))
    return `file path '${path}' is outside the output folder (use a relative path like 'extra/summary.ts')`;
  if (path.split("/").some((segment) => segment.startsWith(".")))
    return `file path '${path}' has a segment starting with '.' (mcp-gen's own files are named so)`;
  if (!path.endsWith(".ts") || path.endsWith(".d.ts"))
    return `file path '${path}' must end in .ts (the printer prints TypeScript modules)`;
  if (RESERVED.test(path)) return `file path '${path}' is reserved for mcp-gen's own files`;
  return undefined;
}

class PluginPathError extends Error {}

/** The context every plugin of one run is given; the views are built on first use. */
export function pluginContext(
  internal: GeneratorContext,
  generators: readonly string[],
): PluginContext {
  let protocol: ProtocolView | undefined;
  let legacy: readonly ProtocolView[] | undefined;
  const ctx: PluginContext = {
    apiVersion: PLUGIN_API_VERSION,
    get protocol() {
      return (protocol ??= protocolView(internal.loaded));
    },
    get legacy() {
      return (legacy ??= Object.freeze(internal.legacy.map(protocolView)));
    },
    options: Object.freeze({
      generators: Object.freeze([...generators]),
      auth: internal.auth,
      runtime: internal.runtime.mode,
    }),
    header: internal.header,
    file(path: string) {
      const problem = pathProblem(path);
      if (problem) throw new PluginPathError(problem);
      return new GeneratedFile(path);
    },
  };
  Object.freeze(ctx);
  INTERNAL.set(ctx, internal);
  return ctx;
}

/** A file URL or path of a stack frame (`at f (file:///a/b.mjs:3:9)`), with its line and column. */
const FRAME = /\(?((?:file:\/\/)?\/[^\s()]*):(\d+):(\d+)\)?$/;

/** The first frame of `error`'s stack in the plugin's own folder. */
function locate(error: unknown, dir: string | undefined): SourceLocation | undefined {
  if (dir === undefined || !(error instanceof Error) || typeof error.stack !== "string") return;
  for (const line of error.stack.split("\n").slice(1)) {
    const match = FRAME.exec(line.trim());
    if (!match) continue;
    const file = match[1]!.startsWith("file:") ? fileURLToPath(match[1]!) : match[1]!;
    const rel = relative(dir, file);
    if (rel.startsWith("..") || isAbsolute(rel) || rel.split(/[\\/]/).includes("node_modules"))
      continue;
    // mcp-gen's own frames (ctx.file refusing a path), when the plugin sits in a folder above it.
    if (!relative(PACKAGE_ROOT, file).startsWith("..")) continue;
    return { file: shown(file), line: Number(match[2]), column: Number(match[3]) };
  }
  return undefined;
}

/** A path as the user would write it: relative below the working folder. */
const shown = (path: string): string => {
  const rel = relative(process.cwd(), path);
  return rel.startsWith("..") || isAbsolute(rel) ? path : rel;
};

/** One line about a plugin: at the place in its file when known, else naming its module. */
export function pluginError(loaded: LoadedPlugin, what: string, loc?: SourceLocation): McpGenError {
  const name = `plugin '${loaded.plugin.name}'`;
  if (loc) return new McpGenError("plugin", `${name}: ${what}`, loc);
  const from = loaded.source ? `${shown(loaded.source.file)}: ` : "";
  return new McpGenError("plugin", `${from}${name}: ${what}`);
}

function describeThrown(error: unknown): string {
  if (!(error instanceof Error)) return `threw ${JSON.stringify(error) ?? String(error)}`;
  const message = error.message.split("\n")[0] ?? "";
  return error instanceof PluginPathError
    ? message
    : `threw ${error.name === "Error" ? "" : `${error.name}: `}${message}`;
}

function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object that is not a file" : `a ${typeof value}`;
}

/**
 * Runs one plugin: its files, printed. A built-in's error is passed on as it is (the caller
 * locates schema errors); a user plugin's becomes one line naming it.
 */
export async function runPlugin(loaded: LoadedPlugin, ctx: PluginContext): Promise<EmittedFile[]> {
  const builtin = isBuiltin(loaded.plugin);
  let returned: unknown;
  try {
    returned = await loaded.plugin.generate(ctx);
  } catch (error) {
    if (builtin) throw error;
    throw pluginError(loaded, describeThrown(error), locate(error, loaded.source?.dir));
  }
  if (!Array.isArray(returned))
    throw pluginError(
      loaded,
      `generate returned ${describeValue(returned)}; return an array of files made with ctx.file(path)`,
    );
  // A built-in's files are checked by the run (generate, emit/index.ts): one not printed by
  // GeneratedFile is a bug in mcp-gen, said as such.
  if (builtin) return returned as EmittedFile[];
  return returned.map((item: unknown, i): PrintedFile => {
    const file =
      item instanceof GeneratedFile
        ? item.emit(ctx.header)
        : typeof item === "object" && item !== null && isPrinted(item as EmittedFile)
          ? (item as EmittedFile)
          : undefined;
    if (!file)
      throw pluginError(
        loaded,
        `generate returned ${describeValue(item)} at [${i}]; return files made with ctx.file(path)`,
      );
    const problem = pathProblem(file.path);
    if (problem) throw pluginError(loaded, problem);
    return file;
  });
}
