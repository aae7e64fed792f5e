import type { LoadedRevision } from "../../schema/index.js";
import { McpGenError } from "../../schema/diagnostics.js";
import { stackOverflowError } from "../../schema/nesting.js";
import { headerFor } from "./headers.js";
import type { GeneratedWith } from "../output/manifest.js";
import type { EmittedFile, Generator, GeneratorContext, OutputFile } from "./plugin.js";
import { RUNTIME_RANGE, runtimeImports, type RuntimeMode } from "./runtime.js";
import { typesGenerator } from "./types.js";
import { methodsGenerator } from "./methods.js";
import { validatorsGenerator } from "./validators.js";
import { dispatcherGenerator } from "./dispatcher.js";
import { clientGenerator } from "./client.js";
import { protocolGenerator } from "./protocol.js";
import { erasGenerator } from "./eras.js";
import { zodGenerator } from "./zod.js";
import { checkParses } from "../print/parse-check.js";
import { locateMethodError } from "./names.js";
import { indexExports } from "./index-exports.js";
import { GeneratedFile, isPrinted } from "../print/generated-file.js";
import { applyTarget, type Target } from "../output/target.js";

/** Every generator, in the order their files are listed. `index.ts` is added after them. */
export const GENERATORS: readonly Generator[] = [
  typesGenerator,
  methodsGenerator,
  validatorsGenerator,
  dispatcherGenerator,
  protocolGenerator,
  erasGenerator,
  clientGenerator,
  zodGenerator,
];

export const GENERATOR_NAMES = GENERATORS.map((g) => g.name);

/**
 * Generators run only when named (`--generators`, the config's `generators`): their files need
 * a package the output does not otherwise depend on (zod.ts: zod).
 */
const ON_REQUEST: readonly string[] = [zodGenerator.name];

/** The generators a run without `--generators` (or the config's `generators`) runs. */
export const DEFAULT_GENERATOR_NAMES = GENERATOR_NAMES.filter((n) => !ON_REQUEST.includes(n));

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

/** Runs the chosen generators (with those they require) over a revision; no formatter runs. */
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
  return {
    revisions: revisions.map((r) => r.revision.name),
    generators: resolveGenerators(names).map((g) => g.name),
    auth: options.auth === true,
    runtime,
    ...(runtime === "package" ? { runtimeVersions: RUNTIME_RANGE } : {}),
    // Recorded only when not the default, so a `ts` output's manifest is as it always was.
    ...(options.target !== undefined && options.target !== "ts" ? { target: options.target } : {}),
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
}

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
  const chosen = resolveGenerators(names);
  // js+dts compiles the output against the runtime alone: zod's types would be `any` there.
  if (options.target === "js+dts" && chosen.some((g) => g.name === zodGenerator.name))
    throw new McpGenError(
      "config",
      "the zod generator writes TypeScript only (--target ts): its declarations need zod's types",
    );
  let emitted: EmittedFile[];
  try {
    emitted = chosen.flatMap((g) => g.emit(ctx));
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
  const modules = emitted
    .filter(
      (f) => f.kind === "generated" && !f.nodeOnly && !f.peerDependency && !f.path.includes("/"),
    )
    .map((f) => ({ name: f.path.replace(/\.ts$/, ""), code: f.code }));
  const { lines, notes } = indexExports(modules, loaded.model);
  // Laid out by indexExports (one export statement a line, as prettier keeps them).
  const index = new GeneratedFile("index.ts");
  for (const line of lines) index.laidOut(line);
  emitted.push(index.emit(ctx.header, { preformatted: true }));
  // Every file is printed laid out; one outside the layouts the printer matches prettier on
  // (`preformatted` false) is still checked to parse, so a printer bug is never written.
  for (const f of emitted) if (!f.preformatted) checkParses(f.path, f.code);
  const printed = emitted.map((f) => ({
    path: f.path,
    kind: f.kind,
    ...(f.handlerMethods ? { handlerMethods: f.handlerMethods } : {}),
    ...(f.path === "index.ts" && notes.length > 0 ? { notes } : {}),
    content: f.code,
  }));
  return applyTarget(printed, options.target ?? "ts");
}
