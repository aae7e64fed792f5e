// The HTTP client transport's default fetch on Node.js (node:http): the answers, failures and
// aborts the transport reads keep fetch's contract (a TypeError with the socket's error as
// its cause when no response came, a body stream that errors when the connection breaks,
// the signal's reason on abort), and what it does not carry itself goes to globalThis.fetch.
import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { nodeFetch } from "../src/transport/http/client/node-fetch.js";
import { defaultFetch } from "#default-fetch";
import { within } from "../../cli/test/support/wait.js";

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

const servers: ReturnType<typeof createServer>[] = [];
const stopServers = () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
};
afterEach(() => {
  stopServers();
  vi.restoreAllMocks();
});

async function serve(handler: Handler): Promise<string> {
  const server = createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    handler(req, res, body);
  });
  servers.push(server);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

const post = (url: string, init: RequestInit = {}) =>
  nodeFetch(url, { method: "POST", redirect: "manual", body: "{}", ...init });

async function readAll(body: ReadableStream<Uint8Array>): Promise<string> {
  let text = "";
  const decoder = new TextDecoder();
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>)
    text += decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
}

describe("nodeFetch (the transport's default fetch on Node.js)", () => {
  it("is the default on Node.js: a request does not go through globalThis.fetch", async () => {
    const url = await serve((_req, res) => res.writeHead(200).end("over node:http"));
    const spy = vi.spyOn(globalThis, "fetch");
    const response = await defaultFetch(url, { method: "POST", redirect: "manual", body: "{}" });
    expect(await response.text()).toBe("over node:http");
    expect(spy).not.toHaveBeenCalled();
  });

  it("sends method, headers and body with its length; answers status, headers (repeated ones kept) and body", async () => {
    let seen: { method?: string; headers?: IncomingMessage["headers"]; body?: string } = {};
    const url = await serve((req, res, body) => {
      seen = { method: req.method!, headers: req.headers, body };
      res.writeHead(201, "Made", [
        ["content-type", "application/json"],
        ["x-twice", "a"],
        ["x-twice", "b"],
      ]);
      res.end('{"ok":"é"}');
    });
    const response = await post(url, {
      headers: { "content-type": "application/json", "mcp-method": "tools/call" },
      body: '{"text":"é"}',
    });
    expect(seen.method).toBe("POST");
    expect(seen.headers!["mcp-method"]).toBe("tools/call");
    expect(seen.headers!["content-length"]).toBe(String(Buffer.byteLength('{"text":"é"}')));
    expect(seen.body).toBe('{"text":"é"}');
    expect(response).toBeInstanceOf(Response);
    expect([response.status, response.statusText, response.ok]).toEqual([201, "Made", true]);
    expect(response.headers.get("x-twice")).toBe("a, b");
    expect(await response.json()).toEqual({ ok: "é" });
  });

  it("streams an event stream as it comes, before the response ends", async () => {
    let finish!: () => void;
    const url = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write("data: one\n\n");
      finish = () => res.end("data: two\n\n");
    });
    const response = await post(url);
    const reader = response.body!.getReader();
    const first = await within(reader.read(), "the first event");
    expect(new TextDecoder().decode(first.value)).toBe("data: one\n\n");
    finish();
    const rest = await within(reader.read(), "the second event");
    expect(new TextDecoder().decode(rest.value)).toBe("data: two\n\n");
    expect((await reader.read()).done).toBe(true);
  });

  it("has no body for 204 and 304, as fetch's Response", async () => {
    const url = await serve((req, res) => res.writeHead(req.url === "/mcp" ? 204 : 304).end());
    expect((await post(url)).body).toBeNull();
    expect((await post(url.replace("/mcp", "/other"))).body).toBeNull();
  });

  it("does not follow a redirect: the 3xx and its Location are the answer", async () => {
    const url = await serve((_req, res) => res.writeHead(307, { location: "/elsewhere" }).end());
    const response = await post(url);
    expect([response.status, response.headers.get("location")]).toEqual([307, "/elsewhere"]);
  });

  it("rejects with a TypeError whose cause is the socket's error when no response comes", async () => {
    const url = await serve(() => undefined);
    stopServers();
    const failure = await post(url).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TypeError);
    expect((failure as TypeError & { cause: { code: string } }).cause.code).toBe("ECONNREFUSED");
  });

  it("errors the body stream with a TypeError when the connection breaks mid-body", async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "100" });
      res.write('{"partial":', () => res.destroy());
    });
    const response = await post(url);
    const failure = await within(readAll(response.body!), "the broken body").catch((e) => e);
    expect(failure).toBeInstanceOf(TypeError);
  });

  it("rejects with the signal's reason when aborted before the response, and errors the body with it after", async () => {
    const url = await serve((req, res) => {
      if (req.url === "/slow") return; // never answers
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write("data: one\n\n");
    });
    const before = new AbortController();
    const waiting = post(url.replace("/mcp", "/slow"), { signal: before.signal });
    before.abort(new Error("stop waiting"));
    await expect(within(waiting, "the aborted request")).rejects.toThrow("stop waiting");

    const during = new AbortController();
    const response = await post(url, { signal: during.signal });
    const reader = response.body!.getReader();
    await reader.read();
    during.abort(new Error("stop reading"));
    await expect(within(reader.read(), "the aborted body")).rejects.toThrow("stop reading");

    const already = AbortSignal.abort(new Error("too late"));
    await expect(post(url, { signal: already })).rejects.toThrow("too late");
  });

  it("hands globalThis.fetch what it does not carry itself, unchanged", async () => {
    const answer = new Response("from fetch");
    const spy = vi.spyOn(globalThis, "fetch").mockResolvedValue(answer);
    const url = "http://127.0.0.1:1/mcp";
    const request = new Request(url);
    expect(await nodeFetch(request)).toBe(answer);
    expect(await nodeFetch(url, { method: "POST" })).toBe(answer); // redirect: "follow"
    const stream = new ReadableStream();
    await nodeFetch(url, {
      redirect: "manual",
      method: "POST",
      body: stream,
      duplex: "half",
    } as RequestInit);
    await nodeFetch("data:,x", { redirect: "manual" });
    expect(spy.mock.calls.map((c) => c[0])).toEqual([request, url, url, "data:,x"]);
  });
});
