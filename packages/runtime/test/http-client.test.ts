import { describe, expect, it } from "vitest";
import { createHttpTransport, HttpTransportError } from "../src/transport/http/client/client.js";
import { PROTOCOL, request } from "./fixture.js";

/** A fetch answering every POST with `body` in chunks of 64 KiB, counting what it sent. */
function fetchAnswering(body: string, contentType: string, declareLength = false) {
  const sent = { bytes: 0 };
  const bytes = new TextEncoder().encode(body);
  const fetch = async () => {
    let at = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (at >= bytes.length) return controller.close();
        const chunk = bytes.subarray(at, (at += 65_536));
        sent.bytes += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const headers: Record<string, string> = { "content-type": contentType };
    if (declareLength) headers["content-length"] = String(bytes.length);
    return new Response(stream, { status: 200, headers });
  };
  return { fetch: fetch as typeof globalThis.fetch, sent };
}

describe("runtime HTTP client transport: response size cap", () => {
  const big = JSON.stringify({ jsonrpc: "2.0", id: 1, result: { pad: "x".repeat(2_000_000) } });

  it("refuses a JSON body over maxMessageBytes, without reading the rest", async () => {
    const { fetch, sent } = fetchAnswering(big, "application/json");
    const transport = createHttpTransport(PROTOCOL, {
      url: "http://127.0.0.1:1/mcp",
      fetch,
      maxMessageBytes: 100_000,
    });
    await expect(transport.request(request("ping", 1))).rejects.toThrow(HttpTransportError);
    await expect(transport.request(request("ping", 1))).rejects.toThrow(
      /response body larger than 100000 bytes/,
    );
    expect(sent.bytes).toBeLessThan(2 * (100_000 + 2 * 65_536));
  });

  it("refuses a declared Content-Length over the cap before reading, and an SSE event over it", async () => {
    const declared = fetchAnswering(big, "application/json", true);
    const transport = createHttpTransport(PROTOCOL, {
      url: "http://127.0.0.1:1/mcp",
      fetch: declared.fetch,
      maxMessageBytes: 100_000,
    });
    await expect(transport.request(request("ping", 1))).rejects.toThrow(/larger than 100000 bytes/);
    expect(declared.sent.bytes).toBeLessThanOrEqual(65_536);
    const sse = fetchAnswering(`data: ${big}\n\n`, "text/event-stream");
    const overSse = createHttpTransport(PROTOCOL, {
      url: "http://127.0.0.1:1/mcp",
      fetch: sse.fetch,
      maxMessageBytes: 100_000,
    });
    await expect(overSse.request(request("ping", 1))).rejects.toThrow();
    expect(sse.sent.bytes).toBeLessThan(100_000 + 2 * 65_536);
  });

  it("reads a body under the cap", async () => {
    const { fetch } = fetchAnswering(
      JSON.stringify({ jsonrpc: "2.0", id: 1, result: {} }),
      "application/json",
    );
    const transport = createHttpTransport(PROTOCOL, {
      url: "http://127.0.0.1:1/mcp",
      fetch,
      maxMessageBytes: 100_000,
    });
    expect(await transport.request(request("ping", 1))).toMatchObject({ id: 1, result: {} });
  });
});
