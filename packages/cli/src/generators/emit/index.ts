import type { LoadedRevision } from "../../schema/index.js";
import { McpGenError } from "../../schema/diagnostics.js";
import { stackOverflowError } from "../../schema/nesting.js";
import { headerFor } from "./headers.js";
import type { GeneratedWith } from "../output/manifest.js";
import type { EmittedFile, Generator, GeneratorContext, OutputFile } from "./plugin.js";
import type { PluginContext } from "../../plugin/api.js";
import { RUNTIME_RANGE, runtimeImports, type RuntimeMode } from "./runtime.js";
import { typesGenerator } from "./types.js";
import { methodsGenerator } from "./methods.js";
import { validatorsGenerator } from "./validators.js";
import { dispatcherGenerator } from "./dispatcher.js";
import { clientGenerator } from "./client.js";
import { protocolGenerator } from "./protocol.js";
import { erasGenerator } from "./eras.js";
import { jsonSchemaGenerator } from "./json-schema.js";
import { zodGenerator } from "./zod.js";
import { checkParses } from "../print/parse-check.js";
import { locateMethodError } from "./names.js";
import { indexExports } from "./index-exports.js";
import { GeneratedFile, isPrinted } from "../print/generated-file.js";
import { applyTarget, type Target } from "../output/target.js";
import {
  builtinPlugin,
  pluginContext,
  pluginError,
  runPlugin,
  type LoadedPlugin,
} from "../../plugin/run.js";

/** Every generator, in the order their files are listed. `index.ts` is added after them. */
export const GENERATORS: readonly Generator[] = [
  typesGenerator,
  methodsGenerator,
  validatorsGenerator,
  dispatcherGenerator,
  protocolGenerator,
  erasGenerator,
  clientGenerator,
  jsonSchemaGenerator,
  zodGenerator,
];

export const GENERATOR_NAMES = GENERATORS.map((g) => g.name);

/** The built-in generators, registered through the plugin API (packages/cli/src/plugin/). */
const BUILTIN_PLUGINS: ReadonlyMap<string, LoadedPlugin> = new Map(
  GENERATORS.map((g) => [g.name, { plugin: builtinPlugin(g) }]),
);

/** The chosen generators' names with those the plugins require, each once. */
function withRequired(names: readonly string[], plugins: readonly LoadedPlugin[]): string[] {
  return [...new Set([...names, ...plugins.flatMap((p) => p.plugin.requires ?? [])])];
}

/** What runs when no generators are named: every generator but the `optional` ones. */
export const DEFAULT_GENERATOR_NAMES = GENERATORS.filter((g) => !g.optional).map((g) => g.name);

export { GENERATED_HEADER, headerFor } from "./headers.js";
export type { OutputFile } from "./plugin.js";

/** The chosen generators and every generator they require, in GENERATORS order. */
export function resolveGenerators(names: readonly string[]): Generator[] {
  const unknown = names.filter((n) => !GENERATOR_NAMES.includes(n));
  if (unknown.length > 0) {
    throw new McpGenError(
      "config",
      `unknown generator '${unknown.join("', '")}'; available: ${GENERATOR_NAMES.join(", ")}`,
    );
  }
  const chosen = new Set<string>();
  const visit = (name: string) => {
    if (chosen.has(name)) return;
    chosen.add(name);
    for (const required of GENERATORS.find((g) => g.name === name)?.requires ?? []) visit(required);
  };
  names.forEach(visit);
  return GENERATORS.filter((g) => chosen.has(g.name));
}

/**
 * What an output's manifest records of the run that generated it (manifest.ts): the revisions
 * served, newest first, the generators run once their dependencies are added, and --auth.
 * generate and init both record it through here, so an init project is up to date for its
 * own `generate --check`.
 */
export function generatedWith(
  revisions: readonly LoadedRevision[],
  names: readonly string[] = DEFAULT_GENERATOR_NAMES,
  options: GenerateOptions = {},
): GeneratedWith {
  const runtime = options.runtime ?? "package";
  const plugins = options.plugins ?? [];
  const chosen = resolveGenerators(withRequired(names, plugins));
  // The versions the output's imports of the package need: none when nothing chosen imports
  // it (schema.json alone), so `--check` asks for no runtime the output never loads.
  const importsRuntime = runtime === "package" && chosen.some((g) => g.runtime !== undefined);
  return {
    revisions: revisions.map((r) => r.revision.name),
    generators: chosen.map((g) => g.name),
    auth: options.auth === true,
    runtime,
    ...(importsRuntime ? { runtimeVersions: RUNTIME_RANGE } : {}),
    // Recorded only when not the default, so a `ts` output's manifest is as it always was.
    ...(options.target !== undefined && options.target !== "ts" ? { target: options.target } : {}),
    // Recorded only when there are any, so an output without plugins has the manifest it had.
    ...(plugins.length > 0 ? { plugins: plugins.map((p) => p.plugin.name) } : {}),
  };
}

/** The options of one generation besides the revisions and generators. */
export interface GenerateOptions {
  /** Older revisions the output also speaks, newest first. */
  legacy?: LoadedRevision[];
  /** Also emit the auth modules (their libraries are peer dependencies). */
  auth?: boolean;
  /** How generated code reaches the runtime (default: the package). */
  runtime?: RuntimeMode;
  /** The form of the generated code (default `ts`, the printed TypeScript): see target.ts. */
  target?: Target;
  /** Plugins (packages/cli/src/plugin/) run after the built-in generators, in order. */
  plugins?: readonly LoadedPlugin[];
}

/** Runs the chosen generators (with those they require) over a revision; no formatter runs. */
export async function generate(
  loaded: LoadedRevision,
  names: readonly string[] = DEFAULT_GENERATOR_NAMES,
  options: GenerateOptions = {},
): Promise<OutputFile[]> {
  const ctx: GeneratorContext = {
    loaded,
    header: headerFor(loaded),
    legacy: options.legacy ?? [],
    auth: options.auth === true,
    headerFor,
    runtime: runtimeImports(options.runtime ?? "package"),
  };
  const plugins = options.plugins ?? [];
  const chosen = resolveGenerators(withRequired(names, plugins));
  const pctx = pluginContext(
    ctx,
    chosen.map((g) => g.name),
  );
  // js+dts compiles the output against the runtime alone: zod's types would be `any` there.
  if (options.target === "js+dts" && chosen.some((g) => g.name === zodGenerator.name))
    throw new McpGenError(
      "config",
      "the zod generator writes TypeScript only (--target ts): its declarations need zod's types",
    );
  const emitted: EmittedFile[] = [];
  try {
    for (const g of chosen) emitted.push(...(await runPlugin(BUILTIN_PLUGINS.get(g.name)!, pctx)));
    // One printer: a file a generator joined by hand has no layout, escaping or import checks.
    const unprinted = emitted.find((f) => !isPrinted(f));
    if (unprinted) throw new Error(`internal: ${unprinted.path} was not printed by GeneratedFile`);
    // The runtime modules the chosen generators' files import, emitted once (vendor mode).
    emitted.push(...ctx.runtime.files([...new Set(chosen.flatMap((g) => g.runtime?.(ctx) ?? []))]));
  } catch (error) {
    const overflow = stackOverflowError(error, loaded.model.file, "generating code");
    throw locateMethodError(overflow, [loaded, ...ctx.legacy]);
  }
  // A file another generator needs is that generator's (`requires`): never emitted twice.
  const paths = new Set<string>();
  for (const { path } of emitted) {
    if (paths.has(path)) throw new Error(`internal: two generators emit ${path}`);
    paths.add(path);
  }
  const fromPlugins = await pluginFiles(plugins, pctx, paths);
  const modules = emitted
    .filter(
      (f) =>
        f.kind === "generated" &&
        f.path.endsWith(".ts") &&
        !f.nodeOnly &&
        !f.peerDependency &&
        !f.path.includes("/"),
    )
    .map((f) => ({ name: f.path.replace(/\.ts$/, ""), code: f.code }));
  const { lines, notes } = indexExports(modules, loaded.model);
  // An output of no TypeScript (`--generators json-schema`) has no module to index.
  if (emitted.some((f) => f.path.endsWith(".ts"))) {
    // Laid out by indexExports (one export statement a line, as prettier keeps them).
    const index = new GeneratedFile("index.ts");
    for (const line of lines) index.laidOut(line);
    emitted.push(index.emit(ctx.header, { preformatted: true }));
  }
  // Every file is printed laid out; one outside the layouts the printer matches prettier on
  // (`preformatted` false) is still checked to parse, so a printer bug is never written.
  for (const f of emitted) if (!f.preformatted) checkParses(f.path, f.code);
  // Plugins' files after mcp-gen's own; index.ts does not export them (a plugin's names could
  // clash with the schema's, and the index of an output is the same with or without plugins).
  emitted.push(...fromPlugins);
  const printed = emitted.map((f) => ({
    path: f.path,
    kind: f.kind,
    ...(f.handlerMethods ? { handlerMethods: f.handlerMethods } : {}),
    ...(f.path === "index.ts" && notes.length > 0 ? { notes } : {}),
    content: f.code,
  }));
  return applyTarget(printed, options.target ?? "ts");
}

/**
 * The files of the user's plugins, each checked to parse and to take a path no other
 * generator's file has (`taken`, which gains them): any failure is one line naming the plugin.
 */
async function pluginFiles(
  plugins: readonly LoadedPlugin[],
  ctx: PluginContext,
  taken: Set<string>,
): Promise<EmittedFile[]> {
  const owners = new Map<string, string>();
  const files: EmittedFile[] = [];
  for (const loaded of plugins) {
    for (const file of await runPlugin(loaded, ctx)) {
      const owner =
        file.path === "index.ts" || taken.has(file.path)
          ? "mcp-gen's built-in generators"
          : owners.get(file.path);
      if (owner !== undefined)
        throw pluginError(loaded, `its file ${file.path} is also written by ${owner}`);
      try {
        checkParses(file.path, file.code);
      } catch (error) {
        throw pluginError(
          loaded,
          (error as Error).message
            .replace(/; nothing was written$/, "")
            .replace("internal error: ", ""),
        );
      }
      owners.set(file.path, `plugin '${loaded.plugin.name}'`);
      taken.add(file.path);
      files.push(file);
    }
  }
  return files;
}
