// A legacy session served by two instances with no sticky routing (a shared memory store and
// an in-process message bus): the client's answer to an elicitation one instance sent, and
// its cancellation of a call running on one instance, POSTed to the other (session-relay.ts).
import { afterEach, describe, expect, it } from "vitest";
import { InProcessMessageBus, type MessageBus } from "../src/server/message-bus.js";
import { createHttpHandler } from "../src/transport/http/server/server.js";
import { createEraDispatcher } from "../src/server/era-dispatcher.js";
import { within } from "../../cli/test/support/wait.js";
import { LEGACY_PROTOCOL, PROTOCOL, VALIDATORS } from "./fixture.js";
import { post, type Any } from "./resume-support.js";
import {
  askAndAnswer,
  callTool,
  instances,
  openSession,
  toolText,
  type Instance,
} from "./session-relay-support.js";

/** A bus recording what is published on it, by channel. */
function recordingBus(published: string[] = []) {
  const bus = new InProcessMessageBus();
  const publish = bus.publish.bind(bus);
  bus.publish = (channel, message) => (published.push(channel), publish(channel, message));
  return { bus, published };
}

let running: Instance[] = [];
afterEach(async () => {
  await Promise.all(running.map((i) => i.server.close()));
  running = [];
});

const accept = (v: string) => (id: string) => ({
  jsonrpc: "2.0",
  id,
  result: { action: "accept", content: { v } },
});

describe("answers and cancellations across instances (in-process bus)", () => {
  it("an answer POSTed to B reaches the handler waiting on A, once, over A's answers channel", async () => {
    const { bus, published } = recordingBus();
    const [a, b] = (running = await instances(["a", "b"], () => bus));
    const session = await openSession(a!.server.url);
    const { status, final } = await askAndAnswer(a!, b!, session, accept("from b"));
    expect(status).toBe(202);
    expect(toolText(final)).toEqual({ instance: "a", answer: "from b" });
    // Forwarded to A's process, and acknowledged by A to B's (one process here).
    expect(published).toEqual([
      expect.stringMatching(/^mcp-gen:answers:[0-9a-z]{16}$/),
      expect.stringMatching(/^mcp-gen:acks:[0-9a-z]{16}$/),
    ]);
    // Answered where it arrived, A's own answer is not published: the bus stays quiet.
    const again = await askAndAnswer(a!, a!, session, accept("from a"));
    expect(toolText(again.final)).toEqual({ instance: "a", answer: "from a" });
    expect(published).toHaveLength(2);
    expect([...a!.errors, ...b!.errors]).toEqual([]);
  });

  it("an answer no instance waits for is refused with 400, once nobody took it", async () => {
    const { bus, published } = recordingBus();
    const options = { forwardedAnswerTimeoutMs: 200 };
    const [a, b] = (running = await instances(["a", "b"], () => bus, options));
    const session = await openSession(a!.server.url);
    const headers = { "mcp-session-id": session };
    // Of this runtime's form, for no request: forwarded, and nobody takes it.
    const stray = accept("late")("mcp-gen-0123456789abcdef-7");
    expect((await post(b!.server.url, stray, headers)).status).toBe(400);
    expect(published).toEqual([expect.stringMatching(/^mcp-gen:answers:0123456789abcdef$/)]);
    // An id that names no instance is never published, and refused at once.
    expect((await post(b!.server.url, accept("x")(42 as Any), headers)).status).toBe(400);
    expect(published).toHaveLength(1);
    expect([...a!.errors, ...b!.errors]).toEqual([]);
  });

  it("a cancellation POSTed to B stops the call running on A, with the client's reason", async () => {
    const { bus, published } = recordingBus();
    const [a, b] = (running = await instances(["a", "b"], () => bus));
    const session = await openSession(a!.server.url);
    const headers = { "mcp-session-id": session };
    const call = post(a!.server.url, callTool("wait", 5), headers);
    await within(a!.waiting, "the call running on A");
    const cancel = {
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: 5, reason: "changed my mind" },
    };
    expect((await post(b!.server.url, cancel, headers)).status).toBe(202);
    expect(await within(a!.cancelled, "the call on A cancelled")).toBe("changed my mind");
    expect(published).toEqual(["mcp-gen:cancels"]);
    // No response follows a cancelled request (basic/utilities/cancellation).
    const response = await call;
    expect(await response.text()).not.toMatch(/"result"|"error"/);
    // A cancellation for a request B serves itself stays on B.
    const onB = post(b!.server.url, callTool("wait", 6), headers);
    await within(b!.waiting, "the call running on B");
    expect(
      (await post(b!.server.url, { ...cancel, params: { requestId: 6 } }, headers)).status,
    ).toBe(202);
    expect(await within(b!.cancelled, "the call on B cancelled")).toBe("cancelled");
    await onB;
    expect(published).toHaveLength(1);
  });

  it("an answer too large for the bus is reported and dropped: the handler ends by its own timeout", async () => {
    const { bus, published } = recordingBus();
    const [a, b] = (running = await instances(
      ["a", "b"],
      () => bus,
      { maxForwardedAnswerChars: 200 },
      500,
    ));
    const session = await openSession(a!.server.url);
    const { status, final } = await askAndAnswer(a!, b!, session, accept("x".repeat(300)));
    expect(status).toBe(413);
    expect(published).toEqual([]);
    expect(b!.errors).toEqual([expect.stringMatching(/answer over 200 characters not forwarded/)]);
    expect(JSON.stringify(final)).toMatch(/did not answer elicitation\/create in time/);
  });

  it("a failing bus is reported, and the POST gets 503: the client knows to send it again", async () => {
    const failing: MessageBus = {
      publish: async () => {
        throw new Error("bus down");
      },
      subscribe: async () => async () => undefined,
    };
    const [a, b] = (running = await instances(["a", "b"], () => failing, {}, 500));
    const session = await openSession(a!.server.url);
    const { status } = await askAndAnswer(a!, b!, session, accept("lost"));
    expect(status).toBe(503);
    expect(b!.errors).toEqual([expect.stringMatching(/answer not forwarded: Error: bus down/)]);
  });

  it("a stalled bus holds neither an answer's POST (503) nor a DELETE past the timeout", async () => {
    const stalled: MessageBus = {
      publish: () => new Promise<void>(() => {}),
      subscribe: async () => async () => undefined,
    };
    const options = { forwardedAnswerTimeoutMs: 200 };
    const [a, b] = (running = await instances(["a", "b"], () => stalled, options, 500));
    const session = await openSession(a!.server.url);
    const { status } = await askAndAnswer(a!, b!, session, accept("stuck"));
    expect(status).toBe(503);
    const headers = { "mcp-session-id": session };
    const deleted = await within(
      fetch(b!.server.url, { method: "DELETE", headers }),
      "the DELETE answered",
    );
    expect(deleted.status).toBe(200);
  });

  it("reports what on its channels is no forwarded message, and goes on", async () => {
    const { bus } = recordingBus();
    const [a] = (running = await instances(["a"], () => bus));
    for (const junk of ["not json", "[]", '{"session":1}', `{"session":"${"s".repeat(300)}"}`])
      await bus.publish("mcp-gen:cancels", junk);
    expect(a!.errors).toHaveLength(4);
    expect(a!.errors[0]).toMatch(/no forwarded answer or cancellation/);
  });
});

describe("the message bus options", () => {
  it("are checked when the handler is made, naming the option", () => {
    const eras = {
      modern: { protocol: PROTOCOL, validators: VALIDATORS },
      legacy: [{ protocol: LEGACY_PROTOCOL, validators: VALIDATORS, adapters: {} }],
    };
    const make = (options: Any) => () =>
      createHttpHandler(PROTOCOL, createEraDispatcher(eras, {}), options);
    const messageBus = new InProcessMessageBus();
    expect(make({ messageBus: {} })).toThrow(/messageBus must be a MessageBus/);
    expect(make({ messageBus, messageBusPrefix: "" })).toThrow(/messageBusPrefix/);
    expect(make({ messageBus, maxForwardedAnswerChars: 0 })).toThrow(/maxForwardedAnswerChars/);
    expect(make({ messageBus, maxForwardedAnswerChars: 1.5 })).toThrow(/maxForwardedAnswerChars/);
    expect(make({ messageBus, messageBusPrefix: "mine" })).not.toThrow();
  });
});
