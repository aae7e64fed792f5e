import { hasTag, type TypeExpr } from "./model.js";
import type { Resolver } from "./resolve.js";
import type { Direction, MethodInfo, Side } from "./protocol.js";

export interface CapabilityNode {
  name: string;
  path: string[];
  deprecated: boolean;
  /** Description from the schema's JSDoc. */
  doc: string;
  children: CapabilityNode[];
}

/** The capability tree of `ClientCapabilities` or `ServerCapabilities`; inline objects are walked. */
export function buildCapabilities(r: Resolver, typeName: string): CapabilityNode[] {
  const decl = r.declaration(typeName);
  if (!decl) return [];
  const walk = (type: TypeExpr, path: string[]): CapabilityNode[] => {
    // Named types (JSONObject and the like) are settings values, not further capabilities.
    if (type.kind !== "object" && path.length > 0) return [];
    const obj = r.object(type);
    if (!obj) return [];
    return [...obj.properties.values()].map((p) => ({
      name: p.name,
      path: [...path, p.name],
      deprecated: hasTag(p.doc, "deprecated"),
      doc: p.doc.text,
      children: walk(p.type, [...path, p.name]),
    }));
  };
  return walk({ kind: "ref", name: typeName, loc: decl.loc }, []);
}

/**
 * The schema says in prose, not types, which capability gates a method, so the
 * link is derived by naming convention: a method's first segment (after
 * `notifications/`) names a capability, singular or plural (`tools/call` ->
 * `tools`, `completion/complete` -> `completions`), and a later segment may name
 * a sub-capability (`resources/subscribe` -> `resources.subscribe`,
 * `notifications/tools/list_changed` -> `tools.listChanged`). The capability
 * belongs to the side that serves a request, or that sends a notification.
 * CAPABILITY_EXCEPTIONS holds the few methods whose names do not follow it.
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
): { side: Side; path: string[] } | undefined {
  const senderIsClient = direction === "client->server";
  const side: Side = (kind === "request") === senderIsClient ? "server" : "client";
  const tree = trees[side];
  const exception = CAPABILITY_EXCEPTIONS[method];
  if (exception) return findPath(tree, exception) ? { side, path: exception } : undefined;

  const segments = method.replace(/^notifications\//, "").split("/");
  const [first, ...rest] = segments;
  const top = tree.find((c) => c.name === first || c.name === `${first}s`);
  if (!top) return undefined;
  const path = [top.name];
  let node = top;
  for (const segment of rest) {
    const camel = segment.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
    const child = node.children.find((c) => c.name === camel);
    if (!child) break;
    path.push(child.name);
    node = child;
  }
  return { side, path };
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
