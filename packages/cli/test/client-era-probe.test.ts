// The era probe's verdict is kept per transport, but not against the evidence: a modern
// server that is still starting (its first request stalls past probeTimeoutMs) is taken for
// legacy, and the initialize that follows fails (a modern server refuses it). The next call
// then probes again and finds it modern, instead of keeping "legacy" for the transport's life.
import type { Server as HttpServer } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  importDualEraClient,
  listen,
  stop,
  v2ModernHandler,
  type Seen,
} from "./support/dual-era-client.js";

type Any = any;
let client: Any;
let httpClient: Any;

beforeAll(async () => {
  [client, httpClient] = await importDualEraClient(["client.js", "http-client.js"]);
});

describe("a modern server slow to start (v2 SDK 2.4.0, legacy refused)", () => {
  const seen: Seen = [];
  let url: string;
  let server: HttpServer;
  /** Whether the next request stalls (the server is still starting). */
  let starting = true;
  /** Ends the stall of the first request: called by the request after it. */
  let started: (() => void) | undefined;
  // The first request (the probe) stalls until the client has given up on it and sent the
  // next one (initialize): the test needs no guess of how long the probe's timeout takes.
  const v2 = v2ModernHandler(async () => {
    if (started) {
      started();
      started = undefined;
    }
    if (!starting) return;
    starting = false;
    await new Promise<void>((resolve) => (started = resolve));
  });

  beforeAll(async () => {
    ({ url, server } = await listen(v2.handle, seen));
  });
  afterAll(async () => {
    await v2.close();
    await stop(server);
  });

  it("the first call fails on initialize; the next probes again and is served as modern", async () => {
    const c = client.createClient({
      transport: httpClient.createHttpTransport({ url }),
      // Only the second probe must fit in it: generous, so a loaded machine still answers.
      probeTimeoutMs: 2_000,
    });
    // The v2 server refuses initialize (HTTP 400 with a JSON-RPC error).
    await expect(c.listTools()).rejects.toThrow(/the server refused initialize/);
    expect(seen).toEqual(["POST server/discover", "POST initialize"]);
    seen.length = 0;
    const listed = await c.listTools();
    expect(listed.tools.map((t: Any) => t.name)).toEqual(["plain"]);
    expect(await c.era()).toBe("modern");
    expect(seen).toEqual(["POST server/discover", "POST tools/list"]);
    await c.close();
  });
});
