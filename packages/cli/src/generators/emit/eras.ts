import type { LoadedRevision } from "../../schema/index.js";
import { Resolver } from "../../schema/resolve.js";
import type { MethodInfo } from "../../schema/protocol.js";
import { isStateless, runtimeFacts } from "../../schema/runtime-protocol.js";
import { GeneratedFile } from "../print/generated-file.js";
import { Code, str } from "../print/printer.js";
import { RT } from "./runtime-symbols.js";
import type { EmittedFile, Generator, GeneratorContext } from "./plugin.js";
import { protocolFile } from "./protocol.js";
import { typesGenerator } from "./types.js";
import { methodsGenerator } from "./methods.js";
import { validatorsGenerator } from "./validators.js";

// A server generated for several revisions serves every era from one handlers.ts written
// against the newest: eras.ts lists the revisions it speaks, and each older revision gets a
// folder with its own types, method table, validators and protocol facts, so every message
// is checked at the revision it was actually sent in. The folders are named for the era as
// 2026-07-28 basic/versioning "Terminology" names them: legacy/<revision>/ for
// initialize-based revisions, modern/<revision>/ for older stateless ones (after a spec bump,
// the previous revisions, still served per request).

/** Where an older revision's files go. */
export const olderDir = (older: LoadedRevision) =>
  `${isStateless(older.protocol) ? "modern" : "legacy"}/${older.revision.name}`;
/** Where a legacy revision's files go. */
export const legacyDir = (revision: string) => `legacy/${revision}`;

/**
 * What differs between a legacy revision and the newest for each method both have: result
 * fields only the newest has, dropped on the way to a legacy client. Derived from the two
 * models, the same facts `mcp-gen diff` reports.
 */
export function adaptersFor(
  modern: LoadedRevision,
  legacy: LoadedRevision,
): Record<string, { dropResultFields: string[] }> {
  const rm = new Resolver(modern.model);
  const rl = new Resolver(legacy.model);
  const adapters: Record<string, { dropResultFields: string[] }> = {};
  for (const m of modern.protocol.methods) {
    const old = legacy.protocol.methods.find((x) => x.method === m.method);
    if (m.kind !== "request" || !old || !m.result || !old.result) continue;
    const now = rm.objectOf(m.result);
    const then = rl.objectOf(old.result);
    if (!now || !then) continue;
    const dropped = [...now.properties.keys()].filter((name) => !then.properties.has(name)).sort();
    if (dropped.length > 0) adapters[m.method] = { dropResultFields: dropped };
  }
  return adapters;
}

/**
 * Result fields only the newest revision has that the client fills in older revisions'
 * results (the keys of the runtime's client/versions.ts MODERN_RESULT_DEFAULTS; a test keeps the two
 * equal). Others, such as a required field a draft adds, may be missing from an older result.
 */
export const RESULT_FIELDS_WITH_DEFAULTS: readonly string[] = ["resultType", "ttlMs", "cacheScope"];

/**
 * Per method, the required fields of the newest revision's params or result that some older
 * revision lacks (for results, those without a default the client fills): a request of an
 * older revision reaches the handlers without them, and a result of one reaches the caller
 * without them, so the typed params and results mark them optional.
 */
export function missingInOlder(
  modern: LoadedRevision,
  older: readonly LoadedRevision[],
  part: "params" | "result",
): Map<string, string[]> {
  const fieldsOf = (r: Resolver, m: MethodInfo) => {
    if (part === "result") return m.result ? r.objectOf(m.result)?.properties : undefined;
    const params = r.propertyOf(m.type, "params");
    return params ? r.object(params.type)?.properties : undefined;
  };
  const rm = new Resolver(modern.model);
  const out = new Map<string, string[]>();
  for (const era of older) {
    const ro = new Resolver(era.model);
    for (const m of modern.protocol.methods) {
      const old = era.protocol.methods.find((x) => x.method === m.method);
      const [now, then] = [fieldsOf(rm, m), old && fieldsOf(ro, old)];
      if (!now || !then) continue;
      // The client fills these result fields; the era router fills a legacy request's `_meta`.
      const filled = part === "result" ? RESULT_FIELDS_WITH_DEFAULTS : ["_meta"];
      const missing = [...now.values()]
        .filter((f) => !f.optional && !then.has(f.name) && !filled.includes(f.name))
        .map((f) => f.name);
      if (missing.length > 0)
        out.set(m.method, [...new Set([...(out.get(m.method) ?? []), ...missing])].sort());
    }
  }
  return out;
}

/** The files of one older revision: types, methods, validators and protocol facts. */
export function legacyFiles(
  ctx: GeneratorContext,
  legacy: LoadedRevision,
  emit: (ctx: GeneratorContext) => EmittedFile[],
): EmittedFile[] {
  const dir = olderDir(legacy);
  const files = emit({
    ...ctx,
    loaded: legacy,
    header: ctx.headerFor(legacy),
    legacy: [],
    runtime: ctx.runtime.at(2),
  }).filter((f) => ["types.ts", "methods.ts", "validators.ts"].includes(f.path));
  files.push(protocolFile(legacy, ctx.headerFor(legacy), ctx.runtime.at(2)));
  return files.map((f) => ({ ...f, path: `${dir}/${f.path}`, nodeOnly: false }));
}

/** eras.ts: the revisions this output speaks, for the runtime's era routing. */
export function erasFile(ctx: GeneratorContext): EmittedFile {
  const w = new GeneratedFile("eras.ts", ctx.runtime);
  w.import("./protocol.js", "MESSAGE_VALIDATORS");
  w.import("./protocol.js", "PROTOCOL");
  const modernEra = w.use(RT.core.Era);
  const adapted = w.use(RT.core.AdaptedEra);
  const legacy = w.use(RT.core.LegacyEra);
  ctx.legacy.forEach((older, i) => {
    const from = `./${olderDir(older)}/protocol.js`;
    w.import(from, `MESSAGE_VALIDATORS as VALIDATORS_${i}`);
    w.import(from, `PROTOCOL as PROTOCOL_${i}`);
  });
  // Which era an older revision belongs to is a fact of its protocol model, not of its name.
  const eras = ctx.legacy.map((older, i) => ({ older, i, stateless: isStateless(older.protocol) }));
  const list = (key: string, members: typeof eras) => {
    if (members.length === 0) return w.line(`${key}: [],`);
    // The comments keep the array one element a line, as prettier does.
    w.block(
      `${key}: [`,
      () => {
        for (const { older, i } of members) {
          w.line(`// ${str(older.revision.name).slice(1, -1)}`);
          const era = {
            protocol: new Code(`PROTOCOL_${i}`),
            validators: new Code(`VALIDATORS_${i}`),
            adapters: adaptersFor(ctx.loaded, older),
          };
          w.value("", era, ",");
        }
      },
      "],",
    );
  };
  w.line(
    "// The revisions this output speaks: the newest (handlers and the typed client are written",
  );
  w.line(
    "// against it), older stateless ones served per request, and legacy ones reached through",
  );
  w.line("// `initialize`, newest first.");
  w.line();
  w.block(
    "export const ERAS: {",
    () => {
      w.line(`readonly modern: ${modernEra};`);
      w.line(`readonly previous: readonly ${adapted}[];`);
      w.line(`readonly legacy: readonly ${legacy}[];`);
    },
    "} = {",
  );
  w.indented(() => {
    w.line("modern: { protocol: PROTOCOL, validators: MESSAGE_VALIDATORS },");
    list(
      "previous",
      eras.filter((e) => e.stateless),
    );
    list(
      "legacy",
      eras.filter((e) => !e.stateless),
    );
  });
  w.line("};");
  return w.emit(ctx.header);
}

/**
 * eras.ts, the runtime it names and legacy/<revision>/ for each legacy revision: emitted by
 * the dispatcher and the client generators alike (generate() keeps one copy of each file).
 */
/**
 * eras.ts and the older revisions' folders, for a revision whose requests carry their
 * version (stateless Streamable HTTP): the dispatcher and the client both require it.
 */
export const erasGenerator: Generator = {
  name: "eras",
  description: "eras.ts: the revisions served; legacy/ and modern/: an older revision's files",
  requires: ["types", "methods", "validators", "protocol"],
  runtime: () => ["core"],
  emit: (ctx) => (runtimeFacts(ctx.loaded).features.perRequestVersion ? eraFiles(ctx) : []),
};

export function eraFiles(ctx: GeneratorContext): EmittedFile[] {
  const wire = (c: GeneratorContext) =>
    [typesGenerator, methodsGenerator, validatorsGenerator].flatMap((g) => g.emit(c));
  return [erasFile(ctx), ...ctx.legacy.flatMap((l) => legacyFiles(ctx, l, wire))];
}
