import type { ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import {
  AS_PATH,
  PRM_PATH,
  asMetadata,
  hugeJson,
  startPeer,
  type Peer,
} from "./auth-hostile-fixture.js";
import { clientOf, failure } from "./auth-common.js";

// Issue 27, finding 1: what hostile OAuth peers send is read up to a cap. Each document is
// served as 32 MiB, far more than the kernel's socket buffers hold, so a transfer the client
// stops early cannot finish: `served` says whether the client read all of it.

let peer: Peer | undefined;
afterEach(async () => {
  await peer?.close();
  peer = undefined;
});

const HUGE = 32 * 1024 * 1024;

/** Serves `fields` padded to HUGE bytes on `key`, and records whether all of it went out. */
function serveHuge(
  target: Peer,
  key: string,
  fields: (body: string) => Record<string, unknown>,
  options: { status?: number; declareLength?: boolean } = {},
) {
  const served: Promise<boolean>[] = [];
  target.route(key, (_req, res: ServerResponse, body) => {
    served.push(hugeJson(res, fields(body), HUGE, options.status, options.declareLength));
  });
  // Whether each transfer finished, once the client has closed or read it.
  return () => Promise.all(served);
}

describe("the OAuth client's response size cap (maxResponseBytes)", () => {
  it("refuses 32 MiB protected resource metadata, streamed, and stops reading it", async () => {
    peer = await startPeer();
    const base = peer.base;
    const served = serveHuge(peer, `GET ${PRM_PATH}`, () => ({
      resource: `${base}/mcp`,
      authorization_servers: [base],
    }));
    const { call } = clientOf(peer.url);
    expect((await failure(call())).message).toMatch(/exceeds maxResponseBytes \(1048576 bytes\)/);
    expect(await served()).toEqual([false]);
    expect(peer.seen.some((s) => s.url.pathname === AS_PATH)).toBe(false);
  });

  it("refuses authorization server metadata whose Content-Length is over the cap", async () => {
    peer = await startPeer();
    const base = peer.base;
    const served = serveHuge(peer, `GET ${AS_PATH}`, () => asMetadata(base), {
      declareLength: true,
    });
    const { call } = clientOf(peer.url);
    expect((await failure(call())).message).toMatch(/exceeds maxResponseBytes/);
    expect(await served()).toEqual([false]);
    expect(peer.seen.map((s) => s.url.pathname)).not.toContain("/register");
  });

  it("refuses an oversized registration response and token response (through oauth4webapi)", async () => {
    peer = await startPeer();
    const registration = serveHuge(
      peer,
      "POST /register",
      (body) => ({ ...(JSON.parse(body) as object), client_id: "c" }),
      { status: 201 },
    );
    let client = clientOf(peer.url);
    expect((await failure(client.call())).message).toMatch(/exceeds maxResponseBytes/);
    expect(await registration()).toEqual([false]);
    await peer.close();

    peer = await startPeer();
    const token = serveHuge(peer, "POST /token", () => ({
      access_token: "t",
      token_type: "Bearer",
    }));
    client = clientOf(peer.url);
    expect((await failure(client.call())).message).toMatch(/exceeds maxResponseBytes/);
    expect(await token()).toEqual([false]);
    // Nothing from the refused response went to the MCP server.
    expect(peer.seen.filter((s) => s.url.pathname === "/mcp").map((s) => s.authorization)).toEqual([
      undefined,
    ]);
  });

  it("takes another cap from maxResponseBytes", async () => {
    peer = await startPeer();
    const { call } = clientOf(peer.url, { maxResponseBytes: 64 });
    expect((await failure(call())).message).toMatch(/exceeds maxResponseBytes \(64 bytes\)/);
    const roomy = clientOf(peer.url, { maxResponseBytes: 4096 });
    await expect(roomy.call()).resolves.toMatchObject({ result: {} });
    expect(() => clientOf(peer!.url, { maxResponseBytes: 0 })).toThrow(/maxResponseBytes/);
  });
});

describe("the OAuth client's access token cap (maxTokenLength)", () => {
  it("refuses a 100,000-character access token and never sends it", async () => {
    peer = await startPeer();
    const long = "t".repeat(100_000);
    peer.route("POST /token", (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ access_token: long, token_type: "Bearer" }));
    });
    const { call } = clientOf(peer.url);
    expect((await failure(call())).message).toMatch(
      /access token is longer than maxTokenLength \(16384 characters\)/,
    );
    const sent = peer.seen.filter((s) => s.url.pathname === "/mcp").map((s) => s.authorization);
    expect(sent).toEqual([undefined]);
    // A smaller cap refuses the honest server's short tokens too: the option is read.
    const strict = clientOf(peer.url, { maxTokenLength: 4 });
    peer.route("POST /token", (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ access_token: "12345", token_type: "Bearer" }));
    });
    expect((await failure(strict.call())).message).toMatch(/maxTokenLength \(4 characters\)/);
  });
});
