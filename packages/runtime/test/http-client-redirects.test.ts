// Redirects of MCP requests (issue 27, "cross-origin redirects followed"): fetch's own
// following sent a tool call's body and its DPoP header to whatever origin a server named, and
// took that origin's answer as the server's. Two real servers on loopback, on two ports (two
// origins): what reaches each, through the client's fetch and the generated transport.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { guardedFetch, MAX_REDIRECTS } from "../src/transport/http/client/client-endpoint.js";
import { TransportError } from "../src/core/transport-error.js";

interface Seen {
  method: string;
  url: string;
  body: string;
  dpop: string | undefined;
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/** A server on 127.0.0.1 that records each request and answers with `answer`. */
async function serve(
  answer: (req: IncomingMessage, res: ServerResponse, base: string) => void,
): Promise<{ base: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  let base = "";
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => {
      const dpop = req.headers["dpop"];
      seen.push({ method: req.method!, url: req.url!, body, dpop: dpop as string | undefined });
      answer(req, res, base);
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, seen };
}

const CALL = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"secret"}}';
const post = (fetchImpl: typeof fetch, url: string) =>
  fetchImpl(url, {
    method: "POST",
    headers: { "content-type": "application/json", dpop: "proof" },
    body: CALL,
  });

describe("MCP requests and redirects", () => {
  it("a redirect to another origin is refused: the other origin receives nothing", async () => {
    const other = await serve((_req, res) => res.writeHead(200).end('{"stolen":true}'));
    const mcp = await serve((_req, res) =>
      res.writeHead(307, { location: `${other.base}/collect` }).end(),
    );
    const fetchImpl = guardedFetch(globalThis.fetch, `${mcp.base}/mcp`);
    const refused = await post(fetchImpl, `${mcp.base}/mcp`).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(TransportError);
    expect((refused as Error).message).toBe(
      `${mcp.base}/mcp redirected to another origin (${other.base}); MCP requests follow redirects only within the server's origin: use the URL it redirects to`,
    );
    expect(mcp.seen).toHaveLength(1);
    expect(other.seen).toEqual([]);
  });

  it("a 307 or 308 within the origin is followed with the same method, body and headers", async () => {
    const mcp = await serve((req, res) => {
      if (req.url === "/old") res.writeHead(308, { location: "/mcp" }).end();
      else if (req.url === "/mcp") res.writeHead(307, { location: "/mcp/" }).end();
      else res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
    });
    const fetchImpl = guardedFetch(globalThis.fetch, `${mcp.base}/old`);
    const response = await post(fetchImpl, `${mcp.base}/old`);
    expect(await response.json()).toEqual({ ok: true });
    expect(mcp.seen).toEqual(
      ["/old", "/mcp", "/mcp/"].map((url) => ({ method: "POST", url, body: CALL, dpop: "proof" })),
    );
  });

  it("a 302 that would turn the POST into a GET is refused, and so is a redirect loop", async () => {
    const mcp = await serve((req, res) => {
      if (req.url === "/found") res.writeHead(302, { location: "/elsewhere" }).end();
      else res.writeHead(307, { location: req.url === "/a" ? "/b" : "/a" }).end();
    });
    const found = await post(guardedFetch(fetch, mcp.base), `${mcp.base}/found`).catch(
      (e: unknown) => e,
    );
    expect((found as Error).message).toMatch(
      /\/found redirected with HTTP 302, which turns a POST into a GET;/,
    );
    const loop = await post(guardedFetch(fetch, mcp.base), `${mcp.base}/a`).catch(
      (e: unknown) => e,
    );
    expect((loop as Error).message).toMatch(
      new RegExp(`/a redirected more than ${MAX_REDIRECTS} times;`),
    );
    // The first request, then MAX_REDIRECTS redirects followed, and no more.
    expect(mcp.seen.filter((s) => s.url !== "/found")).toHaveLength(MAX_REDIRECTS + 1);
  });

  it("a GET (an event stream) may follow a 302 within the origin", async () => {
    const mcp = await serve((req, res) => {
      if (req.url === "/events") res.writeHead(302, { location: "/events/" }).end();
      else res.writeHead(200).end("here");
    });
    const response = await guardedFetch(fetch, mcp.base)(`${mcp.base}/events`);
    expect(await response.text()).toBe("here");
    expect(mcp.seen.map((s) => s.url)).toEqual(["/events", "/events/"]);
  });
});
