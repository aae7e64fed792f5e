import { describe, expect, it } from "vitest";
import { createSender } from "../../runtime/client.js";
import { RequestTimeoutError } from "../../runtime/client-errors.js";
import type { Transport } from "../../runtime/transport.js";
import { PROTOCOL, VALIDATORS } from "./fixture.js";

const shape = { functions: { "tools/call": "callTool", "tools/list": "listTools" }, notifications: {}, paginated: [] };

/** A transport that never answers and records what was sent. */
function silentTransport(sent: object[]): Transport {
  return {
    request: (message) => (sent.push(message), new Promise(() => undefined)),
    notify: async (message) => void sent.push(message),
  };
}

describe("runtime client engine", () => {
  it("refuses option values that would disable a bound", () => {
    for (const maxRounds of [NaN, 0, -1, 1.5, Infinity]) {
      expect(() => createSender(PROTOCOL, VALIDATORS, shape, { transport: silentTransport([]), maxRounds })).toThrow(/maxRounds must be a positive integer/);
    }
    expect(() => createSender(PROTOCOL, VALIDATORS, shape, { transport: silentTransport([]), requestTimeoutMs: NaN })).toThrow(/requestTimeoutMs/);
  });

  it("times out a request the server never answers, and cancels it", async () => {
    const sent: object[] = [];
    const client = createSender(PROTOCOL, VALIDATORS, shape, { transport: silentTransport(sent), requestTimeoutMs: 50 }) as any;
    await expect(client.callTool({ name: "x" })).rejects.toBeInstanceOf(RequestTimeoutError);
    expect(sent[1]).toMatchObject({ method: "notifications/cancelled", params: { requestId: 1 } });
  });

  it("a per-call timeout wins, but never beyond the maximum", async () => {
    const client = createSender(PROTOCOL, VALIDATORS, shape, { transport: silentTransport([]), requestTimeoutMs: 60_000, maxRequestTimeoutMs: 80 }) as any;
    const started = Date.now();
    await expect(client.listTools({}, { timeoutMs: 10_000 })).rejects.toBeInstanceOf(RequestTimeoutError);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("sends the protocol _meta and keeps the caller's", async () => {
    const sent: any[] = [];
    const transport: Transport = {
      request: async (message: any) => (sent.push(message), { jsonrpc: "2.0", id: message.id, result: { tools: [] } }),
      notify: async () => undefined,
    };
    const client = createSender(PROTOCOL, VALIDATORS, shape, { transport, capabilities: { roots: {} } }) as any;
    await client.listTools({ _meta: { mine: 1 } });
    expect(sent[0].params._meta).toEqual({ v: "2099-01-01", caps: { roots: {} }, mine: 1 });
  });
});
