import { JSONRPC_ERRORS, McpError } from "../core/errors.js";
import type { Middleware } from "./middleware.js";

// Scopes per tool (and per method) as a middleware: a request whose caller's token lacks one
// is refused before its handler runs. Over HTTP the server answers the refusal as its
// resource server answers its own scope checks (auth/scope-policy.ts): 403 with
// `WWW-Authenticate: Bearer error="insufficient_scope", scope="..."` naming every scope the
// operation needs, so a client steps up once (2026-07-28 basic/authorization, "Scope
// Challenge Handling"). Elsewhere (stdio, in memory) the client gets the JSON-RPC error.

/** A request refused for want of scopes; `scopes`: every scope it needs. */
export class InsufficientScopeError extends McpError {
  readonly scopes: readonly string[];
  constructor(scopes: readonly string[]) {
    // The code the resource server's own 403 carries in its body.
    super(JSONRPC_ERRORS.INVALID_REQUEST, "Forbidden: insufficient scope", { scopes });
    this.name = "InsufficientScopeError";
    this.scopes = scopes;
  }
}

export interface RequireScopesOptions {
  /** Scopes by JSON-RPC method, e.g. `{ "resources/read": ["files:read"] }`. */
  methods?: Readonly<Record<string, readonly string[]>>;
  /** Whether granted scopes satisfy a needed one, for scope hierarchies (default: among them). */
  satisfies?: (granted: readonly string[], needed: string) => boolean;
}

const among = (granted: readonly string[], needed: string) => granted.includes(needed);
const scopesOf = (table: Readonly<Record<string, readonly string[]>> | undefined, key: string) =>
  table !== undefined && Object.hasOwn(table, key) ? table[key]! : [];

/**
 * Refuses a tools/call whose tool is in `tools` (tool name -> scopes), or a request whose
 * method is in `options.methods`, unless the caller's token grants every scope named there
 * (InsufficientScopeError). A caller without a token (no `authInfo`) has no scope.
 */
export function requireScopes(
  tools: Readonly<Record<string, readonly string[]>>,
  options: RequireScopesOptions = {},
): Middleware {
  const satisfies = options.satisfies ?? among;
  return {
    name: "requireScopes",
    before(call) {
      const needed = [
        ...new Set([
          ...scopesOf(options.methods, call.method),
          ...(call.tool ? scopesOf(tools, call.tool.name) : []),
        ]),
      ];
      const granted = call.authInfo?.scopes ?? [];
      if (!needed.every((scope) => satisfies(granted, scope)))
        throw new InsufficientScopeError(needed);
    },
  };
}

/**
 * Error responses that answer an InsufficientScopeError, with the scopes it needs: the HTTP
 * server sends them as a 403 challenge (transport/http/server/answer.ts).
 */
const scopeRefusals = new WeakMap<object, readonly string[]>();

/** Records `reply` as answering `error` when it is an InsufficientScopeError; returns it. */
export function markScopeRefusal<R extends object>(reply: R, error: unknown): R {
  if (error instanceof InsufficientScopeError) scopeRefusals.set(reply, error.scopes);
  return reply;
}

/** The scopes `reply` was refused for (see markScopeRefusal), or undefined. */
export function refusedScopes(reply: unknown): readonly string[] | undefined {
  return typeof reply === "object" && reply !== null ? scopeRefusals.get(reply) : undefined;
}
