// What an HTTP client transport error says: the request that failed (HTTP method, endpoint),
// never the credentials a URL may carry, and in `.body` only what the server sent.
import { describe, expect, it } from "vitest";
import { shownUrl } from "../src/transport/http/client/body.js";
import {
  createHttpTransport,
  HttpTransportError,
  TransportError,
} from "../src/transport/http/client/client.js";
import { PROTOCOL, request } from "./fixture.js";

const SECRET_URL =
  "https://alice:hunter2@mcp.example.com:8443/v1/mcp?access_token=tok-123#frag-456";
const SHOWN = "https://mcp.example.com:8443/v1/mcp";
const SECRETS = ["alice", "hunter2", "tok-123", "access_token", "frag-456"];

/** A fetch answering every request with `body`, `status` and `type`. */
const answering = (status: number, body: string, type: string) =>
  (async () => new Response(body, { status, headers: { "content-type": type } })) as typeof fetch;

async function failure(run: () => Promise<unknown>): Promise<Error> {
  const error = await run().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Error);
  return error as Error;
}

function expectNoSecrets(error: Error) {
  for (const secret of SECRETS) {
    expect(error.message).not.toContain(secret);
    expect(JSON.stringify({ ...error })).not.toContain(secret);
  }
}

describe("HTTP client transport errors name the request, without credentials", () => {
  it("a non-MCP answer: status, method and endpoint in the message; the server's text as body", async () => {
    const transport = createHttpTransport(PROTOCOL, {
      url: SECRET_URL,
      fetch: answering(502, "bad gateway", "text/plain"),
    });
    const error = await failure(() => transport.request(request("ping", 1)));
    expect(error).toBeInstanceOf(HttpTransportError);
    const http = error as HttpTransportError;
    expect(http.message).toBe(`HTTP 502 from POST ${SHOWN}: bad gateway`);
    expect([http.status, http.body, http.httpMethod, http.url]).toEqual([
      502,
      "bad gateway",
      "POST",
      SHOWN,
    ]);
    expectNoSecrets(http);
  });

  it("a notification refused: names the POST", async () => {
    const transport = createHttpTransport(PROTOCOL, {
      url: SECRET_URL,
      fetch: answering(400, "", "text/plain"),
    });
    const error = await failure(() =>
      transport.notify({ jsonrpc: "2.0", method: "notifications/progress" }),
    );
    expect(error.message).toBe(`HTTP 400 from POST ${SHOWN}: (empty body)`);
    expect((error as HttpTransportError).body).toBe("");
    expectNoSecrets(error);
  });

  it("an event stream that ends without the response: the client's words in the message, no body", async () => {
    const stream = `data: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/progress", params: {} })}\n\n`;
    const transport = createHttpTransport(PROTOCOL, {
      url: SECRET_URL,
      fetch: answering(200, stream, "text/event-stream"),
    });
    const error = await failure(() => transport.request(request("ping", 1)));
    expect(error).toBeInstanceOf(HttpTransportError);
    expect(error.message).toBe(
      `HTTP 200 from POST ${SHOWN}: the event stream ended without a response`,
    );
    expect((error as HttpTransportError).body).toBeUndefined();
    expectNoSecrets(error);
  });

  it("a body over the cap: no body kept, the limit in the message", async () => {
    const big = JSON.stringify({ jsonrpc: "2.0", id: 1, result: { pad: "x".repeat(5_000) } });
    const transport = createHttpTransport(PROTOCOL, {
      url: SECRET_URL,
      fetch: answering(200, big, "application/json"),
      maxMessageBytes: 1_000,
    });
    const error = await failure(() => transport.request(request("ping", 1)));
    expect(error.message).toBe(`HTTP 200 from POST ${SHOWN}: response body larger than 1000 bytes`);
    expect((error as HttpTransportError).body).toBeUndefined();
    expectNoSecrets(error);
  });

  it("an unreachable endpoint (a TransportError) is named without credentials too", async () => {
    const refused = (async () => {
      throw new TypeError("fetch failed", { cause: new Error("connect ECONNREFUSED") });
    }) as typeof fetch;
    const transport = createHttpTransport(PROTOCOL, { url: SECRET_URL, fetch: refused });
    const error = await failure(() => transport.request(request("ping", 1)));
    expect(error).toBeInstanceOf(TransportError);
    expect(error.message).toContain(`could not reach ${SHOWN}`);
    expect(error.message).not.toContain("hunter2");
    expect(error.message).not.toContain("tok-123");
  });

  it("shownUrl keeps origin and path, drops userinfo, query and fragment, even of a relative URL", () => {
    expect(shownUrl(new URL(SECRET_URL))).toBe(SHOWN);
    expect(shownUrl("http://127.0.0.1:3000/mcp")).toBe("http://127.0.0.1:3000/mcp");
    expect(shownUrl("/mcp?token=abc#x")).toBe("/mcp");
  });

  it("an error built by hand without a request still reads as before", () => {
    const error = new HttpTransportError(400, "Bad Request");
    expect(error.message).toBe("HTTP 400: Bad Request");
    expect([error.status, error.body, error.httpMethod, error.url]).toEqual([
      400,
      "Bad Request",
      undefined,
      undefined,
    ]);
  });
});
