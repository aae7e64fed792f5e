import { existsSync, readFileSync, realpathSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { McpGenError } from "../schema/diagnostics.js";
import { PLUGIN_API_VERSION, type McpGenPlugin } from "./api.js";
import { pluginError, type LoadedPlugin } from "./run.js";
import { importModule } from "../host/import-module.js";

// Loading `--plugin <module>` (and the config's `plugins`): a path (starting with `.` or `/`)
// or a package name, resolved from a folder (the working folder for the flag, the config's
// folder for the config), imported as ESM, and checked to be a plugin before any runs.

const isPath = (spec: string) => spec.startsWith(".") || isAbsolute(spec);

/** The package entry an ESM import of `name` would load: exports (import, default), module, main. */
function packageEntry(root: string): string | undefined {
  const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
    exports?: unknown;
    main?: string;
  };
  let entry: unknown = manifest.exports;
  if (typeof entry === "object" && entry !== null && "." in entry)
    entry = (entry as Record<string, unknown>)["."];
  while (typeof entry === "object" && entry !== null && !Array.isArray(entry)) {
    const conditions = entry as Record<string, unknown>;
    entry = conditions["import"] ?? conditions["node"] ?? conditions["default"];
  }
  const file = typeof entry === "string" ? entry : (manifest.main ?? "index.js");
  const path = resolve(root, file);
  return existsSync(path) ? path : undefined;
}

/** The file of a package, found from `base` as Node looks for packages (node_modules upwards). */
function resolvePackage(spec: string, base: string): string | undefined {
  try {
    return createRequire(join(base, "noop.js")).resolve(spec);
  } catch {
    // An ESM-only package (exports with `import` alone) is not found by require: look it up.
  }
  const name = spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0]!;
  if (name !== spec) return undefined;
  for (let dir = base; ; dir = dirname(dir)) {
    const root = join(dir, "node_modules", name);
    if (existsSync(join(root, "package.json"))) return packageEntry(root);
    if (dir === dirname(dir)) return undefined;
  }
}

/** The folder holding a module's package.json (its package), or the module's own folder. */
function packageDir(file: string): string {
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir))
    if (existsSync(join(dir, "package.json"))) return dir;
  return dirname(file);
}

/** What is wrong with a module's plugin export, or undefined when it is one. */
function shapeProblem(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null)
    return "exports no plugin (a default export or one named `plugin`)";
  const p = value as Partial<McpGenPlugin>;
  if (typeof p.name !== "string" || p.name.trim() === "") return "the plugin has no `name`";
  if (p.apiVersion !== PLUGIN_API_VERSION)
    return `plugin '${p.name}' is for plugin API version ${JSON.stringify(p.apiVersion)}; this mcp-gen has version ${PLUGIN_API_VERSION}`;
  if (typeof p.generate !== "function") return `plugin '${p.name}' has no \`generate\` function`;
  if (
    p.requires !== undefined &&
    !(Array.isArray(p.requires) && p.requires.every((r) => typeof r === "string"))
  )
    return `plugin '${p.name}': \`requires\` must be an array of generator names`;
  return undefined;
}

/** Resolves and imports one plugin module, named `spec` from folder `base`. */
export async function loadPlugin(spec: string, base: string): Promise<LoadedPlugin> {
  const path = isPath(spec) ? resolve(base, spec) : resolvePackage(spec, base);
  if (path === undefined || !statSync(path, { throwIfNoEntry: false })?.isFile())
    throw new McpGenError(
      "plugin",
      `plugin '${spec}' not found (from ${base}): name a module file (./plugins/x.mjs) or an installed package`,
    );
  const file = realpathSync(path);
  let module: Record<string, unknown>;
  try {
    module = (await importModule(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (error) {
    const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw new McpGenError("plugin", `${file}: plugin '${spec}' failed to load: ${reason}`);
  }
  const plugin = module["default"] ?? module["plugin"];
  const problem = shapeProblem(plugin);
  if (problem) throw new McpGenError("plugin", `${file}: ${problem}`);
  return { plugin: plugin as McpGenPlugin, source: { spec, file, dir: packageDir(file) } };
}

/** A plugin module as named (`--plugin`, config `plugins`) and the folder it is named from. */
export interface PluginSpec {
  spec: string;
  base: string;
}

/** Loads plugin modules in order, checking that their names are their own. */
export async function loadPlugins(
  specs: readonly PluginSpec[],
  builtinNames: readonly string[],
): Promise<LoadedPlugin[]> {
  const loaded: LoadedPlugin[] = [];
  for (const { spec, base } of specs) {
    const next = await loadPlugin(spec, base);
    const name = next.plugin.name;
    if (builtinNames.includes(name))
      throw pluginError(next, `its name is a built-in generator's; choose another`);
    const twice = loaded.find((l) => l.plugin.name === name);
    if (twice)
      throw pluginError(
        next,
        `its name is also the name of ${twice.source?.spec ?? "another plugin"}'s`,
      );
    const unknown = (next.plugin.requires ?? []).filter((r) => !builtinNames.includes(r));
    if (unknown.length > 0)
      throw pluginError(
        next,
        `requires unknown generator '${unknown.join("', '")}'; available: ${builtinNames.join(", ")}`,
      );
    loaded.push(next);
  }
  return loaded;
}
