// Two instances of one server sharing a session store and a message bus, each with its own
// dispatcher (as two processes would have), for the tests of answers and cancellations that
// reach the instance not holding what they are for (session-relay.test.ts on the in-process
// bus, redis-session-relay.test.ts on Redis).
import { expect } from "vitest";
import { createEraDispatcher } from "../src/server/era-dispatcher.js";
import type { MessageBus } from "../src/server/message-bus.js";
import { MemorySessionStore } from "../src/stores/memory/sessions.js";
import { within } from "../../cli/test/support/wait.js";
import { LEGACY_PROTOCOL as LEGACY, PROTOCOL, VALIDATORS } from "./fixture.js";
import { gate, messages, post, readUntil, start, type Any, type Server } from "./resume-support.js";

/** A form asking for one string `v`. */
export const FORM = {
  message: "Your answer?",
  requestedSchema: { type: "object", properties: { v: { type: "string" } } },
};

/** One instance: its server, what its dispatcher reported, what its tools saw. */
export interface Instance {
  readonly name: string;
  readonly server: Server;
  readonly errors: string[];
  /** Resolves with the reason the `wait` tool's signal was aborted with, once it was. */
  readonly cancelled: Promise<unknown>;
  /** Resolves once the `wait` tool runs here. */
  readonly waiting: Promise<void>;
}

/**
 * A dual-era dispatcher of the fixture revision whose `ask` tool asks the client a form (a
 * legacy session's handler asks through input_required) and answers with what it got and
 * where it ran; its `wait` tool waits for its cancellation.
 */
function instanceDispatcher(
  name: string,
  errors: string[],
  cancelled: (reason: unknown) => void,
  waiting: () => void,
  clientRequestTimeoutMs: number,
) {
  const eras = {
    modern: { protocol: PROTOCOL, validators: VALIDATORS },
    legacy: [{ protocol: LEGACY, validators: VALIDATORS, adapters: {} }],
  };
  const handlers = {
    "tools/call": async (params: Any, ctx: Any) => {
      if (params.name === "wait") {
        waiting();
        await new Promise<void>((resolve) =>
          ctx.signal.addEventListener("abort", () => resolve(), { once: true }),
        );
        cancelled(ctx.signal.reason);
        return { content: [] };
      }
      const answer = params.inputResponses?.["v"];
      if (!answer)
        return {
          resultType: "input_required",
          inputRequests: { v: { method: "elicitation/create", params: FORM } },
        };
      const text = JSON.stringify({ instance: name, answer: answer.content?.v });
      return { content: [{ type: "text", text }] };
    },
  };
  return createEraDispatcher(eras, handlers as Any, {
    clientRequestTimeoutMs,
    onError: (error) => void errors.push(String(error)),
  });
}

/** Instances `names`, each on its own bus from `busFor`, sharing one session store. */
export async function instances(
  names: readonly string[],
  busFor: (name: string) => MessageBus | Promise<MessageBus>,
  options: Any = {},
  clientRequestTimeoutMs = 60_000,
): Promise<Instance[]> {
  const sessionStore = new MemorySessionStore();
  return Promise.all(
    names.map(async (name) => {
      const errors: string[] = [];
      const cancel = gate();
      let reason: unknown;
      const wait = gate();
      const d = instanceDispatcher(
        name,
        errors,
        (r) => ((reason = r), cancel.open()),
        wait.open,
        clientRequestTimeoutMs,
      );
      const messageBus = await busFor(name);
      const onError = (line: string) => void errors.push(line);
      const server = await start({ sessionStore, messageBus, onError, ...options }, d as Any);
      return {
        name,
        server,
        errors,
        cancelled: cancel.opened.then(() => reason),
        waiting: wait.opened,
      };
    }),
  );
}

/** Opens a legacy session through `url` for a client that can answer elicitations. */
export async function openSession(url: string): Promise<string> {
  const r = await post(url, {
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: {
      protocolVersion: "2098-01-01",
      capabilities: { elicitation: {} },
      clientInfo: { name: "roaming", version: "1" },
    },
  });
  expect(r.status).toBe(200);
  return r.headers.get("mcp-session-id")!;
}

export const callTool = (name: string, id: number) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name },
});

/**
 * Calls the `ask` tool on `asked`, reads the elicitation it sends on the call's stream, and
 * POSTs `answer` to it through `answering`: the call's final message, and the POST's status.
 */
export async function askAndAnswer(
  asked: Instance,
  answering: Instance,
  session: string,
  answer: (id: string) => object,
): Promise<{ status: number; final: Any }> {
  const headers = { "mcp-session-id": session };
  const call = await post(asked.server.url, callTool("ask", 1), headers);
  let answered: Promise<Response> | undefined;
  const events = await within(
    readUntil(call, (events) => {
      const last = messages(events).at(-1)?.message;
      if (last?.method === "elicitation/create")
        answered = post(answering.server.url, answer(last.id), headers);
      return last !== undefined && "id" in last && last.method === undefined;
    }),
    `the call on ${asked.name} answered`,
  );
  expect(answered, "the call asked the client").toBeDefined();
  return { status: (await answered!).status, final: messages(events).at(-1)!.message };
}

/** The text a tools/call result carries, parsed. */
export const toolText = (final: Any) => JSON.parse(final.result.content[0].text);
