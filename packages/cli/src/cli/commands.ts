import { McpGenError } from "../schema/diagnostics.js";
import { join } from "node:path";
import { hasDraft, listRevisions, loadRevision, type LoadedRevision } from "../schema/index.js";
import {
  generate,
  GENERATOR_NAMES,
  generatedWith,
  type OutputFile,
} from "../generators/emit/index.js";
import type { GeneratedWith } from "../generators/output/manifest.js";
import { applyOutput, planOutput } from "../generators/output/output.js";
import {
  handlersFileLines,
  isHandlersSkeleton,
  keptFileLines,
  readText,
} from "../generators/output/kept-files.js";
import { display, reportCheck, rerunCommand } from "./check.js";
import type { Io } from "./io.js";
import { loadConfig } from "./config.js";
import {
  blameConfig,
  revisionNames,
  settings,
  specOf,
  type CommonOptions,
  type GenerateOptions,
} from "./settings.js";
import { diffMarkdown, diffRevisions } from "../diff/diff.js";
import { initProject } from "../generators/init/project.js";
import { deprecatedUseLines } from "../generators/output/deprecated-uses.js";
import { isInitializeBased, isStateless, runtimeFacts } from "../schema/runtime-protocol.js";
import { collectAfterReading } from "./memory.js";
import { loadPlugins } from "../plugin/load.js";

export type { Io } from "./io.js";

export async function generateCommand(
  options: GenerateOptions & { check?: boolean },
  io: Io,
): Promise<number> {
  const s = settings(options);
  const names = revisionNames(s);
  // Plugins load before the schema is read: a missing one fails at once.
  const plugins = await loadPlugins(s.plugins, GENERATOR_NAMES);
  const { loaded, legacy } = blameConfig(s, () => loadEras(s.spec, names));
  collectAfterReading([loaded, ...legacy]);
  const chosen = { legacy, auth: s.auth, runtime: s.runtime, target: s.target, plugins };
  const emitted = await generate(loaded, s.generators, chosen);
  const record = generatedWith([loaded, ...legacy], s.generators, chosen);
  // Handlers kept outside the output folder (the config's `handlers`, as in init projects):
  // that file stands in for the skeleton, which is then not written into the output.
  const skeleton = s.handlers ? emitted.find(isHandlersSkeleton) : undefined;
  const files = skeleton ? emitted.filter((f) => f !== skeleton) : emitted;
  const check = options.check === true;
  const code = writeOutput(
    s.out,
    files,
    {
      revision: record.revisions.join(" + "),
      check,
      rerun: rerunCommand(options),
      generatedWith: record,
    },
    io,
  );
  if (skeleton && !check)
    for (const line of handlersFileLines(s.handlers!, display(s.handlers!), skeleton)) io.err(line);
  if (!check) for (const line of deprecationNotes(s, loaded)) io.err(line);
  // What the output renamed (a schema name index.ts exports under another), at its place.
  if (!check)
    for (const f of files) for (const note of f.notes ?? []) io.err(`mcp-gen: note: ${note}`);
  return code;
}

/**
 * What the user's handlers (the config's `handlers`, or the kept handlers.ts skeleton) use
 * that the revision deprecates: one note each.
 */
function deprecationNotes(s: ReturnType<typeof settings>, loaded: LoadedRevision): string[] {
  const deprecated = runtimeFacts(loaded).deprecated;
  if (!deprecated) return [];
  const path = s.handlers ?? join(s.out, "handlers.ts");
  const code = readText(path);
  if (code === undefined) return [];
  return deprecatedUseLines(code, display(path), loaded.revision.name, deprecated);
}

/**
 * The revisions of one output: the newest, which handlers are written against, and older
 * ones its server also serves, newest first (`legacy`): stateless ones per request,
 * initialize-based ones through initialize.
 */
export function loadEras(
  spec: string,
  names: readonly string[],
): { loaded: LoadedRevision; legacy: LoadedRevision[] } {
  if (names.length === 0)
    throw new McpGenError("config", "'revisions' is empty; name at least one revision");
  const all = names.map((name) => loadRevision(spec, name));
  const unique = all.filter(
    (l, i) => all.findIndex((x) => x.revision.name === l.revision.name) === i,
  );
  const sorted = unique.sort((a, b) => b.revision.name.localeCompare(a.revision.name));
  const [loaded, ...legacy] = sorted as [LoadedRevision, ...LoadedRevision[]];
  if (legacy.length === 0) return { loaded, legacy };
  const stateless = (l: LoadedRevision) => isStateless(l.protocol);
  if (!stateless(loaded)) {
    const why = isInitializeBased(loaded.protocol)
      ? "is initialize-based"
      : "is not stateless (its requests carry no protocol version in _meta, or it has no UNSUPPORTED_PROTOCOL_VERSION error to refuse one with)";
    throw new McpGenError(
      "config",
      `serving several revisions needs a stateless newest revision (2026-07-28 or later) to write handlers against; ${loaded.revision.name} ${why}`,
    );
  }
  // Older stateless revisions are served per request, routed by the version each names in
  // `_meta` (2026-07-28 basic/versioning, "Protocol Version Negotiation"): each needs a
  // version of its own.
  const spoken = new Map([[loaded.protocol.protocolVersion, loaded]]);
  for (const older of legacy.filter(stateless)) {
    const version = older.protocol.protocolVersion;
    if (version === undefined)
      throw new McpGenError(
        "config",
        `${older.revision.name} is stateless but declares no LATEST_PROTOCOL_VERSION: its requests could not be told apart`,
      );
    const same = spoken.get(version);
    if (same)
      throw new McpGenError(
        "config",
        `${older.revision.name} and ${same.revision.name} both speak protocol version ${version}: list one of them`,
      );
    spoken.set(version, older);
  }
  const tooOld = legacy.find((l) => !stateless(l) && !isInitializeBased(l.protocol));
  if (tooOld)
    throw new McpGenError(
      "config",
      `${tooOld.revision.name} has no initialize request; older revisions must be stateless or initialize-based`,
    );
  return { loaded, legacy };
}

/**
 * Writes generated files into the output folder and reports it, or with `check` compares
 * them with it (see reportCheck). Separate from generation so the reporting can be tested on
 * any set of files. `rerun` is the command that regenerates (default: plain generate).
 */
export function writeOutput(
  out: string,
  files: OutputFile[],
  options: { revision: string; check: boolean; rerun?: string; generatedWith?: GeneratedWith },
  io: Io,
): number {
  const plan = planOutput(out, files, options.generatedWith);
  const where = display(out);
  if (options.check) {
    const { revision, generatedWith: record } = options;
    return reportCheck(
      out,
      files,
      plan,
      {
        revision,
        rerun: options.rerun ?? "mcp-gen generate",
        ...(record ? { generatedWith: record } : {}),
      },
      io,
    );
  }
  applyOutput(out, plan);
  io.out(
    `mcp-gen: MCP schema ${options.revision} -> ${where}/ (${plan.write.length} written, ${plan.unchanged.length} unchanged, ${plan.stale.length} removed${plan.kept.length ? `, ${plan.kept.length} user-owned kept` : ""})`,
  );
  // Advice on the user's kept files, after the summary; --check reports only staleness.
  for (const line of keptFileLines(plan.keptFindings)) io.err(line);
  return 0;
}

export function revisionsCommand(options: CommonOptions & { json?: boolean }, io: Io): number {
  const config = loadConfig(options.config);
  const spec = specOf(options, config);
  const revisions = listRevisions(spec).map((r) => r.name);
  // A draft is never `latest` (it is used only when named), but a maintainer tracking the
  // next release needs to see that the checkout has one.
  const draft = hasDraft(spec);
  if (options.json) {
    io.out(
      JSON.stringify(
        { revisions, latest: revisions[revisions.length - 1] ?? null, draft },
        null,
        2,
      ),
    );
    return 0;
  }
  revisions.forEach((name, i) => io.out(i === revisions.length - 1 ? `${name} (latest)` : name));
  if (draft) io.out("draft (unreleased; used only with --revision draft)");
  return 0;
}

/** The `inspect --json` document: the protocol as a runtime maintainer needs it. */
export function inspectJson(loaded: LoadedRevision): object {
  const { protocol } = loaded;
  return {
    revision: loaded.revision.name,
    protocolVersion: protocol.protocolVersion ?? null,
    methods: protocol.methods.map((m) => ({
      method: m.method,
      kind: m.kind,
      directions: m.directions,
      type: m.type,
      params: m.params ?? null,
      result: m.result ?? null,
      inputRequired: m.inputRequired,
      ...(m.deprecated ? { deprecated: true } : {}),
    })),
    inputRequests: protocol.inputRequests.map((r) => r.method),
    errors: Object.fromEntries(protocol.errors.map((e) => [e.name, e.code])),
  };
}

export function inspectCommand(options: CommonOptions & { json?: boolean }, io: Io): number {
  const s = settings(options);
  const loaded = blameConfig(s, () => loadRevision(s.spec, s.revision));
  if (options.json) {
    io.out(JSON.stringify(inspectJson(loaded), null, 2));
    return 0;
  }
  const { protocol } = loaded;
  io.out(
    `MCP schema ${loaded.revision.name} (protocol version ${protocol.protocolVersion ?? "?"}, ${loaded.model.declarations.length} declarations)`,
  );
  for (const kind of ["request", "notification"] as const) {
    io.out("");
    io.out(kind === "request" ? "Requests:" : "Notifications:");
    for (const m of protocol.methods.filter((x) => x.kind === kind)) {
      const flags = [m.inputRequired ? "input_required" : "", m.deprecated ? "deprecated" : ""]
        .filter(Boolean)
        .join(", ");
      const result = m.result ? ` -> ${m.result}` : "";
      io.out(
        `  ${m.method.padEnd(40)} ${m.directions.join(", ").padEnd(32)} ${m.params ?? "-"}${result}${flags ? `  [${flags}]` : ""}`,
      );
    }
  }
  if (protocol.inputRequests.length > 0) {
    io.out("");
    io.out("Input requests (in InputRequiredResult):");
    for (const r of protocol.inputRequests)
      io.out(
        `  ${r.method.padEnd(40)} needs client capability ${r.capability?.path.join(".") ?? "-"}`,
      );
  }
  io.out("");
  io.out("Error codes:");
  for (const e of protocol.errors)
    io.out(
      `  ${String(e.code).padEnd(8)} ${e.name}${e.types.length ? ` (${e.types.join(", ")})` : ""}`,
    );
  return 0;
}

/** Prints the diff; with --fail-on-breaking, exits 1 when a change breaks clients or servers (for CI). */
export function diffCommand(
  options: CommonOptions & { from: string; to: string; format?: string; failOnBreaking?: boolean },
  io: Io,
): number {
  const config = loadConfig(options.config);
  const spec = specOf(options, config);
  const format = options.format ?? "md";
  if (format !== "md" && format !== "json")
    throw new McpGenError("usage", `--format must be md or json, not '${format}'`);
  const diff = diffRevisions(loadRevision(spec, options.from), loadRevision(spec, options.to));
  io.out(format === "json" ? JSON.stringify(diff, null, 2) : diffMarkdown(diff));
  return options.failOnBreaking && diff.changes.some((c) => c.breaking) ? 1 : 0;
}

export async function initCommand(
  dir: string,
  options: CommonOptions & { force?: boolean; modernOnly?: boolean; auth?: boolean },
  io: Io,
): Promise<number> {
  if (dir.trim() === "")
    throw new McpGenError(
      "usage",
      'the project folder is empty (an unset variable?): name it, or "." for this one',
    );
  const config = loadConfig(options.config);
  const spec = specOf(options, config);
  const result = await initProject(dir, {
    spec,
    revision: options.revision ?? config.revision ?? "latest",
    ...(options.force ? { force: true } : {}),
    ...(options.modernOnly ? { modernOnly: true } : {}),
    ...(options.auth ? { auth: true } : {}),
  });
  io.out(
    `mcp-gen: created an MCP server project in ${display(dir)} (${result.written.length} files written${result.kept.length ? `, ${result.kept.length} existing kept` : ""})`,
  );
  io.out(`next: cd ${display(dir)} && npm install && npm test && npm start`);
  return 0;
}
