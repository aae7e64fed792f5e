import { printType } from "./print-ts.js";
import type { LoadedRevision } from "./index.js";
import { hasTag, type Declaration, type ObjectMembers, type TypeExpr } from "./model.js";
import type { MethodInfo } from "./protocol.js";
import { Resolver } from "./resolve.js";

// What changed between two revisions, from their models: what a runtime maintainer reads
// on a spec bump. Each change says whether it breaks code written for the older revision.

export interface Change {
  /** What changed: `method`, `type`, `field`, `union`, `error`, `constant`, `deprecation`, `inputRequest`. */
  kind: string;
  /** The method, type, `Type.field`, union, error or constant it is about. */
  subject: string;
  change: "added" | "removed" | "changed";
  /** What it was and is, in words or TypeScript. */
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

const declaredType = (m: ObjectMembers, name: string) => m.properties.find((p) => p.name === name);

function describeMethod(m: MethodInfo): string {
  return `${m.kind} ${m.directions.join(", ")}`;
}

export function diffRevisions(a: LoadedRevision, b: LoadedRevision): RevisionDiff {
  const changes: Change[] = [];
  const add = (c: Change) => changes.push(c);

  // Methods: presence, directions, params, result, input_required.
  const methodsA = new Map(a.protocol.methods.map((m) => [m.method, m]));
  const methodsB = new Map(b.protocol.methods.map((m) => [m.method, m]));
  for (const [name, m] of methodsA) {
    const n = methodsB.get(name);
    if (!n) {
      add({ kind: "method", subject: name, change: "removed", from: describeMethod(m), breaking: true });
      continue;
    }
    const removedDirections = m.directions.filter((d) => !n.directions.includes(d));
    if (removedDirections.length > 0 || n.directions.some((d) => !m.directions.includes(d))) {
      add({ kind: "method", subject: name, change: "changed", detail: "directions", from: m.directions.join(", "), to: n.directions.join(", "), breaking: removedDirections.length > 0 });
    }
    if (m.params !== n.params) add({ kind: "method", subject: name, change: "changed", detail: "params", from: m.params ?? "none", to: n.params ?? "none", breaking: true });
    if (m.result !== n.result) add({ kind: "method", subject: name, change: "changed", detail: "result", from: m.result ?? "none", to: n.result ?? "none", breaking: true });
    if (m.inputRequired !== n.inputRequired) {
      add({ kind: "method", subject: name, change: "changed", detail: "input_required", from: String(m.inputRequired), to: String(n.inputRequired), breaking: n.inputRequired });
    }
  }
  for (const [name, n] of methodsB) if (!methodsA.has(name)) add({ kind: "method", subject: name, change: "added", to: describeMethod(n), breaking: false });

  const inputA = new Set(a.protocol.inputRequests.map((r) => r.method));
  for (const r of b.protocol.inputRequests) {
    if (!inputA.has(r.method)) add({ kind: "inputRequest", subject: r.method, change: "added", to: `${r.type}, needs client capability ${r.capability?.join(".") ?? "none"}`, breaking: false });
  }

  // Types and their own fields (inherited ones show where they are declared).
  const ra = new Resolver(a.model);
  const rb = new Resolver(b.model);
  const typesA = new Map(a.model.declarations.filter((d) => d.kind !== "const").map((d) => [d.name, d]));
  const typesB = new Map(b.model.declarations.filter((d) => d.kind !== "const").map((d) => [d.name, d]));
  for (const [name, d] of typesA) {
    const e = typesB.get(name);
    if (!e) {
      add({ kind: "type", subject: name, change: "removed", breaking: true });
      continue;
    }
    diffType(d, e, ra, rb, add);
  }
  for (const [name, e] of typesB) {
    if (typesA.has(name)) continue;
    const fields = e.kind === "interface" ? e.members.properties.map((p) => `${p.name}${p.optional ? "?" : ""}`).join(", ") : printType((e as Extract<Declaration, { kind: "alias" }>).type);
    add({ kind: "type", subject: name, change: "added", to: fields, breaking: false });
  }

  // Message unions: members added or removed.
  for (const union of new Set([...Object.keys(a.protocol.unions), ...Object.keys(b.protocol.unions)])) {
    const before = a.protocol.unions[union];
    const after = b.protocol.unions[union];
    if (!after) add({ kind: "union", subject: union, change: "removed", breaking: true });
    else if (!before) add({ kind: "union", subject: union, change: "added", to: after.join(" | "), breaking: false });
    else {
      const removed = before.filter((m) => !after.includes(m));
      const added = after.filter((m) => !before.includes(m));
      if (removed.length > 0 || added.length > 0) {
        add({ kind: "union", subject: union, change: "changed", from: removed.length ? `- ${removed.join(", ")}` : "", to: added.length ? `+ ${added.join(", ")}` : "", breaking: removed.length > 0 });
      }
    }
  }

  // Error codes and constants.
  const errorsA = new Map(a.protocol.errors.map((e) => [e.name, e.code]));
  const errorsB = new Map(b.protocol.errors.map((e) => [e.name, e.code]));
  for (const [name, code] of errorsA) {
    if (!errorsB.has(name)) add({ kind: "error", subject: name, change: "removed", from: String(code), breaking: true });
    else if (errorsB.get(name) !== code) add({ kind: "error", subject: name, change: "changed", from: String(code), to: String(errorsB.get(name)), breaking: true });
  }
  for (const [name, code] of errorsB) if (!errorsA.has(name)) add({ kind: "error", subject: name, change: "added", to: String(code), breaking: false });
  const constA = new Map(a.protocol.constants.map((c) => [c.name, c.value]));
  for (const c of b.protocol.constants) {
    if (errorsB.has(c.name)) continue;
    const before = constA.get(c.name);
    if (before === undefined) add({ kind: "constant", subject: c.name, change: "added", to: JSON.stringify(c.value), breaking: false });
    else if (before !== c.value) add({ kind: "constant", subject: c.name, change: "changed", from: JSON.stringify(before), to: JSON.stringify(c.value), breaking: false });
  }
  return { from: a.revision.name, to: b.revision.name, changes };
}

function diffType(d: Declaration, e: Declaration, ra: Resolver, rb: Resolver, add: (c: Change) => void): void {
  const deprecatedBefore = hasTag(d.doc, "deprecated");
  const deprecatedAfter = hasTag(e.doc, "deprecated");
  if (deprecatedBefore !== deprecatedAfter) add({ kind: "deprecation", subject: e.name, change: deprecatedAfter ? "added" : "removed", breaking: false });
  if (d.kind === "alias" && e.kind === "alias") {
    const before = printType(d.type);
    const after = printType(e.type);
    if (before !== after) add({ kind: "type", subject: e.name, change: "changed", from: before, to: after, breaking: true });
    return;
  }
  if (d.kind !== "interface" || e.kind !== "interface") {
    add({ kind: "type", subject: e.name, change: "changed", from: d.kind, to: e.kind, breaking: true });
    return;
  }
  const basesBefore = d.extends.map(printType);
  const basesAfter = e.extends.map(printType);
  if (basesBefore.join() !== basesAfter.join()) {
    // Fields a new base brings in are what users feel: name the required ones.
    const inherited = (r: Resolver, name: string) => r.objectOf(name)?.properties ?? new Map();
    const gained = [...inherited(rb, e.name).values()].filter((p) => !inherited(ra, d.name).has(p.name) && !declaredType(e.members, p.name));
    const required = gained.filter((p) => !p.optional).map((p) => p.name);
    add({
      kind: "type",
      subject: e.name,
      change: "changed",
      detail: "extends",
      from: basesBefore.join(", ") || "nothing",
      to: basesAfter.join(", ") || "nothing",
      ...(gained.length > 0 ? { detail: `extends; gains ${gained.map((p) => `${p.name}${p.optional ? "?" : ""}`).join(", ")}` } : {}),
      breaking: required.length > 0,
    });
  }
  for (const p of d.members.properties) {
    const q = declaredType(e.members, p.name);
    const subject = `${e.name}.${p.name}`;
    if (!q) {
      add({ kind: "field", subject, change: "removed", from: printType(p.type), breaking: true });
      continue;
    }
    const before = printType(p.type);
    const after = printType(q.type);
    if (before !== after) add({ kind: "field", subject, change: "changed", detail: "type", from: before, to: after, breaking: true });
    if (p.optional !== q.optional) {
      add({ kind: "field", subject, change: "changed", detail: "optionality", from: p.optional ? "optional" : "required", to: q.optional ? "optional" : "required", breaking: !q.optional });
    }
    if (hasTag(p.doc, "deprecated") !== hasTag(q.doc, "deprecated")) {
      add({ kind: "deprecation", subject, change: hasTag(q.doc, "deprecated") ? "added" : "removed", breaking: false });
    }
  }
  for (const q of e.members.properties) {
    if (declaredType(d.members, q.name)) continue;
    add({ kind: "field", subject: `${e.name}.${q.name}`, change: "added", to: `${q.optional ? "optional" : "required"} ${printType(q.type)}`, breaking: !q.optional });
  }
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
    lines.push(`## ${title}`, "");
    for (const c of items) {
      const what =
        c.kind === "inputRequest" ? "input request added" : c.kind === "deprecation" ? (c.change === "added" ? "deprecated" : "no longer deprecated") : c.change;
      const detail = c.detail ? ` (${c.detail})` : "";
      const fromTo = c.from !== undefined && c.to !== undefined ? `: \`${c.from}\` -> \`${c.to}\`` : c.to !== undefined ? `: \`${c.to}\`` : c.from !== undefined ? `: was \`${c.from}\`` : "";
      lines.push(`- ${c.breaking ? "**breaking** " : ""}\`${c.subject}\` ${what}${detail}${fromTo}`);
    }
    lines.push("");
  }
  return lines.join("\n");
}
