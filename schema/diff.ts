import type { LoadedRevision } from "./index.js";
import { hasTag, type Declaration, type ObjectMembers, type Property, type TypeExpr } from "./model.js";
import type { InputRequestInfo, MethodInfo } from "./protocol.js";
import { prettierKey as propertyKey } from "../generators/printer.js";
import { Resolver } from "./resolve.js";

// What changed between two revisions, from their models: what a runtime maintainer reads
// on a spec bump. Each change says whether it breaks code written for the older revision.
// Every category is compared both ways, so the diff from B to A mirrors the diff from A to
// B: what one calls added the other calls removed, with `from` and `to` swapped.

export interface Change {
  /** What changed: `method`, `type`, `field`, `union`, `error`, `constant`, `deprecation`, `inputRequest`. */
  kind: string;
  /** The method, type, `Type.field`, union, error or constant it is about. */
  subject: string;
  change: "added" | "removed" | "changed";
  /** What it was and is, in words or TypeScript (one line, no docs); absent where there was or is none. */
  from?: string;
  to?: string;
  detail?: string;
  breaking: boolean;
}

export interface RevisionDiff {
  from: string;
  to: string;
  changes: Change[];
}

type Add = (c: Change) => void;

/** `from`/`to` only where there is something: no "none" or "nothing" placeholders. */
function fromTo(from: string | undefined, to: string | undefined): Pick<Change, "from" | "to"> {
  return { ...(from ? { from } : {}), ...(to ? { to } : {}) };
}

/** Compares two keyed collections both ways: removed, changed (both present), added. */
function compare<T>(a: ReadonlyMap<string, T>, b: ReadonlyMap<string, T>, on: { removed: (name: string, x: T) => void; added: (name: string, y: T) => void; both?: (name: string, x: T, y: T) => void }): void {
  for (const [name, x] of a) {
    const y = b.get(name);
    if (y === undefined) on.removed(name, x);
    else on.both?.(name, x, y);
  }
  for (const [name, y] of b) if (!a.has(name)) on.added(name, y);
}

export function diffRevisions(a: LoadedRevision, b: LoadedRevision): RevisionDiff {
  const changes: Change[] = [];
  const add: Add = (c) => changes.push(c);
  diffMethods(a, b, add);
  diffInputRequests(a.protocol.inputRequests, b.protocol.inputRequests, add);
  diffTypes(a, b, add);
  diffUnions(a.protocol.unions, b.protocol.unions, add);
  diffErrorsAndConstants(a, b, add);
  return { from: a.revision.name, to: b.revision.name, changes };
}

function describeMethod(m: MethodInfo): string {
  return `${m.kind} ${m.directions.join(", ")}`;
}

function diffMethods(a: LoadedRevision, b: LoadedRevision, add: Add): void {
  compare(new Map(a.protocol.methods.map((m) => [m.method, m])), new Map(b.protocol.methods.map((m) => [m.method, m])), {
    removed: (name, m) => add({ kind: "method", subject: name, change: "removed", from: describeMethod(m), breaking: true }),
    added: (name, n) => add({ kind: "method", subject: name, change: "added", to: describeMethod(n), breaking: false }),
    both: (name, m, n) => {
      const removedDirections = m.directions.filter((d) => !n.directions.includes(d));
      if (removedDirections.length > 0 || n.directions.some((d) => !m.directions.includes(d))) {
        add({ kind: "method", subject: name, change: "changed", detail: "directions", from: m.directions.join(", "), to: n.directions.join(", "), breaking: removedDirections.length > 0 });
      }
      if (m.params !== n.params) add({ kind: "method", subject: name, change: "changed", detail: "params", ...fromTo(m.params, n.params), breaking: true });
      if (m.result !== n.result) add({ kind: "method", subject: name, change: "changed", detail: "result", ...fromTo(m.result, n.result), breaking: true });
      if (m.inputRequired !== n.inputRequired) {
        add({ kind: "method", subject: name, change: "changed", detail: "input_required", from: String(m.inputRequired), to: String(n.inputRequired), breaking: n.inputRequired });
      }
    },
  });
}

function describeInputRequest(r: InputRequestInfo): string {
  return r.capability ? `${r.type}, needs client capability ${r.capability.join(".")}` : r.type;
}

function diffInputRequests(a: InputRequestInfo[], b: InputRequestInfo[], add: Add): void {
  compare(new Map(a.map((r) => [r.method, r])), new Map(b.map((r) => [r.method, r])), {
    // A server that relied on asking for it can no longer.
    removed: (name, r) => add({ kind: "inputRequest", subject: name, change: "removed", from: describeInputRequest(r), breaking: true }),
    added: (name, r) => add({ kind: "inputRequest", subject: name, change: "added", to: describeInputRequest(r), breaking: false }),
    both: (name, r, s) => {
      const before = describeInputRequest(r);
      const after = describeInputRequest(s);
      if (before !== after) add({ kind: "inputRequest", subject: name, change: "changed", from: before, to: after, breaking: true });
    },
  });
}

/** A type on one line, without docs: how the diff shows types. */
export function inlineType(t: TypeExpr): string {
  const wrap = (u: TypeExpr, kinds: TypeExpr["kind"][]) => (kinds.includes(u.kind) ? `(${inlineType(u)})` : inlineType(u));
  switch (t.kind) {
    case "keyword":
      return t.name;
    case "literal":
      return typeof t.value === "string" ? JSON.stringify(t.value) : String(t.value);
    case "typeof":
      return `typeof ${t.name}`;
    case "ref":
      return t.name;
    case "array":
      return `${wrap(t.element, ["union", "intersection"])}[]`;
    case "object":
      return inlineMembers(t.members);
    case "union":
      return t.members.map((m) => inlineType(m)).join(" | ");
    case "intersection":
      return t.members.map((m) => wrap(m, ["union"])).join(" & ");
    case "omit":
      return `Omit<${inlineType(t.base)}, ${t.keys.map((k) => JSON.stringify(k)).join(" | ")}>`;
    case "record":
      return `Record<${inlineType(t.key)}, ${inlineType(t.value)}>`;
  }
}

function inlineMembers(m: ObjectMembers): string {
  const parts = m.properties.map((p) => `${propertyKey(p.name)}${p.optional ? "?" : ""}: ${inlineType(p.type)}`);
  if (m.indexSignature) parts.push(`[${m.indexSignature.keyName}: ${m.indexSignature.keyType}]: ${inlineType(m.indexSignature.type)}`);
  return parts.length === 0 ? "{}" : `{ ${parts.join("; ")} }`;
}

/** A declaration in a few words: an interface's fields, an alias's type. */
function describeType(d: Declaration): string {
  if (d.kind === "interface") {
    const index = d.members.indexSignature;
    const names = d.members.properties.map((p) => `${p.name}${p.optional ? "?" : ""}`);
    return [...names, ...(index ? [`[${index.keyName}: ${index.keyType}]: ${inlineType(index.type)}`] : [])].join(", ");
  }
  return d.kind === "alias" ? inlineType(d.type) : "";
}

const describeField = (p: Property) => `${p.optional ? "optional" : "required"} ${inlineType(p.type)}`;

function diffTypes(a: LoadedRevision, b: LoadedRevision, add: Add): void {
  const types = (r: LoadedRevision) => new Map(r.model.declarations.filter((d) => d.kind !== "const").map((d) => [d.name, d]));
  const resolvers = { a: new Resolver(a.model), b: new Resolver(b.model) };
  compare(types(a), types(b), {
    removed: (name, d) => add({ kind: "type", subject: name, change: "removed", ...fromTo(describeType(d), undefined), breaking: true }),
    added: (name, e) => add({ kind: "type", subject: name, change: "added", ...fromTo(undefined, describeType(e)), breaking: false }),
    both: (_name, d, e) => diffType(d, e, resolvers, add),
  });
}

function diffType(d: Declaration, e: Declaration, r: { a: Resolver; b: Resolver }, add: Add): void {
  const deprecatedAfter = hasTag(e.doc, "deprecated");
  if (hasTag(d.doc, "deprecated") !== deprecatedAfter) add({ kind: "deprecation", subject: e.name, change: deprecatedAfter ? "added" : "removed", breaking: false });
  if (d.kind === "alias" && e.kind === "alias") {
    const before = inlineType(d.type);
    const after = inlineType(e.type);
    if (before !== after) add({ kind: "type", subject: e.name, change: "changed", from: before, to: after, breaking: true });
    return;
  }
  if (d.kind !== "interface" || e.kind !== "interface") {
    add({ kind: "type", subject: e.name, change: "changed", from: d.kind, to: e.kind, breaking: true });
    return;
  }
  const basesBefore = d.extends.map(inlineType).join(", ");
  const basesAfter = e.extends.map(inlineType).join(", ");
  if (basesBefore !== basesAfter) {
    // The fields a base brings in or takes away are what users feel: name them.
    const inherited = (resolver: Resolver, name: string) => resolver.objectOf(name)?.properties ?? new Map<string, { name: string; optional: boolean }>();
    const own = (m: ObjectMembers, name: string) => m.properties.some((p) => p.name === name);
    const before = inherited(r.a, d.name);
    const after = inherited(r.b, e.name);
    const gained = [...after.values()].filter((p) => !before.has(p.name) && !own(e.members, p.name));
    const lost = [...before.values()].filter((p) => !after.has(p.name) && !own(d.members, p.name));
    const names = (ps: { name: string; optional: boolean }[]) => ps.map((p) => `${p.name}${p.optional ? "?" : ""}`).join(", ");
    const detail = ["extends", gained.length ? `gains ${names(gained)}` : "", lost.length ? `loses ${names(lost)}` : ""].filter(Boolean).join("; ");
    add({ kind: "type", subject: e.name, change: "changed", detail, ...fromTo(basesBefore, basesAfter), breaking: lost.length > 0 || gained.some((p) => !p.optional) });
  }
  const fields = (m: ObjectMembers) => new Map(m.properties.map((p) => [p.name, p]));
  compare(fields(d.members), fields(e.members), {
    removed: (name, p) => add({ kind: "field", subject: `${e.name}.${name}`, change: "removed", from: describeField(p), breaking: true }),
    added: (name, q) => add({ kind: "field", subject: `${e.name}.${name}`, change: "added", to: describeField(q), breaking: !q.optional }),
    both: (name, p, q) => {
      const subject = `${e.name}.${name}`;
      const before = inlineType(p.type);
      const after = inlineType(q.type);
      if (before !== after) add({ kind: "field", subject, change: "changed", detail: "type", from: before, to: after, breaking: true });
      if (p.optional !== q.optional) {
        add({ kind: "field", subject, change: "changed", detail: "optionality", from: p.optional ? "optional" : "required", to: q.optional ? "optional" : "required", breaking: !q.optional });
      }
      if (hasTag(p.doc, "deprecated") !== hasTag(q.doc, "deprecated")) {
        add({ kind: "deprecation", subject, change: hasTag(q.doc, "deprecated") ? "added" : "removed", breaking: false });
      }
    },
  });
}

function diffUnions(a: Record<string, string[]>, b: Record<string, string[]>, add: Add): void {
  compare(new Map(Object.entries(a)), new Map(Object.entries(b)), {
    removed: (name, members) => add({ kind: "union", subject: name, change: "removed", from: members.join(" | "), breaking: true }),
    added: (name, members) => add({ kind: "union", subject: name, change: "added", to: members.join(" | "), breaking: false }),
    both: (name, before, after) => {
      const removed = before.filter((m) => !after.includes(m));
      const added = after.filter((m) => !before.includes(m));
      // `from` holds the members only the older union has, `to` those only the newer has.
      if (removed.length > 0 || added.length > 0) {
        add({ kind: "union", subject: name, change: "changed", detail: "members", ...fromTo(removed.join(", "), added.join(", ")), breaking: removed.length > 0 });
      }
    },
  });
}

function diffErrorsAndConstants(a: LoadedRevision, b: LoadedRevision, add: Add): void {
  const errors = (r: LoadedRevision) => new Map(r.protocol.errors.map((e) => [e.name, String(e.code)]));
  compare(errors(a), errors(b), {
    removed: (name, code) => add({ kind: "error", subject: name, change: "removed", from: code, breaking: true }),
    added: (name, code) => add({ kind: "error", subject: name, change: "added", to: code, breaking: false }),
    both: (name, x, y) => x !== y && add({ kind: "error", subject: name, change: "changed", from: x, to: y, breaking: true }),
  });
  // Error codes are constants too; they are reported as errors only (in either revision).
  const isError = (name: string) => a.protocol.errors.some((e) => e.name === name) || b.protocol.errors.some((e) => e.name === name);
  const constants = (r: LoadedRevision) => new Map(r.protocol.constants.filter((c) => !isError(c.name)).map((c) => [c.name, JSON.stringify(c.value)]));
  compare(constants(a), constants(b), {
    removed: (name, value) => add({ kind: "constant", subject: name, change: "removed", from: value, breaking: true }),
    added: (name, value) => add({ kind: "constant", subject: name, change: "added", to: value, breaking: false }),
    both: (name, x, y) => x !== y && add({ kind: "constant", subject: name, change: "changed", from: x, to: y, breaking: false }),
  });
}

const code = (text: string) => `\`${text.replace(/`/g, "'")}\``;

/** One change as a Markdown list item: types on one line in backticks, words outside them. */
function describeChange(c: Change): string {
  const subject = code(c.subject);
  const mark = c.breaking ? "**breaking** " : "";
  if (c.kind === "deprecation") return `- ${mark}${subject} ${c.change === "added" ? "deprecated" : "no longer deprecated"}`;
  const what = c.kind === "inputRequest" ? `input request ${c.change}` : c.change;
  const detail = c.detail ? ` (${c.detail})` : "";
  let values = "";
  if (c.detail?.startsWith("extends")) {
    values = c.from && c.to ? `: ${code(c.from)} -> ${code(c.to)}` : c.to ? `: now extends ${code(c.to)}` : c.from ? `: no longer extends ${code(c.from)}` : "";
  } else if (c.kind === "union" && c.change === "changed") {
    values = `: ${[c.from ? `without ${code(c.from)}` : "", c.to ? `with ${code(c.to)}` : ""].filter(Boolean).join(", ")}`;
  } else if (c.from && c.to) values = `: ${code(c.from)} -> ${code(c.to)}`;
  else if (c.to) values = c.change === "added" ? `: ${code(c.to)}` : `: now ${code(c.to)}, none before`;
  else if (c.from) values = c.change === "removed" ? `: was ${code(c.from)}` : `: was ${code(c.from)}, none now`;
  return `- ${mark}${subject} ${what}${detail}${values}`;
}

/** The diff as Markdown: breaking changes first, then by kind. */
export function diffMarkdown(diff: RevisionDiff): string {
  const lines = [`# MCP schema ${diff.from} -> ${diff.to}`, ""];
  const breaking = diff.changes.filter((c) => c.breaking).length;
  lines.push(`${diff.changes.length} changes, ${breaking} breaking.`, "");
  const sections: [string, (c: Change) => boolean][] = [
    ["Methods", (c) => c.kind === "method" || c.kind === "inputRequest"],
    ["Types", (c) => c.kind === "type"],
    ["Fields", (c) => c.kind === "field"],
    ["Message unions", (c) => c.kind === "union"],
    ["Error codes", (c) => c.kind === "error"],
    ["Constants", (c) => c.kind === "constant"],
    ["Deprecations", (c) => c.kind === "deprecation"],
  ];
  for (const [title, pick] of sections) {
    const items = diff.changes.filter(pick).sort((x, y) => Number(y.breaking) - Number(x.breaking));
    if (items.length === 0) continue;
    lines.push(`## ${title}`, "", ...items.map(describeChange), "");
  }
  return lines.join("\n");
}
