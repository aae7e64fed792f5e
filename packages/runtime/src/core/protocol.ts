import type { ValidationError, ValidationResult } from "./validation.js";

// What the runtime knows about one revision: data, generated from the protocol model into
// protocol.ts. Runtime modules read these facts instead of being generated per revision,
// so a feature a revision lacks is a null here, never code that is left out.

export type Direction = "client->server" | "server->client";

/**
 * A capability: a path into ClientCapabilities or ServerCapabilities, and how it is declared
 * there: with an object (`tools: {}`) or, where the schema types it as a boolean, `true`.
 */
export interface Capability {
  readonly path: readonly string[];
  readonly leaf: "object" | "boolean";
}

/** A capability that gates a method, of the side that serves it (or sends it, for notifications). */
export interface CapabilityGate extends Capability {
  readonly side: "client" | "server";
}

/** One method of the method table (the same shape as `METHODS` in methods.ts). */
export interface MethodEntry {
  readonly kind: "request" | "notification";
  readonly directions: readonly Direction[];
  readonly inputRequired: boolean;
  readonly capabilities: { readonly [D in Direction]?: CapabilityGate };
}

/** A method as methods.ts describes it: the runtime's entry plus its schema types, for tools. */
export interface MethodDescriptor extends MethodEntry {
  /** The request or notification type. */
  readonly type: string;
  readonly params: string | null;
  readonly paramsOptional: boolean;
  /** Requests only: the result type. */
  readonly result: string | null;
  readonly deprecated: boolean;
}

/** Keys of a request's `params._meta` by role; null where the revision has no such key. */
export interface RequestMetaKeys {
  readonly protocolVersion: string | null;
  readonly clientCapabilities: string | null;
  readonly clientInfo: string | null;
  readonly logLevel: string | null;
  readonly progressToken: string | null;
}

export interface ProtocolDescriptor {
  readonly revision: string;
  /** The schema's LATEST_PROTOCOL_VERSION. */
  readonly protocolVersion: string | null;
  readonly methods: { readonly [method: string]: MethodEntry };
  /** Requests a server embeds in an input_required result, with the client capability each needs. */
  readonly inputRequests: {
    readonly [method: string]: { readonly capability: Capability | null };
  };
  readonly requestMeta: RequestMetaKeys;
  /** The key of a result's `_meta` that carries server info. */
  readonly serverInfoKey: string | null;
  /** LoggingLevel, least severe first. */
  readonly loggingLevels: readonly string[];
  /** Whether results carry `resultType`, and whether it is required. */
  readonly resultType: boolean;
  readonly resultTypeRequired: boolean;
  /** Whether error responses may leave out `id`, and whether JSON-RPC batches exist. */
  readonly errorIdOptional: boolean;
  readonly batch: boolean;
  /** Methods the runtime serves or sends by itself, where the revision has them. */
  readonly wellKnown: {
    readonly ping: string | null;
    readonly discover: string | null;
    readonly cancelled: string | null;
    readonly progress: string | null;
    readonly log: string | null;
    readonly toolsCall: string | null;
    readonly toolsList: string | null;
    /** The long-lived request: no timeout by default (basic/patterns/subscriptions). */
    readonly subscriptionsListen: string | null;
    /** Its results carry at most 100 values (server/utilities/completion, "Completion Results"). */
    readonly complete: string | null;
  };
  readonly errorCodes: {
    readonly unsupportedProtocolVersion: number | null;
    readonly missingClientCapability: number | null;
    readonly headerMismatch: number | null;
  };
  /** Features derived from the facts above, named for the runtime's decisions. */
  readonly features: {
    /** Multi round-trip: input_required results answered by retries with inputResponses. */
    readonly mrtr: boolean;
    /** Requests carry their protocol version in `_meta` and it is checked (stateless revisions). */
    readonly perRequestVersion: boolean;
    /** Mcp-Param-* headers mirror annotated tool arguments (stateless Streamable HTTP). */
    readonly toolHeaders: boolean;
    /** The server/discover result declares the caching hints `ttlMs` and `cacheScope`. */
    readonly discoverCacheHints: boolean;
  };
  /**
   * Methods and input requests the revision deprecates, with the schema's `@deprecated` text
   * (2026-07-28: sampling and roots, SEP-2577); absent where it deprecates none. Using one
   * warns once per process (core/deprecation.ts).
   */
  readonly deprecated?: { readonly [method: string]: string };
  /** Streamable HTTP routing headers (transport spec facts, not schema facts). */
  readonly http: {
    readonly versionHeader: string;
    readonly methodHeader: string;
    readonly nameHeader: string;
    /** For methods acting on a named thing, the param that names it. */
    readonly nameParams: { readonly [method: string]: string };
    /** JSON-RPC error codes answered with HTTP 400. */
    readonly badRequestCodes: readonly number[];
  };
}

/** One problem found by a validator: an RFC 6901 pointer into the value and what is wrong there. */
export type { ValidationError, ValidationResult };

/** The validators the runtime needs, bound by the generated modules to the revision's own. */
export interface MessageValidators {
  classifyMessage(
    value: unknown,
  ): { kind: "request" | "notification" | "result" | "error" } | undefined;
  isRequestId(value: unknown): boolean;
  /** `firstError`: stop at the first error (cheaper on invalid input; the same first error). */
  validateRequestMessage(
    value: unknown,
    direction: Direction,
    options?: { firstError?: boolean },
  ): ValidationResult<unknown>;
  validateNotificationMessage(
    value: unknown,
    direction: Direction,
    options?: { firstError?: boolean },
  ): ValidationResult<unknown>;
  validateMethodResult(method: string, value: unknown): ValidationResult<unknown>;
  /** Revisions with multi round-trip only. */
  validateInputResult: ((method: string, value: unknown) => ValidationResult<unknown>) | null;
  validateInputRequiredResult: ((value: unknown) => ValidationResult<unknown>) | null;
}

/** An own property of a plain record (never one inherited from Object.prototype). */
export function own<V>(record: { readonly [key: string]: V }, key: string): V | undefined {
  return Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Whether a message carries the modern per-request protocol version in `params._meta`. */
export function carriesModernMeta(
  protocol: ProtocolDescriptor,
  message: Record<string, unknown>,
): boolean {
  const key = protocol.requestMeta.protocolVersion;
  const params = isObject(message["params"]) ? message["params"] : {};
  const meta = isObject(params["_meta"]) ? params["_meta"] : {};
  return key !== null && own(meta, key) !== undefined;
}

/**
 * Server capabilities implied by handlers: a handler for any method a server capability gates
 * (in `direction`) declares that capability, at its path and as the schema types it
 * (`tools/validate` gated by a boolean `tools.validate`: `{ tools: { validate: true } }`).
 */
export function capabilitiesOf(
  methods: { readonly [method: string]: MethodEntry },
  handlers: { readonly [method: string]: unknown },
  direction: Direction,
): Record<string, object> {
  let capabilities: Record<string, unknown> = {};
  for (const [method, entry] of Object.entries(methods)) {
    const gate = entry.capabilities[direction];
    if (own(handlers, method) && gate?.side === "server" && gate.path.length > 0)
      capabilities = mergeCapabilities(capabilities, capabilityObject(gate.path, gate.leaf));
  }
  return capabilities as Record<string, object>;
}

/**
 * The capabilities object declaring just the capability at `path`, as the schema types it:
 * ["sampling", "tools"] -> { sampling: { tools: {} } }; a boolean one, ["tools", "validate"]
 * -> { tools: { validate: true } }.
 */
export function capabilityObject(
  path: readonly string[],
  leaf: Capability["leaf"] = "object",
): Record<string, unknown> {
  let value: unknown = leaf === "boolean" ? true : {};
  for (let i = path.length - 1; i >= 0; i--) value = { [path[i]!]: value };
  return isObject(value) ? value : {};
}

/**
 * `declared` laid over `derived`: objects merged key by key at every depth, anything else in
 * `declared` wins. So `{ logging: {} }` adds what no handler implies (a server that logs MUST
 * declare it, 2026-07-28 server/utilities/logging), `{ tools: { listChanged: true } }` adds to
 * a derived `tools: { validate: true }` without listing the rest, and `validate: false`
 * withdraws it.
 */
export function mergeCapabilities(
  derived: Record<string, unknown>,
  declared: object | undefined,
): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...derived };
  for (const [key, value] of Object.entries(declared ?? {})) {
    const base = own(merged, key);
    merged[key] = isObject(base) && isObject(value) ? mergeCapabilities(base, value) : value;
  }
  return merged;
}
