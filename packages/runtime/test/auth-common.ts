import type { ServerResponse } from "node:http";
import { expect } from "vitest";
import {
  createOAuthClient,
  headlessRedirect,
  type OAuthClientOptions,
} from "../src/auth/oauth-client.js";
import { createHttpTransport } from "../src/transport/http/client/client.js";
import { PROTOCOL } from "./fixture.js";

// What the OAuth client's tests share, whichever fake they run against (auth-fixture.ts, the
// configurable honest one; auth-hostile-fixture.ts, the one whose routes misbehave): the
// fakes' JSON answers, and the client under test on an HTTP transport.

/** Answers `body` as JSON with `status` (and `headers`). */
export const json = (
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) => {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
};

/** Where the code grant's headless redirect says the user came back (nothing listens there). */
export const REDIRECT = "http://127.0.0.1:9/callback";

/**
 * An OAuth client for `serverUrl` on an HTTP transport (loopback allowed; for the code grant, the
 * default, a headless redirect to REDIRECT); `call` sends one request of `method`. A grant
 * that needs no redirect gets none, so a test of it shows that it needs none.
 */
export function clientOf(serverUrl: string, options: Partial<OAuthClientOptions> = {}) {
  const codeGrant = (options.grant ?? "authorization_code") === "authorization_code";
  const auth = createOAuthClient({
    serverUrl,
    ...(codeGrant ? { redirect: headlessRedirect(REDIRECT) } : {}),
    insecureLoopback: true,
    ...options,
  });
  const transport = createHttpTransport(PROTOCOL, {
    url: serverUrl,
    auth,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  let id = 0;
  const call = (method = "tools/list") =>
    transport.request({ jsonrpc: "2.0", id: ++id, method, params: {} });
  return { auth, call };
}

/** The error a call fails with: it must fail, with an instance of `type`. */
export async function failure(
  promise: Promise<unknown>,
  type: new (...args: never[]) => Error = Error,
): Promise<Error> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(type);
  return error as Error;
}
