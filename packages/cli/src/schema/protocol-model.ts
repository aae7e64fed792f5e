import type { Conventions } from "./conventions.js";

// The protocol as mcp-gen derives it from a schema (packages/cli/src/schema/protocol.ts builds it,
// packages/cli/src/schema/capabilities.ts the capability trees in it): types only, so the two builders share
// them without importing each other.

/**
 * How a capability is declared on the wire: `"object"` for one typed as an object (declared
 * with `{}` when it has no settings: `tools: {}`), `"boolean"` for a flag (`listChanged: true`).
 */
export type CapabilityLeaf = "object" | "boolean";

/** A capability: its path into ClientCapabilities or ServerCapabilities, and how it is declared. */
export interface CapabilityRef {
  path: string[];
  leaf: CapabilityLeaf;
}

/** The capability that gates a method, in the capabilities of the side that serves it. */
export interface CapabilityGate extends CapabilityRef {
  side: Side;
}

export interface CapabilityNode {
  name: string;
  path: string[];
  /** How it is declared; null for a setting that is neither an object nor a flag (a string, a number). */
  leaf: CapabilityLeaf | null;
  deprecated: boolean;
  /** Description from the schema's JSDoc. */
  doc: string;
  children: CapabilityNode[];
}

export type Direction = "client->server" | "server->client";
export type Side = "client" | "server";

export interface MethodInfo {
  method: string;
  kind: "request" | "notification";
  directions: Direction[];
  /** The request or notification interface. */
  type: string;
  /** The params type: a declaration name, or `Type["params"]` when declared inline. */
  params: string | undefined;
  paramsOptional: boolean;
  /** Requests only: the result type (`CallToolResult`, or `EmptyResult` when the schema names none). */
  result: string | undefined;
  /** Whether the method may answer `InputRequiredResult` (multi round-trip). */
  inputRequired: boolean;
  /** Per direction, the capability (path into the gating side's tree, and how it is declared) that gates it. */
  capabilities: Partial<Record<Direction, CapabilityGate>>;
  deprecated: string | undefined;
}

export interface InputRequestInfo {
  method: string;
  type: string;
  params: string | undefined;
  paramsOptional: boolean;
  result: string;
  /** The request type's `@deprecated` text (2026-07-28: sampling and roots, SEP-2577). */
  deprecated: string | undefined;
  /** The capability in ClientCapabilities the client must declare before a server may ask. */
  capability: CapabilityRef | undefined;
}

export interface ErrorCodeInfo {
  name: string;
  code: number;
  /** Error types whose `code` is this constant. */
  types: string[];
}

/** The JSON-RPC message shapes, found among the members of `JSONRPCMessage`. */
export interface Envelopes {
  request: string | undefined;
  notification: string | undefined;
  resultResponse: string | undefined;
  errorResponse: string | undefined;
  /** Whether an error response may leave out `id` (for errors about unidentifiable messages). */
  errorIdOptional: boolean;
  /** Whether JSON-RPC batches (arrays of messages) are part of the protocol. */
  batch: boolean;
}

export interface ProtocolModel {
  protocolVersion: string | undefined;
  jsonrpcVersion: string | undefined;
  /** The message unions by name (`ClientRequest`, ...), each with its member type names. */
  unions: Record<string, string[]>;
  methods: MethodInfo[];
  inputRequests: InputRequestInfo[];
  /** `InputRequiredResult` where the revision has multi round-trip requests. */
  inputRequiredResult: string | undefined;
  capabilities: { client: CapabilityNode[]; server: CapabilityNode[] };
  errors: ErrorCodeInfo[];
  envelopes: Envelopes;
  conventions: Conventions;
  constants: { name: string; value: string | number | boolean }[];
}
