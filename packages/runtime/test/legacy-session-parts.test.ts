import { describe, expect, it, vi } from "vitest";
import { McpError } from "../src/core/errors.js";
import type { ProtocolDescriptor } from "../src/core/protocol.js";
import type { RouterExtension } from "../src/server/extensions.js";
import { LegacySession } from "../src/server/legacy-session.js";
import { LegacySessionTable } from "../src/server/legacy-session-table.js";
import {
  forLegacy,
  legacyInputParams,
  modernMetaFor,
  servedOnSession,
  type LegacyBridge,
} from "../src/server/legacy-request-bridge.js";
import { isLegacyInitialize } from "../src/server/legacy-initialize.js";
import type { Dispatcher } from "../src/server/router-types.js";
import { LEGACY_PROTOCOL, PROTOCOL, VALIDATORS } from "./fixture.js";

// The parts of the era dispatcher that serve legacy sessions, each on its own: the table of
// open sessions, the modern `_meta` a legacy request stands for, and the bridge that fulfils
// a modern handler's input_required answer by asking the client on the session.

const LEGACY_ERA = { protocol: LEGACY_PROTOCOL, validators: VALIDATORS, adapters: {} };
const MODERN_ERA = { protocol: PROTOCOL, validators: VALIDATORS };
const NO_ROUTER: Dispatcher = {
  handle: async () => undefined,
  handleText: async () => undefined,
};
const sessionOf = (params: Record<string, unknown> = {}) =>
  new LegacySession(LEGACY_ERA, "2098-01-01", params);
const extension = (id: string) => ({ id }) as unknown as RouterExtension;

describe("LegacySessionTable", () => {
  it("opening a session on a channel ends the one open there, which then asks nothing", async () => {
    const table = new LegacySessionTable(() => undefined);
    const channel = {};
    const first = sessionOf();
    const second = sessionOf();
    table.open(channel, first, NO_ROUTER);
    table.open(channel, second, NO_ROUTER);
    expect(table.get(channel)?.session).toBe(second);
    await expect(first.request("ping", undefined, () => undefined)).rejects.toThrow(
      "the client initialized again",
    );
    first.stream = () => undefined;
    second.stream = () => undefined;
    // Only the open session is notified: the one replaced left the table.
    expect(table.notify({ method: "notifications/tools/list_changed" })).toBe(1);
  });

  it("notifies the sessions with a stream that the filter picks, reporting a stream that throws", () => {
    const reported: [unknown, string][] = [];
    const table = new LegacySessionTable((error, method) => reported.push([error, method]));
    const [quiet, picked, skipped, broken] = [sessionOf(), sessionOf(), sessionOf(), sessionOf()];
    for (const session of [quiet, picked, skipped, broken]) table.open({}, session, NO_ROUTER);
    const got: object[] = [];
    picked.stream = (message) => got.push(message);
    skipped.stream = () => got.push({ wrong: true });
    broken.stream = () => {
      throw new Error("stream gone");
    };
    const notification = { method: "notifications/resources/updated" };
    expect(table.notify(notification, (session) => session !== skipped)).toBe(1);
    expect(got).toEqual([notification]);
    expect(reported).toEqual([[new Error("stream gone"), "notifications/resources/updated"]]);
  });

  it("a stream's detach leaves a stream attached after it in place", () => {
    const table = new LegacySessionTable(() => undefined);
    const channel = {};
    const session = sessionOf();
    table.open(channel, session, NO_ROUTER);
    const first = () => undefined;
    const second = () => undefined;
    const detachFirst = table.attachStream(channel, first);
    const detachSecond = table.attachStream(channel, second);
    detachFirst();
    expect(session.stream).toBe(second);
    detachSecond();
    expect(session.stream).toBeUndefined();
    expect(table.attachStream({}, first)).toBeTypeOf("function");
  });

  it("ending a channel's session closes it and forgets it", async () => {
    const table = new LegacySessionTable(() => undefined);
    const channel = {};
    const session = sessionOf();
    table.open(channel, session, NO_ROUTER);
    table.end(channel);
    expect(table.get(channel)).toBeUndefined();
    await expect(session.request("ping", undefined, () => undefined)).rejects.toThrow(
      "the session ended",
    );
  });
});

describe("modernMetaFor", () => {
  const modern: ProtocolDescriptor = {
    ...PROTOCOL,
    requestMeta: { ...PROTOCOL.requestMeta, clientInfo: "info", logLevel: "level" },
  };

  it("states the session's version, info and log level, the request's progress token, and capabilities without served extensions", () => {
    const session = sessionOf({
      capabilities: { roots: {}, extensions: { tasks: {}, other: {} } },
      clientInfo: { name: "c", version: "1" },
    });
    const meta = modernMetaFor(modern, session, { progressToken: 7 }, [extension("tasks")]);
    expect(meta).toEqual({
      v: "2098-01-01",
      caps: { roots: {}, extensions: { other: {} } },
      info: { name: "c", version: "1" },
      // No logging/setLevel yet: the least severe level, so the client gets every message.
      level: "debug",
      progressToken: 7,
    });
    session.logLevel = "error";
    expect(modernMetaFor(modern, session, {}, undefined)).toMatchObject({ level: "error" });
    expect(modernMetaFor(modern, session, {}, undefined)).not.toHaveProperty("progressToken");
  });
});

describe("forLegacy", () => {
  const refusal = new McpError(-32021, "the client cannot elicit");
  const legacyProtocol = (missingClientCapability: number | null) => ({
    ...LEGACY_PROTOCOL,
    errorCodes: { ...LEGACY_PROTOCOL.errorCodes, missingClientCapability },
  });
  const sessionAt = (protocol: ProtocolDescriptor) =>
    new LegacySession({ ...LEGACY_ERA, protocol }, "2098-01-01", {});

  it("turns a missing-capability refusal into a plain error where the legacy revision has no code for it", () => {
    const session = sessionAt(legacyProtocol(null));
    const plain = forLegacy(PROTOCOL, session, refusal);
    expect(plain).not.toBeInstanceOf(McpError);
    expect((plain as Error).message).toBe("the client cannot elicit");
    const other = new McpError(-32602, "bad params");
    expect(forLegacy(PROTOCOL, session, other)).toBe(other);
  });

  it("keeps the refusal where the legacy revision has the code", () => {
    expect(forLegacy(PROTOCOL, sessionAt(legacyProtocol(-32021)), refusal)).toBe(refusal);
  });
});

describe("servedOnSession", () => {
  const bridge: LegacyBridge = { modern: MODERN_ERA, extensions: undefined, maxRounds: 2 };
  // A client that can answer what the handlers ask: input it did not declare is not asked.
  const eliciting = () => sessionOf({ capabilities: { elicitation: {} } });
  const legacyContext = (session: LegacySession, sent: Record<string, unknown>[]) => ({
    id: 1,
    signal: new AbortController().signal,
    principal: undefined,
    // The client answers each request the server sends it at once.
    notify: async (message: object) => {
      const request = message as Record<string, unknown>;
      sent.push(request);
      queueMicrotask(() =>
        session.resolve({ jsonrpc: "2.0", id: request["id"], result: { action: "accept" } }),
      );
    },
  });

  it("asks the client on the session for an input_required answer, then calls the handler again with the answers", async () => {
    const session = eliciting();
    const seen: Record<string, unknown>[] = [];
    const handler = vi.fn((params: Record<string, unknown>) => {
      seen.push(params);
      return params["inputResponses"]
        ? { content: [], resultType: "complete" }
        : {
            resultType: "input_required",
            inputRequests: {
              confirm: { method: "elicitation/create", params: { message: "ok?" } },
            },
            requestState: "state-1",
          };
    });
    const sent: Record<string, unknown>[] = [];
    const served = servedOnSession(bridge, session, "tools/call", handler);
    const result = await served({ name: "x" }, legacyContext(session, sent));
    // The legacy revision has no resultType: it is dropped on the way out.
    expect(result).toEqual({ content: [] });
    expect(sent).toMatchObject([{ method: "elicitation/create", params: { message: "ok?" } }]);
    expect(seen[1]).toMatchObject({
      name: "x",
      inputResponses: { confirm: { action: "accept" } },
      requestState: "state-1",
      _meta: { v: "2098-01-01" },
    });
  });

  it("gives up after maxRounds of input_required", async () => {
    const session = eliciting();
    const handler = vi.fn(() => ({
      resultType: "input_required",
      inputRequests: { again: { method: "elicitation/create", params: {} } },
    }));
    const served = servedOnSession(bridge, session, "tools/call", handler);
    await expect(served({}, legacyContext(session, []))).rejects.toThrow(
      "tools/call still asked for input after 2 rounds",
    );
    expect(handler).toHaveBeenCalledTimes(2);
  });
});

describe("legacyInputParams", () => {
  it("gives a URL-mode elicitation the elicitationId 2025-11-25 requires, unique per request", () => {
    const link = { mode: "url", message: "Sign in", url: "https://example.com/link" };
    const first = legacyInputParams("elicitation/create", link) as Record<string, unknown>;
    const second = legacyInputParams("elicitation/create", link) as Record<string, unknown>;
    expect(first).toEqual({ ...link, elicitationId: expect.stringMatching(/^[\w-]{36}$/) });
    expect(second["elicitationId"]).not.toBe(first["elicitationId"]);
    expect(link).not.toHaveProperty("elicitationId");
  });

  it("leaves forms, an elicitationId given and other input requests as they are", () => {
    const form = { mode: "form", message: "Name?", requestedSchema: { type: "object" } };
    const named = { mode: "url", message: "Sign in", url: "https://e.com", elicitationId: "e1" };
    const sampling = { mode: "url", messages: [] };
    expect(legacyInputParams("elicitation/create", form)).toBe(form);
    expect(legacyInputParams("elicitation/create", named)).toBe(named);
    expect(legacyInputParams("sampling/createMessage", sampling)).toBe(sampling);
    expect(legacyInputParams("roots/list", undefined)).toBeUndefined();
  });
});

describe("isLegacyInitialize", () => {
  it("is an initialize request without modern per-request metadata", () => {
    const init = { jsonrpc: "2.0", id: 1, method: "initialize", params: {} };
    expect(isLegacyInitialize([MODERN_ERA], init)).toBe(true);
    expect(isLegacyInitialize([MODERN_ERA], { ...init, id: undefined })).toBe(false);
    const modern = { ...init, params: { _meta: { v: "2099-01-01" } } };
    expect(isLegacyInitialize([MODERN_ERA], modern)).toBe(false);
  });
});
