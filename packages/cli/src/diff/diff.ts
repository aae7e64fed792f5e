import type { LoadedRevision } from "../schema/index.js";
import type { CapabilityNode } from "../schema/protocol-model.js";
import type { TypeExpr } from "../schema/model.js";
import type { InputRequestInfo, MethodInfo, Side } from "../schema/protocol.js";
import { Resolver } from "../schema/resolve.js";
import {
  change,
  compare,
  fromTo,
  type Add,
  type DiffContext,
  type RevisionDiff,
} from "./diff-change.js";
import { inputRequestCode, methodCode } from "./diff-code.js";
import {
  BOTH_SIDES,
  breaksOf,
  merge,
  NO_EFFECT,
  READERS,
  SENDERS,
  senderOf,
  ShapeComparer,
  typeSenders,
  UNION_SENDERS,
  type Effects,
} from "./diff-shape.js";
import { diffTypes, findRenames } from "./diff-types.js";

// What changed between two revisions, from their models: what a runtime maintainer reads
// on a spec bump. Each change says whose code it breaks: the side that builds what changed
// or the side that reads it (diff-shape.ts), and for methods what to add or remove in code
// (diff-code.ts). Every category is compared both ways, so the diff from B to A mirrors the
// diff from A to B: what one calls added the other calls removed, with `from` and `to` swapped.

export type { Change, RevisionDiff } from "./diff-change.js";
export type { CodeUpdate } from "./diff-code.js";
export { diffMarkdown } from "./diff-markdown.js";

export function diffRevisions(a: LoadedRevision, b: LoadedRevision): RevisionDiff {
  const renamed = findRenames(a, b);
  const sendersA = typeSenders(a);
  const sendersB = typeSenders(b);
  const ctx: DiffContext = {
    a,
    b,
    renamed,
    shapes: new ShapeComparer(new Resolver(a.model), new Resolver(b.model), renamed),
    senders: (before, after) =>
      new Set([
        ...(before ? (sendersA.get(before) ?? []) : []),
        ...(after ? (sendersB.get(after) ?? []) : []),
      ]),
  };
  const changes: RevisionDiff["changes"] = [];
  const add: Add = (c) => changes.push(c);
  diffMethods(ctx, add);
  diffInputRequests(ctx, add);
  diffTypes(ctx, add);
  diffUnions(ctx, add);
  diffErrorsAndConstants(a, b, add);
  return { from: a.revision.name, to: b.revision.name, changes };
}

function describeMethod(m: MethodInfo): string {
  return `${m.kind} ${m.directions.join(", ")}`;
}

const NOWHERE = { file: "", line: 0, column: 0 };
const ref = (name: string): TypeExpr => ({ kind: "ref", name, loc: NOWHERE });
/** `ListPromptsRequest["params"]` under the request type's new name. */
const renamedRef = (ctx: DiffContext, name: string) =>
  name.replace(/^[A-Za-z_$][\w$]*/, (n) => ctx.renamed.get(n) ?? n);

function diffMethods(ctx: DiffContext, add: Add): void {
  const { a, b } = ctx;
  const methods = (r: LoadedRevision) => new Map(r.protocol.methods.map((m) => [m.method, m]));
  compare(methods(a), methods(b), {
    // Its callers lose their function, its handlers' entry no longer type-checks.
    removed: (name, m) =>
      add(
        change(
          {
            kind: "method",
            subject: name,
            change: "removed",
            from: describeMethod(m),
            code: methodCode(a, m),
          },
          BOTH_SIDES,
        ),
      ),
    // A receiver without a handler answers "method not found", as for any unknown method.
    added: (name, n) =>
      add(
        change({
          kind: "method",
          subject: name,
          change: "added",
          to: describeMethod(n),
          code: methodCode(b, n),
        }),
      ),
    both: (name, m, n) => {
      const removedDirections = m.directions.filter((d) => !n.directions.includes(d));
      if (removedDirections.length > 0 || n.directions.some((d) => !m.directions.includes(d))) {
        const [from, to] = [m.directions.join(", "), n.directions.join(", ")];
        add(
          change(
            { kind: "method", subject: name, change: "changed", detail: "directions", from, to },
            removedDirections.length > 0 ? BOTH_SIDES : [],
          ),
        );
      }
      const callers = new Set([...m.directions, ...n.directions].map(senderOf));
      const answerers = new Set<Side>(
        [...callers].map((s) => (s === "client" ? "server" : "client")),
      );
      diffMessagePart(ctx, name, "params", m, n, callers, add);
      diffMessagePart(ctx, name, "result", m, n, answerers, add);
      if (m.inputRequired !== n.inputRequired) {
        // input_required now: callers read a wider result; no longer: answerers that returned it break.
        const effects = n.inputRequired ? READERS : SENDERS;
        add(
          change(
            {
              kind: "method",
              subject: name,
              change: "changed",
              detail: "input_required",
              from: String(m.inputRequired),
              to: String(n.inputRequired),
            },
            breaksOf(effects, answerers),
          ),
        );
      }
    },
  });
}

/**
 * A method's params or result type, compared by shape: a type only renamed is a change of
 * name in code, not on the wire. `builders` are the sides that build it (callers build params).
 */
function diffMessagePart(
  ctx: DiffContext,
  method: string,
  part: "params" | "result",
  m: MethodInfo,
  n: MethodInfo,
  builders: ReadonlySet<Side>,
  add: Add,
): void {
  const [x, y] = [m[part], n[part]];
  if (x === y) return;
  const base = { kind: "method", subject: method, change: "changed" as const, ...fromTo(x, y) };
  if (x && y && renamedRef(ctx, x) === y) {
    add(change({ ...base, detail: `${part} type renamed` }));
    return;
  }
  // Params are a field of the request type: while that type stays, the type's own diff reports them.
  if (part === "params" && renamedRef(ctx, m.type) === n.type) return;
  const typeOf = (info: MethodInfo, r: Resolver) =>
    part === "params"
      ? r.propertyOf(info.type, "params")?.type
      : info.result
        ? ref(info.result)
        : undefined;
  const [tx, ty] = [typeOf(m, ctx.shapes.before), typeOf(n, ctx.shapes.after)];
  let effects: Effects;
  if (tx && ty) effects = ctx.shapes.types(tx, ty);
  else if (ty) effects = part === "params" && n.paramsOptional ? NO_EFFECT : SENDERS;
  else effects = READERS;
  add(change({ ...base, detail: part }, breaksOf(effects, builders)));
}

const capabilityText = (r: InputRequestInfo) => r.capability?.path.join(".");

function hasCapability(nodes: CapabilityNode[], path: string[]): boolean {
  const [head, ...rest] = path;
  const node = nodes.find((c) => c.name === head);
  return node !== undefined && (rest.length === 0 || hasCapability(node.children, rest));
}

function diffInputRequests(ctx: DiffContext, add: Add): void {
  const { a, b } = ctx;
  const requests = (r: LoadedRevision) =>
    new Map(r.protocol.inputRequests.map((i) => [i.method, i]));
  const server = new Set<Side>(["server"]);
  const client = new Set<Side>(["client"]);
  compare(requests(a), requests(b), {
    // Servers can no longer ask for it; clients' inputHandlers entry no longer type-checks.
    removed: (name, r) =>
      add(
        change(
          {
            kind: "inputRequest",
            subject: name,
            change: "removed",
            from: r.type,
            code: inputRequestCode(r),
          },
          BOTH_SIDES,
        ),
      ),
    // A wider InputRequest breaks clients, unless a capability they could not declare before
    // gates it: "Servers MUST NOT send an inputRequests that the client has not declared
    // support for" (basic/patterns/mrtr.mdx).
    added: (name, r) => {
      const gatedByNew =
        r.capability !== undefined &&
        !hasCapability(a.protocol.capabilities.client, r.capability.path);
      add(
        change(
          {
            kind: "inputRequest",
            subject: name,
            change: "added",
            to: r.type,
            code: inputRequestCode(r),
          },
          gatedByNew ? [] : ["client"],
        ),
      );
    },
    both: (name, r, s) => {
      const base = { kind: "inputRequest", subject: name, change: "changed" as const };
      for (const [part, builders] of [
        ["type", server],
        ["result", client],
      ] as const) {
        const [x, y] = [r[part], s[part]];
        if (x === y) continue;
        if (renamedRef(ctx, x) === y)
          add(change({ ...base, detail: `${part} renamed`, from: x, to: y }));
        else
          add(
            change(
              { ...base, detail: part, from: x, to: y },
              breaksOf(ctx.shapes.types(ref(x), ref(y)), builders),
            ),
          );
      }
      const [before, after] = [capabilityText(r), capabilityText(s)];
      if (before !== after) {
        // Newly gated: servers must check it. No longer gated: clients may be asked unprepared.
        const breaks: Side[] = before && after ? [...BOTH_SIDES] : after ? ["server"] : ["client"];
        add(change({ ...base, detail: "capability", ...fromTo(before, after) }, breaks));
      }
    },
  });
}

/**
 * Members of a message union that a method, an input request or a rename already accounts
 * for: each fact is reported once, where it is about.
 */
function explainedMembers(ctx: DiffContext): Set<string> {
  const out = new Set<string>([...ctx.renamed.keys(), ...ctx.renamed.values()]);
  const note = (m: { type: string; result?: string | undefined }) => (
    out.add(m.type),
    m.result && out.add(m.result)
  );
  const methods = (r: LoadedRevision) => new Map(r.protocol.methods.map((m) => [m.method, m]));
  const inputs = (r: LoadedRevision) => new Map(r.protocol.inputRequests.map((m) => [m.method, m]));
  compare(methods(ctx.a), methods(ctx.b), {
    removed: (_, m) => note(m),
    added: (_, n) => note(n),
    both: (_, m, n) => m.directions.join() !== n.directions.join() && (note(m), note(n)),
  });
  compare(inputs(ctx.a), inputs(ctx.b), { removed: (_, r) => note(r), added: (_, r) => note(r) });
  return out;
}

function diffUnions(ctx: DiffContext, add: Add): void {
  const explained = explainedMembers(ctx);
  compare(
    new Map(Object.entries(ctx.a.protocol.unions)),
    new Map(Object.entries(ctx.b.protocol.unions)),
    {
      removed: (name, members) =>
        add(
          change(
            { kind: "union", subject: name, change: "removed", from: members.join(" | ") },
            BOTH_SIDES,
          ),
        ),
      added: (name, members) =>
        add(change({ kind: "union", subject: name, change: "added", to: members.join(" | ") })),
      both: (name, before, after) => {
        const removed = before.filter((m) => !after.includes(m) && !explained.has(m));
        const added = after.filter((m) => !before.includes(m) && !explained.has(m));
        if (removed.length === 0 && added.length === 0) return;
        // A wider union breaks whoever reads it, a narrower one whoever sends it.
        const effects = merge(
          removed.length > 0 ? SENDERS : NO_EFFECT,
          added.length > 0 ? READERS : NO_EFFECT,
        );
        // `from` holds the members only the older union has, `to` those only the newer has.
        add(
          change(
            {
              kind: "union",
              subject: name,
              change: "changed",
              detail: "members",
              ...fromTo(removed.join(", "), added.join(", ")),
            },
            breaksOf(effects, new Set(UNION_SENDERS[name] ?? BOTH_SIDES)),
          ),
        );
      },
    },
  );
}

function diffErrorsAndConstants(a: LoadedRevision, b: LoadedRevision, add: Add): void {
  // An error code gone or renumbered: servers that raise it and clients that match on it.
  const errors = (r: LoadedRevision) =>
    new Map(r.protocol.errors.map((e) => [e.name, String(e.code)]));
  compare(errors(a), errors(b), {
    removed: (name, code) =>
      add(change({ kind: "error", subject: name, change: "removed", from: code }, BOTH_SIDES)),
    added: (name, code) => add(change({ kind: "error", subject: name, change: "added", to: code })),
    both: (name, x, y) =>
      x !== y &&
      add(change({ kind: "error", subject: name, change: "changed", from: x, to: y }, BOTH_SIDES)),
  });
  // Error codes are constants too; they are reported as errors only (in either revision).
  const isError = (name: string) =>
    a.protocol.errors.some((e) => e.name === name) ||
    b.protocol.errors.some((e) => e.name === name);
  const constants = (r: LoadedRevision) =>
    new Map(
      r.protocol.constants
        .filter((c) => !isError(c.name))
        .map((c) => [c.name, JSON.stringify(c.value)]),
    );
  compare(constants(a), constants(b), {
    removed: (name, value) =>
      add(change({ kind: "constant", subject: name, change: "removed", from: value }, BOTH_SIDES)),
    added: (name, value) =>
      add(change({ kind: "constant", subject: name, change: "added", to: value })),
    // A new value (LATEST_PROTOCOL_VERSION) is read through the constant's name: code still compiles.
    both: (name, x, y) =>
      x !== y &&
      add(change({ kind: "constant", subject: name, change: "changed", from: x, to: y })),
  });
}
