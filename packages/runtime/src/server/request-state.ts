import { JSONRPC_ERRORS, McpError } from "../core/errors.js";
import type { FromJsonSchema } from "./json-schema-types.js";
import {
  isStandardSchema,
  standardValidate,
  type StandardInput,
  type StandardOutput,
  type StandardSchemaV1,
} from "./standard-schema.js";
import { quoted } from "./tool-checks.js";
import type { SchemaValidator } from "./tools.js";

// requestState comes back from the client, so it is attacker-controlled: sealed state is
// HMAC-SHA256 signed (Web Crypto), expires, and is bound to the principal and to the
// originating request (its method and a digest of its salient params).

/** One key, or several: the first seals, any of them opens (rotation: put the new key first). */
export type StateSecret = string | Uint8Array | readonly (string | Uint8Array)[];

export interface RequestStateOptions {
  /** The HMAC key (at least 16 bytes; use 32 random bytes), kept server-side; a list during key rotation. */
  secret: StateSecret;
  /** Whose state it is: state sealed for one principal is refused for another. */
  principal?: string | undefined;
  /**
   * The request the state belongs to. `_meta`, `inputResponses` and `requestState` are not
   * part of its digest. Its params may hold no non-finite number (JSON has none: `1e400`
   * parses as Infinity): sealing for such a request, or opening for one, is refused.
   */
  request: { method: string; params?: unknown };
  /** How long the state stays valid, in milliseconds (default 10 minutes). */
  ttlMs?: number;
  /** The current time in milliseconds (default Date.now()). */
  now?: number;
  /** Longest token accepted, in characters (default 65,536): larger ones are refused before any crypto work. */
  maxLength?: number;
}

const STATE_VERSION = 1;
const DEFAULT_MAX_LENGTH = 65_536;
const encoder = new TextEncoder();
const decoder = new TextDecoder();
// Web Crypto's types named through the global value, not the DOM lib's `CryptoKey` and
// `SubtleCrypto`: Node's types alone (no DOM lib) declare `crypto` but not those names.
type Subtle = NonNullable<typeof globalThis.crypto>["subtle"];
type HmacKey = Awaited<ReturnType<Subtle["importKey"]>>;
const hmacKeys = new Map<string, Promise<HmacKey>>();

function subtle(): Subtle {
  const s = globalThis.crypto?.subtle;
  if (!s) throw new Error("Web Crypto (crypto.subtle) is not available");
  return s;
}

function base64url(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]!);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** A copy backed by a plain ArrayBuffer (what Web Crypto takes). */
function plainBytes(source: Uint8Array): Uint8Array<ArrayBuffer> {
  const copy = new Uint8Array(new ArrayBuffer(source.length));
  copy.set(source);
  return copy;
}

function fromBase64url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  try {
    const binary = atob(
      text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4),
    );
    const bytes = new Uint8Array(new ArrayBuffer(binary.length));
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    // Only the canonical spelling: other text with the same bytes (unused low bits of the
    // last character) would let a tampered token through.
    return base64url(bytes) === text ? bytes : undefined;
  } catch {
    return undefined;
  }
}

function secrets(secret: StateSecret): (string | Uint8Array)[] {
  const list = typeof secret === "string" || secret instanceof Uint8Array ? [secret] : [...secret];
  if (list.length === 0) throw new TypeError("the request state secret list is empty");
  return list;
}

function hmacKey(secret: string | Uint8Array): Promise<HmacKey> {
  const bytes = plainBytes(typeof secret === "string" ? encoder.encode(secret) : secret);
  if (bytes.length < 16) throw new TypeError("the request state secret must be at least 16 bytes");
  const id = base64url(bytes);
  let key = hmacKeys.get(id);
  if (!key) {
    if (hmacKeys.size >= 16) hmacKeys.clear();
    key = subtle().importKey("raw", bytes, { name: "HMAC", hash: "SHA-256" }, false, [
      "sign",
      "verify",
    ]);
    hmacKeys.set(id, key);
  }
  return key;
}

/** A value the digest cannot represent faithfully, and where it is (a JSON pointer). */
class Undigestible extends Error {
  constructor(pointer: string) {
    super(`non-finite number at ${pointer}`);
  }
}

const pointerStep = (key: string | number) =>
  `/${String(key).replace(/~/g, "~0").replace(/\//g, "~1")}`;

/**
 * JSON with sorted keys, so equal params digest equally. A non-finite number throws
 * Undigestible: JSON.stringify writes it as `null`, so `{n: 1e400}` (which JSON.parse reads
 * as Infinity) would digest like `{n: null}` and open state sealed for the other.
 */
function canonical(value: unknown, pointer = ""): string {
  if (typeof value === "number" && !Number.isFinite(value)) throw new Undigestible(pointer);
  if (Array.isArray(value))
    return `[${value.map((v, i) => canonical(v, pointer + pointerStep(i))).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record)
      .filter((k) => record[k] !== undefined)
      .sort();
    const members = keys.map(
      (k) => `${JSON.stringify(k)}:${canonical(record[k], pointer + pointerStep(k))}`,
    );
    return `{${members.join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

async function requestDigest(request: { method: string; params?: unknown }): Promise<string> {
  const params =
    typeof request.params === "object" && request.params !== null
      ? (request.params as Record<string, unknown>)
      : {};
  // The digest covers what the request asks, not the round-trip fields that change each round.
  const { _meta, inputResponses, requestState, ...salient } = params;
  const digest = await subtle().digest(
    "SHA-256",
    encoder.encode(canonical({ method: request.method, params: salient })),
  );
  return base64url(new Uint8Array(digest));
}

/**
 * Seals `data` (any JSON value) into an opaque, signed requestState string. Throws an
 * McpError (invalid params) when the request's params hold a non-finite number.
 */
export async function sealRequestState(
  data: unknown,
  options: RequestStateOptions,
): Promise<string> {
  const now = options.now ?? Date.now();
  const payload = {
    v: STATE_VERSION,
    exp: now + (options.ttlMs ?? 600_000),
    sub: options.principal ?? null,
    req: await requestDigest(options.request).catch((error: unknown) => {
      // The params come from the client: refusing them is an invalid-params answer.
      if (!(error instanceof Undigestible)) throw error;
      throw new McpError(
        JSONRPC_ERRORS.INVALID_PARAMS,
        `cannot seal requestState: the request holds a ${error.message}, which JSON cannot carry`,
      );
    }),
    data,
  };
  const body = base64url(encoder.encode(JSON.stringify(payload)));
  const signature = await subtle().sign(
    "HMAC",
    await hmacKey(secrets(options.secret)[0]!),
    encoder.encode(body),
  );
  return `${body}.${base64url(new Uint8Array(signature))}`;
}

/**
 * Opens sealed request state, or throws an McpError (invalid params) when it was tampered
 * with, has expired, belongs to another principal or to another request, or is too large,
 * or when the request's params hold a non-finite number.
 */
export async function openRequestState(
  token: string,
  options: Omit<RequestStateOptions, "ttlMs">,
): Promise<unknown> {
  const reject = (reason: string): never => {
    throw new McpError(JSONRPC_ERRORS.INVALID_PARAMS, `invalid requestState: ${reason}`);
  };
  if (typeof token !== "string") return reject("malformed");
  if (token.length > (options.maxLength ?? DEFAULT_MAX_LENGTH)) return reject("too large");
  const [body, signature, extra] = token.split(".");
  const signatureBytes = signature === undefined ? undefined : fromBase64url(signature);
  const bodyBytes = body === undefined ? undefined : fromBase64url(body);
  if (!body || !signatureBytes || !bodyBytes || extra !== undefined) return reject("malformed");
  let valid = false;
  for (const secret of secrets(options.secret)) {
    if (
      await subtle().verify("HMAC", await hmacKey(secret), signatureBytes, encoder.encode(body))
    ) {
      valid = true;
      break;
    }
  }
  if (!valid) return reject("signature mismatch");
  let payload: { v?: unknown; exp?: unknown; sub?: unknown; req?: unknown; data?: unknown };
  try {
    payload = JSON.parse(decoder.decode(bodyBytes));
  } catch {
    return reject("malformed");
  }
  if (payload.v !== STATE_VERSION || typeof payload.exp !== "number") return reject("malformed");
  if ((options.now ?? Date.now()) > payload.exp) return reject("expired");
  if (payload.sub !== (options.principal ?? null)) return reject("sealed for another principal");
  let digest: string;
  try {
    digest = await requestDigest(options.request);
  } catch (error) {
    if (!(error instanceof Undigestible)) throw error;
    return reject(`the request holds a ${error.message}`);
  }
  if (payload.req !== digest) return reject("sealed for another request");
  return payload.data;
}

/** What sealing for a handler's request needs of its context. */
export interface StateContext {
  readonly principal: string | undefined;
  readonly request: { readonly method: string; readonly params: unknown };
  readonly requestState: string | undefined;
}

/** sealStateFor's options. */
export interface SealStateOptions {
  secret: StateSecret;
  /** How long the state stays valid, in milliseconds (default 10 minutes). */
  ttlMs?: number;
}

/** openStateFor's options. */
export interface OpenStateOptions {
  secret: StateSecret;
  /** Longest token accepted, in characters (default 65,536). */
  maxLength?: number;
}

/**
 * Seals state for the request a handler is answering (its principal and params). With a
 * `schema` (the one openStateFor opens it with), `data` must be of the type it describes; the
 * schema is not run here: opening checks it.
 */
export function sealStateFor<S extends StandardSchemaV1>(
  ctx: StateContext,
  data: StandardInput<S>,
  options: SealStateOptions & { schema: S },
): Promise<string>;
export function sealStateFor<const S extends { readonly [keyword: string]: unknown }>(
  ctx: StateContext,
  data: FromJsonSchema<S>,
  options: SealStateOptions & { schema: S },
): Promise<string>;
export function sealStateFor<Data>(
  ctx: StateContext,
  data: Data,
  options: SealStateOptions,
): Promise<string>;
export function sealStateFor(
  ctx: StateContext,
  data: unknown,
  options: SealStateOptions & { schema?: unknown },
): Promise<string> {
  const { schema: _schema, ...sealing } = options;
  void _schema;
  return sealRequestState(data, { ...sealing, principal: ctx.principal, request: ctx.request });
}

/**
 * Opens the state this retry echoed back, bound to this request; undefined if there is none.
 * With a `schema` (a Standard Schema, or a JSON Schema literal with the `validate` that checks
 * it), the state is checked against it and comes back typed: state of another shape (sealed
 * by an older release of the server, say) is refused as invalid params. Without one it is the
 * type parameter given (default unknown), trusted because only a holder of the secret can
 * seal it.
 */
export function openStateFor<S extends StandardSchemaV1>(
  ctx: StateContext,
  options: OpenStateOptions & { schema: S },
): Promise<StandardOutput<S> | undefined>;
export function openStateFor<const S extends { readonly [keyword: string]: unknown }>(
  ctx: StateContext,
  options: OpenStateOptions & { schema: S; validate: SchemaValidator },
): Promise<FromJsonSchema<S> | undefined>;
export function openStateFor<Data = unknown>(
  ctx: StateContext,
  options: OpenStateOptions,
): Promise<Data | undefined>;
export async function openStateFor(
  ctx: StateContext,
  options: OpenStateOptions & { schema?: unknown; validate?: SchemaValidator },
): Promise<unknown> {
  const { schema, validate, ...opening } = options;
  if (schema !== undefined && !isStandardSchema(schema) && typeof validate !== "function")
    throw new TypeError(
      "openStateFor: a JSON Schema `schema` needs `validate`, the validator that checks it",
    );
  if (ctx.requestState === undefined) return undefined;
  const data = await openRequestState(ctx.requestState, {
    ...opening,
    principal: ctx.principal,
    request: ctx.request,
  });
  if (schema === undefined) return data;
  const checked = isStandardSchema(schema)
    ? await standardValidate(schema, data)
    : { ok: false as const, problems: validate!(schema as object, data) ?? [] };
  if (checked.ok) return checked.value;
  const problems = quoted(checked.problems);
  if (problems === undefined) return data;
  throw new McpError(
    JSONRPC_ERRORS.INVALID_PARAMS,
    `invalid requestState: it does not match its schema: ${problems}`,
  );
}
