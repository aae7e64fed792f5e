import type { LoadedRevision } from "../schema/index.js";
import type { Declaration, ObjectMembers, TypeExpr } from "../schema/model.js";
import type { Direction, Side } from "../schema/protocol.js";
import { Resolver, type ResolvedObject } from "../schema/resolve.js";
import { prettierKey as propertyKey } from "../generators/print/printer.js";

// Whether a change breaks code depends on who builds the value and who reads it. Code that
// builds a value breaks when the type asks for more (a new required field, a narrower union);
// code that reads it breaks when the type promises less (a field gone, a wider union, a field
// that may now be absent). Which side is which comes from the messages that carry the type.

export const BOTH_SIDES: readonly Side[] = ["client", "server"];

/** Which consequences a type change has: code that builds values breaks, code that reads them breaks. */
export interface Effects {
  senders: boolean;
  readers: boolean;
}

export const NO_EFFECT: Effects = { senders: false, readers: false };
export const SENDERS: Effects = { senders: true, readers: false };
export const READERS: Effects = { senders: false, readers: true };
export const ALL: Effects = { senders: true, readers: true };

export function merge(...effects: Effects[]): Effects {
  return { senders: effects.some((e) => e.senders), readers: effects.some((e) => e.readers) };
}

export const senderOf = (d: Direction): Side => (d === "client->server" ? "client" : "server");
const otherSide = (s: Side): Side => (s === "client" ? "server" : "client");

/** Who sends each message union's members (protocol.ts finds these unions; JSON-RPC envelopes go both ways). */
export const UNION_SENDERS: Readonly<Record<string, readonly Side[]>> = {
  ClientRequest: ["client"],
  ClientNotification: ["client"],
  ClientResult: ["client"],
  InputResponse: ["client"],
  ServerRequest: ["server"],
  ServerNotification: ["server"],
  ServerResult: ["server"],
  InputRequest: ["server"],
  JSONRPCMessage: BOTH_SIDES,
};

/**
 * The sides whose code breaks: the senders for `effects.senders`, the other sides for
 * `effects.readers`. A type no message carries is taken to be built and read by both.
 */
export function breaksOf(effects: Effects, senders: ReadonlySet<Side>): Side[] {
  const from = senders.size > 0 ? [...senders] : BOTH_SIDES;
  const out = new Set<Side>();
  if (effects.senders) from.forEach((s) => out.add(s));
  if (effects.readers) from.forEach((s) => out.add(senders.size > 0 ? otherSide(s) : s));
  return BOTH_SIDES.filter((s) => out.has(s));
}

/** For every type a message carries (directly or through fields and bases), the sides that build it. */
export function typeSenders(loaded: LoadedRevision): Map<string, Set<Side>> {
  const { model, protocol } = loaded;
  const out = new Map<string, Set<Side>>();
  const visit = (name: string, side: Side): void => {
    const decl = model.byName.get(name);
    if (!decl || decl.kind === "const") return;
    const sides = out.get(name) ?? new Set<Side>();
    if (sides.has(side)) return;
    sides.add(side);
    out.set(name, sides);
    if (decl.kind === "alias") walk(decl.type, side);
    else {
      decl.extends.forEach((t) => walk(t, side));
      walkMembers(decl.members, side);
    }
  };
  const walkMembers = (m: ObjectMembers, side: Side) => {
    m.properties.forEach((p) => walk(p.type, side));
    if (m.indexSignature) walk(m.indexSignature.type, side);
  };
  const walk = (t: TypeExpr, side: Side): void => {
    if (t.kind === "ref") visit(t.name, side);
    else if (t.kind === "array") walk(t.element, side);
    else if (t.kind === "object") walkMembers(t.members, side);
    else if (t.kind === "union" || t.kind === "intersection")
      t.members.forEach((m) => walk(m, side));
    else if (t.kind === "omit") walk(t.base, side);
    else if (t.kind === "record") {
      walk(t.key, side);
      walk(t.value, side);
    }
  };
  for (const m of protocol.methods) {
    for (const d of m.directions) {
      visit(m.type, senderOf(d));
      if (m.result) visit(m.result, otherSide(senderOf(d)));
    }
  }
  for (const r of protocol.inputRequests) {
    visit(r.type, "server");
    visit(r.result, "client");
  }
  for (const [union, sides] of Object.entries(UNION_SENDERS)) sides.forEach((s) => visit(union, s));
  return out;
}

/** A type on one line, without docs: how the diff shows types. `rename` maps referenced names. */
export function inlineType(t: TypeExpr, rename: (name: string) => string = (n) => n): string {
  const inline = (u: TypeExpr) => inlineType(u, rename);
  const wrap = (u: TypeExpr, kinds: TypeExpr["kind"][]) =>
    kinds.includes(u.kind) ? `(${inline(u)})` : inline(u);
  switch (t.kind) {
    case "keyword":
      return t.name;
    case "literal":
      return typeof t.value === "string" ? JSON.stringify(t.value) : String(t.value);
    case "typeof":
      return `typeof ${t.name}`;
    case "ref":
      return rename(t.name);
    case "array":
      return `${wrap(t.element, ["union", "intersection"])}[]`;
    case "object":
      return inlineMembers(t.members, rename);
    case "union":
      return t.members.map(inline).join(" | ");
    case "intersection":
      return t.members.map((m) => wrap(m, ["union"])).join(" & ");
    case "omit":
      return `Omit<${inline(t.base)}, ${t.keys.map((k) => JSON.stringify(k)).join(" | ")}>`;
    case "record":
      return `Record<${inline(t.key)}, ${inline(t.value)}>`;
  }
}

export function inlineMembers(
  m: ObjectMembers,
  rename: (name: string) => string = (n) => n,
): string {
  const parts = m.properties.map(
    (p) => `${propertyKey(p.name)}${p.optional ? "?" : ""}: ${inlineType(p.type, rename)}`,
  );
  if (m.indexSignature)
    parts.push(
      `[${m.indexSignature.keyName}: ${m.indexSignature.keyType}]: ${inlineType(m.indexSignature.type, rename)}`,
    );
  return parts.length === 0 ? "{}" : `{ ${parts.join("; ")} }`;
}

/** A declaration's shape as text, docs left out: two declarations with equal texts have the same shape. */
export function shapeText(d: Declaration, rename?: (name: string) => string): string {
  if (d.kind === "alias") return `type ${inlineType(d.type, rename)}`;
  if (d.kind === "const") return `const ${JSON.stringify(d.value)}`;
  return `interface ${d.extends.map((t) => inlineType(t, rename)).join(", ")} ${inlineMembers(d.members, rename)}`;
}

const isTop = (t: TypeExpr) => t.kind === "keyword" && (t.name === "unknown" || t.name === "any");

/** `"a"` is one of the values of `string`, anything one of `unknown`'s. */
function subsumes(general: TypeExpr, specific: TypeExpr): boolean {
  if (isTop(general)) return true;
  return (
    general.kind === "keyword" &&
    specific.kind === "literal" &&
    typeof specific.value === general.name
  );
}

/** `object` is an object of unknown fields: compared as `{}`, so fields it gains are as harmless as new optional fields. */
const ANY_OBJECT: ResolvedObject = { properties: new Map() };

/**
 * Compares a type of the older revision with one of the newer, structurally. Types renamed
 * with the same shape count as equal; a named type that kept its name is compared where it
 * is declared (the diff reports it there), not again at every use.
 */
export class ShapeComparer {
  private readonly seen = new Set<string>();
  readonly rename: (name: string) => string;

  constructor(
    readonly before: Resolver,
    readonly after: Resolver,
    renamed: ReadonlyMap<string, string>,
  ) {
    this.rename = (name) => renamed.get(name) ?? name;
  }

  /** Whether two types read the same once renamed types carry their new names. */
  same(x: TypeExpr, y: TypeExpr): boolean {
    return inlineType(x, this.rename) === inlineType(y);
  }

  /**
   * As sets of values: senders break when an old value is no longer allowed, readers when a
   * new value can arrive. A member another side's member covers (`"a"` by `string`) is no
   * change; one uncovered member each side is compared structurally (an object that changed).
   */
  types(x: TypeExpr, y: TypeExpr): Effects {
    if (this.same(x, y) || (isTop(x) && isTop(y))) return NO_EFFECT;
    const xs = this.before.unionMembers(x);
    const ys = this.after.unionMembers(y);
    const ysText = new Set(ys.map((m) => inlineType(m)));
    const xsText = new Set(xs.map((m) => inlineType(m, this.rename)));
    const onlyBefore = xs.filter(
      (m) => !ysText.has(inlineType(m, this.rename)) && !ys.some((n) => subsumes(n, m)),
    );
    const onlyAfter = ys.filter(
      (n) => !xsText.has(inlineType(n)) && !xs.some((m) => subsumes(m, n)),
    );
    const [x1] = onlyBefore;
    const [y1] = onlyAfter;
    if (onlyBefore.length === 1 && onlyAfter.length === 1 && x1 && y1) return this.member(x1, y1);
    return merge(
      onlyBefore.length > 0 ? SENDERS : NO_EFFECT,
      onlyAfter.length > 0 ? READERS : NO_EFFECT,
    );
  }

  private member(x: TypeExpr, y: TypeExpr): Effects {
    if (this.same(x, y)) return NO_EFFECT;
    const key = `${inlineType(x)} => ${inlineType(y)}`;
    // A recursive type compared with itself: what is being compared further up decides.
    if (this.seen.has(key)) return NO_EFFECT;
    this.seen.add(key);
    try {
      if (x.kind === "array" && y.kind === "array") return this.types(x.element, y.element);
      if (x.kind === "record" && y.kind === "record")
        return merge(this.types(x.key, y.key), this.types(x.value, y.value));
      const da = x.kind === "ref" ? this.before.declaration(x.name) : undefined;
      const db = y.kind === "ref" ? this.after.declaration(y.name) : undefined;
      if (da?.kind === "alias" && db?.kind === "alias") return this.types(da.type, db.type);
      const isObject = (t: TypeExpr) => t.kind === "keyword" && t.name === "object";
      const o = isObject(x) ? ANY_OBJECT : this.before.object(x);
      const p = isObject(y) ? ANY_OBJECT : this.after.object(y);
      return o && p ? this.objects(o, p) : ALL;
    } finally {
      this.seen.delete(key);
    }
  }

  objects(o: ResolvedObject, p: ResolvedObject): Effects {
    const effects: Effects[] = [];
    for (const [name, x] of o.properties) {
      const y = p.properties.get(name);
      effects.push(y ? this.field(x, y) : READERS);
    }
    for (const [name, y] of p.properties)
      if (!o.properties.has(name) && !y.optional) effects.push(SENDERS);
    // An index signature is a family of optional fields: gaining one breaks nobody, losing one breaks readers.
    const [i, j] = [o.indexSignature, p.indexSignature];
    if (i && j) effects.push(this.types(i.type, j.type));
    else if (i) effects.push(READERS);
    return merge(...effects);
  }

  field(
    x: { optional: boolean; type: TypeExpr },
    y: { optional: boolean; type: TypeExpr },
  ): Effects {
    return merge(this.optionality(x.optional, y.optional), this.types(x.type, y.type));
  }

  /** Required now: builders must set it. Optional now: readers must expect it absent. */
  optionality(before: boolean, after: boolean): Effects {
    return before === after ? NO_EFFECT : after ? READERS : SENDERS;
  }
}
