import { describe, expect, it } from "vitest";
import { McpError } from "../src/core/errors.js";
import { McpProtocolError, RoundLimitError } from "../src/client/errors.js";
import { modernCall } from "../src/client/modern-call.js";
import type { RoundOptions, RoundSender } from "../src/client/round.js";
import {
  NegotiatedVersion,
  ToolHeaderPlans,
  type EngineContext,
} from "../src/client/sender-state.js";
import { senderSettings } from "../src/client/sender-settings.js";
import { ToolTaskSupport } from "../src/client/task-settings.js";
import { requestMeta, versionsOfRefusal } from "../src/client/wire.js";
import type { SenderOptions, Transport } from "../src/core/transport.js";
import { PROTOCOL, VALIDATORS } from "./fixture.js";

// The client engine's parts, each with the state it is given and nothing else: no transport,
// no server, no timers (the round that would send is a stand-in).

type Json = Record<string, unknown>;

const unusedTransport: Transport = {
  request: () => Promise.reject(new Error("the round stand-in sends, not the transport")),
  notify: async () => undefined,
};

/** A context whose rounds are answered by `answer`, recording each request's params. */
function contextAnswering(
  answer: (params: Json, index: number) => Json,
  options: Omit<SenderOptions, "transport"> = {},
) {
  const sent: { method: string; params: Json; round: RoundOptions }[] = [];
  const round: RoundSender = {
    send: async (method, params, _opts, _progressToken, roundOptions) => {
      sent.push({ method, params, round: roundOptions });
      return answer(params, sent.length - 1);
    },
    progressToken: () => "token",
  };
  const settings = senderSettings(PROTOCOL, { transport: unusedTransport, ...options }, undefined);
  const ctx: EngineContext = {
    protocol: PROTOCOL,
    validators: VALIDATORS,
    settings,
    round,
    version: new NegotiatedVersion(settings.initialVersion, settings.versions),
    toolHeaderPlans: new ToolHeaderPlans(PROTOCOL),
    toolTaskSupport: new ToolTaskSupport(),
  };
  return { ctx, sent };
}

const askName = (state: string) => ({
  resultType: "input_required",
  inputRequests: { who: { method: "elicitation/create", params: { message: "name?" } } },
  requestState: state,
});

describe("modernCall, with a stand-in round", () => {
  it("retries input_required with the answers and the server's requestState, then stops at maxRounds", async () => {
    const answers: unknown[] = [];
    const { ctx, sent } = contextAnswering((_params, index) => askName(`state-${index}`), {
      maxRounds: 3,
      inputHandlers: {
        "elicitation/create": (params: unknown) => {
          answers.push(params);
          return { action: "accept", content: { name: `n${answers.length}` } };
        },
      },
    });
    const call = modernCall(ctx, "tools/call", {
      name: "greet",
      // The automatic mode owns both fields: the caller's are not sent.
      inputResponses: { stale: {} },
      requestState: "stale",
    });
    await expect(call).rejects.toEqual(new RoundLimitError(3));
    expect(sent).toHaveLength(3);
    expect(answers).toEqual([{ message: "name?" }, { message: "name?" }]);
    const [first, second, third] = sent.map((s) => s.params);
    expect(first).not.toHaveProperty("inputResponses");
    expect(first).not.toHaveProperty("requestState");
    // The registered handler implies the elicitation capability, declared in every request.
    expect(first?.["_meta"]).toEqual({
      v: "2099-01-01",
      caps: { elicitation: {}, extensions: { "io.modelcontextprotocol/tasks": {} } },
    });
    expect(second).toMatchObject({
      name: "greet",
      inputResponses: { who: { action: "accept", content: { name: "n1" } } },
      requestState: "state-0",
    });
    expect(third).toMatchObject({
      inputResponses: { who: { content: { name: "n2" } } },
      requestState: "state-1",
    });
  });

  it("hands input_required to a manual caller, and refuses it from a method that may not ask", async () => {
    const { ctx, sent } = contextAnswering(() => askName("s"));
    const manual = await modernCall(ctx, "tools/call", { name: "greet" }, { manual: true });
    expect(manual).toEqual(askName("s"));
    await expect(modernCall(ctx, "tools/list", {})).rejects.toThrow(
      new McpProtocolError("tools/list may not answer input_required"),
    );
    expect(sent).toHaveLength(2);
  });

  it("retries once at a version the server names when it refuses ours, and keeps it", async () => {
    const refusal = new McpError(-32022, "unsupported", { supported: ["2098-01-01", "2097"] });
    const { ctx, sent } = contextAnswering(
      (params, index) => {
        if (index === 0) throw refusal;
        return { resultType: "complete", tools: [], echo: params["_meta"] };
      },
      { supportedVersions: ["2099-01-01", "2097"] },
    );
    const result = await modernCall(ctx, "tools/list", {});
    expect(sent.map((s) => (s.params["_meta"] as Json)["v"])).toEqual(["2099-01-01", "2097"]);
    expect(result["echo"]).toEqual({
      v: "2097",
      caps: { extensions: { "io.modelcontextprotocol/tasks": {} } },
    });
    expect(ctx.version.current).toBe("2097");
  });
});

describe("NegotiatedVersion", () => {
  it("switches to the first of our versions the server supports, in our order", () => {
    const version = new NegotiatedVersion("c", ["c", "b", "a"]);
    expect(version.switchTo(["x", "a", "b"])).toBe("b");
    expect(version.current).toBe("b");
    expect(version.switchTo(["x"])).toBeUndefined();
    expect(version.current).toBe("b");
  });

  it("keeps its version when server/discover lists it, and moves when it does not", () => {
    const version = new NegotiatedVersion("c", ["c", "b"]);
    version.adoptDiscovered(["b", "c"]);
    expect(version.current).toBe("c");
    version.adoptDiscovered(["b"]);
    expect(version.current).toBe("b");
    const none = new NegotiatedVersion(undefined, []);
    none.adoptDiscovered(["b"]);
    expect(none.current).toBeUndefined();
  });
});

describe("requestMeta", () => {
  const sender = { version: "2099-01-01", capabilities: { roots: {} }, clientInfo: { name: "c" } };
  const keys = { ...PROTOCOL.requestMeta, clientInfo: "info", logLevel: "level" };

  it("puts the protocol fields first, then the params' _meta, then the call's meta", () => {
    const meta = requestMeta(
      keys,
      sender,
      { _meta: { v: "from-params", mine: 1 } },
      { meta: { mine: 2 }, logLevel: "debug" },
      "p1",
    );
    expect(meta).toEqual({
      v: "from-params",
      caps: { roots: {} },
      info: { name: "c" },
      level: "debug",
      progressToken: "p1",
      mine: 2,
    });
  });

  it("leaves out the fields a revision has no key for, and is undefined when nothing is left", () => {
    const none = {
      protocolVersion: null,
      clientCapabilities: null,
      clientInfo: null,
      logLevel: null,
      progressToken: null,
    };
    expect(requestMeta(none, sender, {}, { logLevel: "debug" }, "p1")).toBeUndefined();
    expect(requestMeta(none, sender, { _meta: { a: 1 } }, {}, undefined)).toEqual({ a: 1 });
  });
});

describe("versionsOfRefusal", () => {
  it("reads `supported` only from the unsupported-version error", () => {
    const data = { supported: ["2097"] };
    expect(versionsOfRefusal(PROTOCOL, new McpError(-32022, "no", data))).toEqual(["2097"]);
    expect(versionsOfRefusal(PROTOCOL, new McpError(-32600, "no", data))).toBeUndefined();
    expect(versionsOfRefusal(PROTOCOL, new McpError(-32022, "no", {}))).toBeUndefined();
    expect(versionsOfRefusal(PROTOCOL, new Error("no"))).toBeUndefined();
  });
});

describe("ToolHeaderPlans", () => {
  const tools = {
    tools: [
      {
        name: "deploy",
        inputSchema: { properties: { region: { type: "string", "x-mcp-header": "Region" } } },
      },
      {
        name: "broken",
        inputSchema: { properties: { bad: { type: "string", "x-mcp-header": "Bad Name" } } },
      },
    ],
  };

  it("mirrors the arguments tools/list annotated, on tools/call only", () => {
    const plans = new ToolHeaderPlans(PROTOCOL);
    const call = { name: "deploy", arguments: { region: "eu" } };
    expect(plans.headersFor("tools/call", call)).toBeUndefined();
    plans.learn("tools/list", tools);
    expect(plans.headersFor("tools/call", call)).toEqual({ "Mcp-Param-Region": "eu" });
    expect(plans.headersFor("ping", call)).toBeUndefined();
    expect(() => plans.headersFor("tools/call", { name: "broken", arguments: {} })).toThrow(
      McpProtocolError,
    );
  });
});
