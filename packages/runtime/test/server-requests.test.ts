import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { serverRequests } from "../src/transport/server-requests.js";
import type { ServerRequestHandler } from "../src/core/transport.js";

// The server's requests a legacy session answers, and their cancellation
// (2025-11-25 basic/utilities/cancellation).

type Json = Record<string, unknown>;
const ask = (id: unknown): Json => ({
  jsonrpc: "2.0",
  id,
  method: "elicitation/create",
  params: { message: "?" },
});
const cancel = (requestId: unknown, reason?: string): Json => ({
  jsonrpc: "2.0",
  method: "notifications/cancelled",
  params: reason === undefined ? { requestId } : { requestId, reason },
});
// Answers settle on promises, not timers: `tick` lets them (fake time passing, nothing slept),
// so that an answer that should not be sent would have been by then.
beforeEach(() => void vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] }));
afterEach(() => void vi.useRealTimers());
const tick = () => vi.advanceTimersByTimeAsync(10);

/** A handler whose answers the test releases by hand, and the signals it was given. */
function heldHandler() {
  const signals = new Map<unknown, AbortSignal>();
  const release = new Map<unknown, () => void>();
  const handler: ServerRequestHandler = (request, context) => {
    const signal = context!.signal;
    signals.set(request["id"], signal);
    return new Promise((resolve) =>
      release.set(request["id"], () =>
        resolve({ jsonrpc: "2.0", id: request["id"], result: { action: "decline" } }),
      ),
    );
  };
  return { handler, signals, release };
}

describe("server requests being answered", () => {
  it("a cancellation aborts the handler's signal with the server's reason, frees the entry at once, and drops the late answer", async () => {
    const requests = serverRequests();
    const sent: Json[] = [];
    const { handler, signals, release } = heldHandler();
    requests.answer(ask(7), handler, async (r) => void sent.push(r));
    requests.answer(ask(8), handler, async (r) => void sent.push(r));
    expect(requests.size).toBe(2);
    expect(requests.cancel(cancel(7, "took too long"))).toBe(true);
    expect(signals.get(7)!.aborted).toBe(true);
    expect((signals.get(7)!.reason as Error).message).toBe("took too long");
    expect(signals.get(8)!.aborted).toBe(false);
    // Freed although its handler has not settled (and may never).
    expect(requests.size).toBe(1);
    release.get(7)!();
    release.get(8)!();
    await tick();
    expect(sent.map((r) => r["id"])).toEqual([8]);
    expect(requests.size).toBe(0);
  });

  it("a cancellation without a reason still aborts; one for an unknown, finished, or malformed id is ignored", async () => {
    const requests = serverRequests();
    const sent: Json[] = [];
    const { handler, signals, release } = heldHandler();
    requests.answer(ask("a"), handler, async (r) => void sent.push(r));
    requests.answer(ask(1), handler, async (r) => void sent.push(r));
    release.get(1)!();
    await tick();
    // Finished (1), unknown (2), the same id with another type ("1" is not 1), malformed.
    for (const ignored of [
      cancel(1),
      cancel(2),
      cancel("1"),
      cancel({ id: "a" }),
      { method: "notifications/cancelled" },
      { method: "notifications/progress", params: { requestId: "a" } },
    ])
      expect(requests.cancel(ignored)).toBe(false);
    expect(signals.get("a")!.aborted).toBe(false);
    expect(requests.cancel(cancel("a"))).toBe(true);
    expect(signals.get("a")!.aborted).toBe(true);
    expect((signals.get("a")!.reason as Error).message).toBe("the server cancelled the request");
    // A second cancellation of the same request is one for a finished request.
    expect(requests.cancel(cancel("a"))).toBe(false);
    expect(sent.map((r) => r["id"])).toEqual([1]);
  });

  it("never-settling handlers that are cancelled hold nothing; beyond the bound a request is refused with an error", async () => {
    const requests = serverRequests(3);
    const sent: Json[] = [];
    const never: ServerRequestHandler = () => new Promise(() => undefined);
    for (let id = 0; id < 1000; id++) {
      requests.answer(ask(id), never, async (r) => void sent.push(r));
      requests.cancel(cancel(id));
    }
    expect(requests.size).toBe(0);
    for (let id = 1000; id < 1004; id++)
      requests.answer(ask(id), never, async (r) => void sent.push(r));
    await tick();
    expect(requests.size).toBe(3);
    expect(sent).toEqual([
      {
        jsonrpc: "2.0",
        id: 1003,
        error: { code: -32603, message: "the client is answering too many requests" },
      },
    ]);
  });

  it("the session's end abandons every answer under way: signals abort, nothing is sent", async () => {
    const requests = serverRequests();
    const sent: Json[] = [];
    const { handler, signals, release } = heldHandler();
    requests.answer(ask(1), handler, async (r) => void sent.push(r));
    requests.answer(ask(2), handler, async (r) => void sent.push(r));
    const ended = new Error("the session ended");
    requests.abandonAll(ended);
    expect([signals.get(1)!.reason, signals.get(2)!.reason]).toEqual([ended, ended]);
    expect(requests.size).toBe(0);
    release.get(1)!();
    release.get(2)!();
    await tick();
    expect(sent).toEqual([]);
  });

  it("with no handler the request is answered Method not found", async () => {
    const requests = serverRequests();
    const sent: Json[] = [];
    requests.answer(ask(5), undefined, async (r) => void sent.push(r));
    await tick();
    expect(sent).toEqual([
      { jsonrpc: "2.0", id: 5, error: { code: -32601, message: "Method not found" } },
    ]);
  });
});
