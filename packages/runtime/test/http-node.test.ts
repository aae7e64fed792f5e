import { createServer, type IncomingMessage, type RequestListener } from "node:http";
import { connect } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { routingHeaders } from "../src/transport/http/headers.js";
import type { MessageHandler } from "../src/transport/http/server/options.js";
import { createHttpHandler, pathnameOf } from "../src/transport/http/server/server.js";
import { PROTOCOL, request } from "./fixture.js";

// The node:http host of the HTTP core as frameworks drive it: a body parsed before the
// handler (express.json(), Fastify), a stream some middleware consumed, a mount path stripped
// from req.url, and a client that stops sending its body.

const echo: MessageHandler = {
  handle: async (message: any) => ({ jsonrpc: "2.0", id: message.id, result: message.params }),
};

const servers: { close(): void; closeAllConnections(): void }[] = [];
afterEach(() => {
  vi.useRealTimers();
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

async function listen(listener: RequestListener): Promise<string> {
  const server = createServer(listener);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  return `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
}

const message = request("tools/call", 3, { name: "x" });
const post = (url: string) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...routingHeaders(PROTOCOL, message) },
    body: JSON.stringify(message),
  });

/** Reads the body the way a framework's parser does, then hands over to `next`. */
function consume(req: IncomingMessage, next: (text: string) => void) {
  let text = "";
  req.setEncoding("utf8");
  req.on("data", (chunk: string) => (text += chunk));
  req.on("end", () => next(text));
}

describe("node:http host", () => {
  it("takes a body a framework parsed (req.body, or the parsedBody argument), ignoring Express's next", async () => {
    const handler = createHttpHandler(PROTOCOL, echo);
    const viaReqBody = await listen((req, res) =>
      consume(req, (text) => {
        Object.assign(req, { body: JSON.parse(text) });
        void handler(req, res, () => undefined);
      }),
    );
    expect(await (await post(`${viaReqBody}/mcp`)).json()).toMatchObject({
      id: 3,
      result: { name: "x" },
    });
    const viaArgument = await listen((req, res) =>
      consume(req, (text) => void handler(req, res, JSON.parse(text))),
    );
    expect((await post(`${viaArgument}/mcp`)).status).toBe(200);
  });

  it("answers 500 at once, with one log line, when the body was read and nothing parsed is left", async () => {
    const lines: string[] = [];
    const handler = createHttpHandler(PROTOCOL, echo, { onError: (line) => lines.push(line) });
    const url = await listen((req, res) => consume(req, () => void handler(req, res)));
    const response = await post(`${url}/mcp`);
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({ error: { code: -32603 } });
    expect(lines).toEqual([expect.stringMatching(/^mcp-gen: POST \/mcp: 500, the request body/)]);
  });

  it("matches the endpoint on the full path when a framework strips the mount path (originalUrl)", async () => {
    const handler = createHttpHandler(PROTOCOL, echo);
    const url = await listen((req, res) => {
      // Express's app.use("/mcp", handler): req.url loses the mount path, originalUrl keeps it.
      Object.assign(req, { originalUrl: req.url, url: "/" });
      void handler(req, res);
    });
    expect((await post(`${url}/mcp`)).status).toBe(200);
    expect((await post(`${url}/other`)).status).toBe(404);
  });

  it("times out a client that stops sending its body: 408 once requestTimeoutMs passes", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const handler = createHttpHandler(PROTOCOL, echo, { requestTimeoutMs: 10_000 });
    const url = new URL(await listen((req, res) => void handler(req, res)));
    const socket = connect(Number(url.port), "127.0.0.1");
    let received = "";
    socket.on("data", (chunk) => (received += chunk));
    socket.write(
      "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{",
    );
    await vi.waitFor(() => expect(vi.getTimerCount()).toBeGreaterThan(0));
    vi.advanceTimersByTime(10_000);
    await vi.waitFor(() => expect(received).toMatch(/^HTTP\/1.1 408/));
    expect(received).toContain("Request timed out while reading the body");
    socket.destroy();
  });

  it("normalises paths that need it, and takes plain ones as they are", () => {
    expect(pathnameOf("/mcp?x=1")).toBe("/mcp");
    expect(pathnameOf("/a/../mcp")).toBe("/mcp");
    expect(pathnameOf("http://host/mcp#f")).toBe("/mcp");
  });
});
