import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { generate } from "../src/generators/emit/index.js";
import { loadRevision } from "../src/schema/index.js";
import { SPEC_DIR, writeGenerated } from "./helpers.js";
import { within } from "./support/wait.js";
import { join } from "node:path";

// The bounds of the legacy sessions a generated dual-era dispatcher serves, given as its
// DispatcherOptions: clientRequestTimeoutMs (how long a request to the client waits) and
// maxLegacyRounds (rounds of input_required one legacy request may take). Their defaults
// are read from the generated JSDoc, so the documented default is the one checked.

type Any = any;
type Json = Record<string, unknown>;

let d: Any;
let documented: {
  clientRequestTimeoutMs: number;
  maxLegacyRounds: number;
  maxSubscriptionsPerSession: number;
  maxSubscriptionUriLength: number;
};
beforeAll(async () => {
  const files = await generate(loadRevision(SPEC_DIR, "2026-07-28"), ["dispatcher"], {
    legacy: [loadRevision(SPEC_DIR, "2025-11-25")],
  });
  const source = files.find((f) => f.path === "dispatcher.ts")!.content;
  const defaultOf = (option: string) => {
    const doc = new RegExp(`/\\*\\*((?:(?!\\*/)[\\s\\S])*)\\*/\\s*${option}\\?: number;`).exec(
      source,
    );
    return Number(/Default: (\d+)/.exec(doc?.[1] ?? "")?.[1]);
  };
  documented = {
    clientRequestTimeoutMs: defaultOf("clientRequestTimeoutMs"),
    maxLegacyRounds: defaultOf("maxLegacyRounds"),
    maxSubscriptionsPerSession: defaultOf("maxSubscriptionsPerSession"),
    maxSubscriptionUriLength: defaultOf("maxSubscriptionUriLength"),
  };
  d = await import(join(writeGenerated(files), "dispatcher.js"));
}, 120_000);
afterEach(() => void vi.useRealTimers());

const ask = {
  method: "elicitation/create",
  params: {
    mode: "form",
    message: "Name?",
    requestedSchema: { type: "object", properties: { name: { type: "string" } } },
  },
};

/**
 * A dispatcher whose tool asks for input every round, with a legacy session open on it; the
 * session's client answers each question at once unless `silent`.
 */
async function legacyClient(options: Json, { silent = false } = {}) {
  let rounds = 0;
  const dispatcher = d.createServerDispatcher(
    {
      "tools/call": (_p: unknown, ctx: Any) => {
        rounds++;
        return d.inputRequired(ctx, { inputRequests: { who: ask } });
      },
    },
    options,
  );
  const asked: Json[] = [];
  const context: Any = {
    channel: {},
    notify: (message: Json) => {
      if (message["method"] !== ask.method) return;
      asked.push(message);
      if (!silent)
        void dispatcher.handle(
          { jsonrpc: "2.0", id: message["id"], result: { action: "accept", content: {} } },
          context,
        );
    },
  };
  const init = await dispatcher.handle(
    {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: { elicitation: {} },
        clientInfo: { name: "legacy", version: "1" },
      },
    },
    context,
  );
  expect(init.result.protocolVersion).toBe("2025-11-25");
  const call = (id: number) =>
    dispatcher.handle(
      { jsonrpc: "2.0", id, method: "tools/call", params: { name: "greet", arguments: {} } },
      context,
    );
  return { call, asked, rounds: () => rounds };
}

describe("the generated DispatcherOptions' legacy session bounds", () => {
  it("documents the defaults in the generated type", () => {
    expect(documented).toEqual({
      clientRequestTimeoutMs: 300_000,
      maxLegacyRounds: 10,
      maxSubscriptionsPerSession: 100,
      maxSubscriptionUriLength: 2_048,
    });
  });

  it.each([
    ["maxLegacyRounds: 3", { maxLegacyRounds: 3 }, 3],
    ["the documented default", {}, undefined],
  ])("maxLegacyRounds bounds the rounds of one legacy request (%s)", async (_, options, bound) => {
    const rounds = bound ?? documented.maxLegacyRounds;
    const client = await legacyClient(options);
    expect(await within(client.call(5), "the call's answer")).toEqual({
      jsonrpc: "2.0",
      id: 5,
      result: {
        content: [
          { type: "text", text: `tools/call still asked for input after ${rounds} rounds` },
        ],
        isError: true,
      },
    });
    expect(client.rounds()).toBe(rounds);
    expect(client.asked).toHaveLength(rounds);
  });

  it.each([
    ["clientRequestTimeoutMs: 1000", { clientRequestTimeoutMs: 1000 }, 1000],
    ["the documented default", {}, undefined],
  ])(
    "clientRequestTimeoutMs bounds how long a question to the client waits (%s)",
    async (_, options, timeout) => {
      const ms = timeout ?? documented.clientRequestTimeoutMs;
      vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
      const client = await legacyClient(options, { silent: true });
      let answer: Any;
      const call = client.call(6).then((a: Any) => (answer = a));
      await vi.advanceTimersByTimeAsync(ms - 1);
      expect(client.asked).toHaveLength(1);
      expect(answer).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      await call;
      expect(JSON.stringify(answer)).toContain(
        "the client did not answer elicitation/create in time",
      );
    },
  );

  it.each([
    [{ maxLegacyRounds: 0 }, "maxLegacyRounds must be a positive integer, got 0"],
    [{ maxLegacyRounds: 2.5 }, "maxLegacyRounds must be a positive integer, got 2.5"],
    [{ maxLegacyRounds: "3" }, "maxLegacyRounds must be a positive integer, got 3"],
    [{ clientRequestTimeoutMs: -1 }, "clientRequestTimeoutMs must be a positive integer, got -1"],
    [{ clientRequestTimeoutMs: Number.NaN }, "must be a positive integer, got NaN"],
    [{ clientRequestTimeoutMs: 2 ** 31 }, "clientRequestTimeoutMs must be at most 2147483647 ms"],
  ])("refuses %o when the dispatcher is made, in one clear error", (options, message) => {
    expect(() => d.createServerDispatcher({}, options)).toThrow(
      expect.objectContaining({ name: "TypeError", message: expect.stringContaining(message) }),
    );
  });
});
