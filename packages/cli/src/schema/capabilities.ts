import { hasTag, type TypeExpr } from "./model.js";
import type { Resolver } from "./resolve.js";
import type {
  CapabilityGate,
  CapabilityLeaf,
  CapabilityNode,
  Direction,
  MethodInfo,
  Side,
} from "./protocol-model.js";

/**
 * The capability tree of `ClientCapabilities` or `ServerCapabilities`. Inline objects are
 * walked, and so are named object types that declare properties (a draft may move
 * `tools: { ... }` into `interface ToolsCapability`); JSONObject and the like declare none,
 * so they are settings values, not further capabilities.
 */
export function buildCapabilities(r: Resolver, typeName: string): CapabilityNode[] {
  const decl = r.declaration(typeName);
  if (!decl) return [];
  const walk = (type: TypeExpr, path: string[], named: ReadonlySet<string>): CapabilityNode[] => {
    // A named type already being walked on this path (a recursive type) has no new capabilities.
    if (type.kind === "ref" && named.has(type.name)) return [];
    const obj = r.object(type);
    if (!obj) return [];
    const inner = type.kind === "ref" ? new Set([...named, type.name]) : named;
    return [...obj.properties.values()].map((p) => ({
      name: p.name,
      path: [...path, p.name],
      leaf: leafOf(r, p.type),
      deprecated: hasTag(p.doc, "deprecated"),
      doc: p.doc.text,
      children: walk(p.type, [...path, p.name], inner),
    }));
  };
  return walk({ kind: "ref", name: typeName, loc: decl.loc }, [], new Set());
}

/** Object-typed (or admitting an object) declares with an object; else a flag admitting `true`; else a setting. */
function leafOf(r: Resolver, type: TypeExpr): CapabilityLeaf | null {
  const members = alternatives(r, type);
  const admitsObject = members.some((m) =>
    m.kind === "keyword"
      ? ["object", "unknown", "any"].includes(m.name)
      : m.kind !== "array" && r.object(m) !== undefined,
  );
  if (admitsObject) return "object";
  const admitsTrue = members.some(
    (m) => (m.kind === "keyword" && m.name === "boolean") || r.literal(m) === true,
  );
  return admitsTrue ? "boolean" : null;
}

/** A type's union members, through aliases (`type Flag = boolean` is `boolean`). */
function alternatives(r: Resolver, type: TypeExpr): TypeExpr[] {
  return r.unionMembers(type).flatMap((m) => {
    const d = m.kind === "ref" ? r.declaration(m.name) : undefined;
    return d?.kind === "alias" && d.type.kind !== "object" ? alternatives(r, d.type) : [m];
  });
}

/**
 * The schema says in prose, not types, which capability gates a method, so the
 * link is derived by naming convention: a method's first segment (after
 * `notifications/`) names a capability, singular or plural (`tools/call` ->
 * `tools`, `completion/complete` -> `completions`), and a later segment may name
 * a sub-capability (`resources/subscribe` -> `resources.subscribe`,
 * `notifications/tools/list_changed` -> `tools.listChanged`). The capability
 * belongs to the side that serves a request, or that sends a notification.
 * Only objects and flags gate (a setting such as a number is not declared to
 * offer something). CAPABILITY_EXCEPTIONS holds the few methods whose names do
 * not follow it.
 */
export const CAPABILITY_EXCEPTIONS: Record<string, string[]> = {
  // Log messages are named after the message, not the capability.
  "notifications/message": ["logging"],
  // Update notifications follow a subscription, not a capability called `updated`.
  "notifications/resources/updated": ["resources", "subscribe"],
  "resources/unsubscribe": ["resources", "subscribe"],
};

export function gatingCapability(
  method: string,
  kind: MethodInfo["kind"],
  direction: Direction,
  trees: Record<Side, CapabilityNode[]>,
): CapabilityGate | undefined {
  const senderIsClient = direction === "client->server";
  const side: Side = (kind === "request") === senderIsClient ? "server" : "client";
  const tree = trees[side];
  // Own keys only: a method named `constructor` or `__proto__` is not an exception.
  const exception = Object.hasOwn(CAPABILITY_EXCEPTIONS, method)
    ? CAPABILITY_EXCEPTIONS[method]
    : undefined;
  if (exception) {
    const leaf = findPath(tree, exception)?.leaf;
    return leaf ? { side, path: exception, leaf } : undefined;
  }

  const segments = method.replace(/^notifications\//, "").split("/");
  const [first, ...rest] = segments;
  const top = tree.find((c) => c.leaf !== null && (c.name === first || c.name === `${first}s`));
  if (!top?.leaf) return undefined;
  const path = [top.name];
  let node = top;
  let leaf = top.leaf;
  for (const segment of rest) {
    const camel = segment.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
    const child = node.children.find((c) => c.name === camel);
    if (!child?.leaf) break;
    path.push(child.name);
    node = child;
    leaf = child.leaf;
  }
  return { side, path, leaf };
}

function findPath(tree: CapabilityNode[], path: string[]): CapabilityNode | undefined {
  let nodes = tree;
  let found: CapabilityNode | undefined;
  for (const name of path) {
    found = nodes.find((c) => c.name === name);
    if (!found) return undefined;
    nodes = found.children;
  }
  return found;
}
