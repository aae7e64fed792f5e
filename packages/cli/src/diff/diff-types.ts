import type { LoadedRevision } from "../schema/index.js";
import {
  hasTag,
  type Declaration,
  type ObjectMembers,
  type Property,
  type TypeDeclaration,
} from "../schema/model.js";
import { change, compare, type Add, type DiffContext } from "./diff-change.js";
import {
  ALL,
  BOTH_SIDES,
  breaksOf,
  inlineType,
  merge,
  NO_EFFECT,
  READERS,
  SENDERS,
  shapeText,
  type Effects,
} from "./diff-shape.js";
import type { Side } from "../schema/protocol.js";

// Types, their fields and renames. Message unions (ClientRequest, ...) are left to diff.ts,
// which reports their members once, as the methods they carry.

/** The type declarations a diff compares: message unions are reported as unions, not types. */
function typeDeclarations(
  r: LoadedRevision,
  unions: ReadonlySet<string>,
): Map<string, TypeDeclaration> {
  const out = new Map<string, TypeDeclaration>();
  for (const d of r.model.declarations)
    if (d.kind !== "const" && !unions.has(d.name)) out.set(d.name, d);
  return out;
}

export function messageUnionNames(a: LoadedRevision, b: LoadedRevision): Set<string> {
  return new Set([...Object.keys(a.protocol.unions), ...Object.keys(b.protocol.unions)]);
}

/**
 * Types removed and added with the same shape (docs aside): old name -> new name. A pair
 * must be the only removed and the only added type with that shape. Found in rounds, since
 * a type's shape names other types (`ListPromptsResultResponse` names `ListPromptsResult`):
 * each round compares shapes with the renames found so far applied.
 */
export function findRenames(a: LoadedRevision, b: LoadedRevision): Map<string, string> {
  const unions = messageUnionNames(a, b);
  const before = typeDeclarations(a, unions);
  const after = typeDeclarations(b, unions);
  const removed = [...before.values()].filter((d) => !after.has(d.name));
  const added = [...after.values()].filter((d) => !before.has(d.name));
  const renamed = new Map<string, string>();
  const taken = new Set<string>();
  const byShape = (decls: TypeDeclaration[], rename: (self: string) => (n: string) => string) => {
    const out = new Map<string, TypeDeclaration[]>();
    for (const d of decls) {
      const key = shapeText(d, rename(d.name));
      out.set(key, [...(out.get(key) ?? []), d]);
    }
    return out;
  };
  for (let found = true; found;) {
    found = false;
    // A type naming itself is compared as "self", so recursive types can be paired too.
    const olds = byShape(
      removed.filter((d) => !renamed.has(d.name)),
      (self) => (n) => (n === self ? "<self>" : (renamed.get(n) ?? n)),
    );
    const news = byShape(
      added.filter((d) => !taken.has(d.name)),
      (self) => (n) => (n === self ? "<self>" : n),
    );
    for (const [shape, [old, ...moreOld]] of olds) {
      const [now, ...moreNew] = news.get(shape) ?? [];
      if (!old || !now || moreOld.length > 0 || moreNew.length > 0) continue;
      renamed.set(old.name, now.name);
      taken.add(now.name);
      found = true;
    }
  }
  return renamed;
}

/** An interface's own fields (`a, b?`), an alias's type. */
function describeType(d: TypeDeclaration): string {
  if (d.kind === "alias") return inlineType(d.type);
  const index = d.members.indexSignature;
  const names = d.members.properties.map((p) => `${p.name}${p.optional ? "?" : ""}`);
  return [
    ...names,
    ...(index ? [`[${index.keyName}: ${index.keyType}]: ${inlineType(index.type)}`] : []),
  ].join(", ");
}

/** `interface`, `interface extends A, B`; nothing for aliases (their type says it). */
function declarationKind(d: TypeDeclaration): { detail?: string } {
  if (d.kind === "alias") return {};
  return {
    detail:
      d.extends.length > 0
        ? `interface extends ${d.extends.map((t) => inlineType(t)).join(", ")}`
        : "interface",
  };
}

export function diffTypes(ctx: DiffContext, add: Add): void {
  const { a, b, renamed } = ctx;
  const unions = messageUnionNames(a, b);
  const renamedTo = new Set(renamed.values());
  compare(typeDeclarations(a, unions), typeDeclarations(b, unions), {
    // Code of either side that names a removed type no longer compiles.
    removed: (name, d) => {
      if (renamed.has(name)) return;
      const was = describeType(d);
      add(
        change(
          {
            kind: "type",
            subject: name,
            change: "removed",
            ...(was ? { from: was } : {}),
            ...declarationKind(d),
          },
          BOTH_SIDES,
        ),
      );
    },
    added: (name, e) => {
      if (renamedTo.has(name)) return;
      const now = describeType(e);
      add(
        change({
          kind: "type",
          subject: name,
          change: "added",
          ...(now ? { to: now } : {}),
          ...declarationKind(e),
        }),
      );
    },
    both: (_name, d, e) => diffType(ctx, d, e, add),
  });
  for (const [old, now] of renamed) {
    add(
      change({
        kind: "type",
        subject: old,
        change: "renamed",
        from: old,
        to: now,
        detail: "same shape",
      }),
    );
    const d = a.model.byName.get(old);
    const e = b.model.byName.get(now);
    // Same shape: only a deprecation can differ.
    if (d && e && d.kind !== "const" && e.kind !== "const") diffDeprecation(d.doc, e.doc, now, add);
  }
}

function diffDeprecation(
  before: Declaration["doc"],
  after: Declaration["doc"],
  subject: string,
  add: Add,
): void {
  const now = hasTag(after, "deprecated");
  if (hasTag(before, "deprecated") !== now)
    add(change({ kind: "deprecation", subject, change: now ? "added" : "removed" }));
}

/** The fields of a revision's request and notification envelopes (`jsonrpc`, `id`, ...). */
function envelopeFields(rev: DiffContext["a"], r: DiffContext["shapes"]["before"]): Set<string> {
  const { request, notification } = rev.protocol.envelopes;
  return new Set(
    [request, notification].flatMap((name) =>
      name ? [...(r.objectOf(name)?.properties.keys() ?? [])] : [],
    ),
  );
}

function diffType(ctx: DiffContext, d: TypeDeclaration, e: TypeDeclaration, add: Add): void {
  const { shapes } = ctx;
  const senders = ctx.senders(d.name, e.name);
  const breaks = (effects: Effects) => breaksOf(effects, senders);
  diffDeprecation(d.doc, e.doc, e.name, add);
  if (d.kind === "alias" && e.kind === "alias") {
    if (!shapes.same(d.type, e.type))
      add(
        change(
          {
            kind: "type",
            subject: e.name,
            change: "changed",
            from: inlineType(d.type),
            to: inlineType(e.type),
          },
          breaks(shapes.types(d.type, e.type)),
        ),
      );
    return;
  }
  if (d.kind !== "interface" || e.kind !== "interface") {
    const o = shapes.before.objectOf(d.name);
    const p = shapes.after.objectOf(e.name);
    add(
      change(
        { kind: "type", subject: e.name, change: "changed", from: d.kind, to: e.kind },
        breaks(o && p ? shapes.objects(o, p) : ALL),
      ),
    );
    return;
  }
  const basesBefore = d.extends.map((t) => inlineType(t)).join(", ");
  const basesAfter = e.extends.map((t) => inlineType(t)).join(", ");
  if (d.extends.map((t) => inlineType(t, shapes.rename)).join(", ") !== basesAfter) {
    // The fields a base brings in or takes away are what users feel: name them. Fields of an
    // ancestor both revisions share (Result) are that ancestor's changes, reported there.
    const [ra, rb] = [shapes.before, shapes.after];
    const before =
      ra.objectOf(d.name)?.properties ?? new Map<string, { name: string; optional: boolean }>();
    const after =
      rb.objectOf(e.name)?.properties ?? new Map<string, { name: string; optional: boolean }>();
    const sharedAfter = new Set(rb.ancestors(e.name, { throughOmit: false }));
    const shared = [...ra.ancestors(d.name, { throughOmit: false })].filter((n) =>
      sharedAfter.has(shapes.rename(n)),
    );
    const viaShared = (r: typeof ra, rename: (n: string) => string) =>
      new Set(shared.flatMap((n) => [...(r.objectOf(rename(n))?.properties.keys() ?? [])]));
    const [sharedFieldsBefore, sharedFieldsAfter] = [
      viaShared(ra, (n) => n),
      viaShared(rb, shapes.rename),
    ];
    const own = (m: ObjectMembers, name: string) => m.properties.some((p) => p.name === name);
    const gained = [...after.values()].filter(
      (p) => !before.has(p.name) && !own(e.members, p.name) && !sharedFieldsAfter.has(p.name),
    );
    const lost = [...before.values()].filter(
      (p) => !after.has(p.name) && !own(d.members, p.name) && !sharedFieldsBefore.has(p.name),
    );
    const names = (ps: { name: string; optional: boolean }[]) =>
      ps.map((p) => `${p.name}${p.optional ? "?" : ""}`).join(", ");
    // Fields of the JSON-RPC envelope (jsonrpc, id) that a type gains or loses with a base
    // were on the wire before and after: only code that builds or reads the type is affected.
    const [envelopeBefore, envelopeAfter] = [envelopeFields(ctx.a, ra), envelopeFields(ctx.b, rb)];
    const envelopeOnly =
      gained.length + lost.length > 0 &&
      gained.every((p) => envelopeBefore.has(p.name)) &&
      lost.every((p) => envelopeAfter.has(p.name));
    const detail = [
      "extends",
      gained.length ? `gains ${names(gained)}` : "",
      lost.length ? `loses ${names(lost)}` : "",
      envelopeOnly ? "JSON-RPC envelope fields, the messages are unchanged" : "",
    ]
      .filter(Boolean)
      .join("; ");
    const effects = merge(
      lost.length > 0 ? READERS : NO_EFFECT,
      gained.some((p) => !p.optional) ? SENDERS : NO_EFFECT,
    );
    add(
      change(
        {
          kind: "type",
          subject: e.name,
          change: "changed",
          detail,
          ...(basesBefore ? { from: basesBefore } : {}),
          ...(basesAfter ? { to: basesAfter } : {}),
        },
        breaks(effects),
      ),
    );
  }
  // A field that moves between the type and its bases (Implementation.name into BaseMetadata) is still there.
  const inherited = {
    before: shapes.before.objectOf(d.name)?.properties,
    after: shapes.after.objectOf(e.name)?.properties,
  };
  diffFields(ctx, e.name, d.members, e.members, senders, add, inherited);
}

type FieldLike = Pick<Property, "name" | "optional" | "type" | "doc">;

const describeField = (p: { optional: boolean; type: Property["type"] }) =>
  `${p.optional ? "optional" : "required"} ${inlineType(p.type)}`;

/**
 * Field by field; inside inline object types (`tools?: { listChanged?: boolean }`) too, as
 * `ServerCapabilities.tools.validate`: a new optional sub-field is as harmless as a new
 * optional field.
 */
function diffFields(
  ctx: DiffContext,
  prefix: string,
  dm: ObjectMembers,
  em: ObjectMembers,
  senders: ReadonlySet<Side>,
  add: Add,
  inherited: {
    before?: Map<string, FieldLike> | undefined;
    after?: Map<string, FieldLike> | undefined;
  } = {},
): void {
  const { shapes } = ctx;
  const breaks = (effects: Effects) => breaksOf(effects, senders);
  const fields = (m: ObjectMembers) =>
    new Map<string, FieldLike>(m.properties.map((p) => [p.name, p]));
  const [before, after] = [fields(dm), fields(em)];
  for (const name of after.keys())
    if (!before.has(name) && inherited.before?.has(name))
      before.set(name, inherited.before.get(name)!);
  for (const name of [...before.keys()])
    if (!after.has(name) && inherited.after?.has(name)) after.set(name, inherited.after.get(name)!);
  compare(before, after, {
    removed: (name, p) =>
      add(
        change(
          {
            kind: "field",
            subject: `${prefix}.${name}`,
            change: "removed",
            from: describeField(p),
          },
          breaks(READERS),
        ),
      ),
    added: (name, q) =>
      add(
        change(
          { kind: "field", subject: `${prefix}.${name}`, change: "added", to: describeField(q) },
          breaks(q.optional ? NO_EFFECT : SENDERS),
        ),
      ),
    both: (name, p, q) => {
      const subject = `${prefix}.${name}`;
      if (p.type.kind === "object" && q.type.kind === "object")
        diffFields(ctx, subject, p.type.members, q.type.members, senders, add);
      else if (!shapes.same(p.type, q.type)) {
        add(
          change(
            {
              kind: "field",
              subject,
              change: "changed",
              detail: "type",
              from: inlineType(p.type),
              to: inlineType(q.type),
            },
            breaks(shapes.types(p.type, q.type)),
          ),
        );
      }
      if (p.optional !== q.optional) {
        const word = (optional: boolean) => (optional ? "optional" : "required");
        add(
          change(
            {
              kind: "field",
              subject,
              change: "changed",
              detail: "optionality",
              from: word(p.optional),
              to: word(q.optional),
            },
            breaks(shapes.optionality(p.optional, q.optional)),
          ),
        );
      }
      diffDeprecation(p.doc, q.doc, subject, add);
    },
  });
  // An index signature is a family of optional fields: gaining one breaks nobody, losing one breaks readers.
  const [i, j] = [dm.indexSignature, em.indexSignature];
  const subject = `${prefix}[${(j ?? i)?.keyType}]`;
  if (i && j && !shapes.same(i.type, j.type))
    add(
      change(
        {
          kind: "field",
          subject,
          change: "changed",
          detail: "type",
          from: inlineType(i.type),
          to: inlineType(j.type),
        },
        breaks(shapes.types(i.type, j.type)),
      ),
    );
  else if (i && !j)
    add(
      change(
        {
          kind: "field",
          subject,
          change: "removed",
          from: describeField({ optional: true, type: i.type }),
        },
        breaks(READERS),
      ),
    );
  else if (j && !i)
    add(
      change({
        kind: "field",
        subject,
        change: "added",
        to: describeField({ optional: true, type: j.type }),
      }),
    );
}
