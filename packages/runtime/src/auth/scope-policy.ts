import type { AuthChallenge, Principal } from "./resource-server-types.js";
import { challenge, scopeParam, type ChallengeSettings, type Scheme } from "./www-authenticate.js";

// Which scopes a request needs (those every request needs, its method's, its tool's), and the
// 403 a token without them gets.

/** Whether granted scopes satisfy a needed one (`scopeSatisfies` of the options). */
export type ScopeSatisfies = (granted: readonly string[], needed: string) => boolean;

/** The default `scopeSatisfies`: the needed scope is among the granted ones. */
export const grantedIncludes: ScopeSatisfies = (granted, needed) => granted.includes(needed);

/** Extra scopes by JSON-RPC method and by tool name, as the options give them. */
export interface ExtraScopes {
  readonly methodScopes?: Readonly<Record<string, readonly string[]>> | undefined;
  readonly toolScopes?: Readonly<Record<string, readonly string[]>> | undefined;
}

/**
 * The scopes `message` needs, each once: `required`, then its method's, then (tools/call) its
 * tool's. Own properties only, so a method named `constructor` needs nothing extra.
 */
export function scopesNeeded(
  message: Record<string, unknown>,
  required: readonly string[],
  { methodScopes, toolScopes }: ExtraScopes,
): string[] {
  const method = typeof message["method"] === "string" ? message["method"] : "";
  const params = message["params"];
  const tool =
    method === "tools/call" && typeof params === "object" && params !== null
      ? (params as Record<string, unknown>)["name"]
      : undefined;
  const needed = new Set([
    ...required,
    ...(Object.hasOwn(methodScopes ?? {}, method) ? methodScopes![method]! : []),
    ...(typeof tool === "string" && Object.hasOwn(toolScopes ?? {}, tool)
      ? toolScopes![tool]!
      : []),
  ]);
  return [...needed];
}

/** The 403 for a principal whose scopes do not satisfy every `needed` one; undefined if they do. */
export function insufficientScope(
  settings: ChallengeSettings,
  satisfies: ScopeSatisfies,
  principal: Principal,
  scheme: Scheme,
  needed: readonly string[],
): AuthChallenge | undefined {
  if (needed.every((scope) => satisfies(principal.scopes, scope))) return undefined;
  return scopeChallenge(settings, scheme, needed);
}

/** The 403 `insufficient_scope` challenge naming `needed`. */
export function scopeChallenge(
  settings: ChallengeSettings,
  scheme: Scheme | "any",
  needed: readonly string[],
): AuthChallenge {
  // Every scope the operation needs, in one challenge (2026-07-28 authorization, Scope
  // Challenge Handling), not just the missing ones.
  return challenge(
    settings,
    403,
    "Forbidden: insufficient scope",
    [
      ["error", "insufficient_scope"],
      ...scopeParam(needed),
      ["error_description", "The access token lacks a scope this request needs"],
    ],
    scheme,
  );
}
