import { isObject } from "../../core/protocol.js";
import { MAX_NOTICE_CHARS, type MessageBus } from "../../server/message-bus.js";
import { originOfRequestId, requestOrigin } from "../../server/request-origin.js";
import type { HttpCoreOptions, MessageHandler } from "./options.js";

// What a legacy session's client sends to one instance for another, over a message bus
// (issue 25): behind a balancer without sticky routing, each POST of a session goes to any
// instance. Two kinds of message need the instance holding something live:
// - the client's answer to a request the server sent it (elicitation/create, sampling,
//   roots/list) must reach the instance whose handler waits for it. The request id names
//   that instance's process (`mcp-gen-<origin>-<n>`, request-origin.ts), so the answer goes
//   on that process's own channel, `<prefix>:answers:<origin>`: one delivery, and no
//   store round trip. An id naming no origin is never published, so a client cannot make
//   every instance read what it sends;
// - notifications/cancelled for a request running on another instance: the client chose
//   that id, which names nothing, so the cancellation goes on `<prefix>:cancels`, which
//   every instance reads; the one whose POST serves that request of that session cancels it.
// Both are at most once (pub/sub): an instance that misses one leaves its handler to its
// own timeout (clientRequestTimeoutMs for an answer, requestTimeoutMs for a call). The
// session id is checked by the instance the POST reached (it exists, and the POST's
// principal opened it) before anything is published: the bus is the deployment's own.

/** Largest forwarded answer by default, in characters of JSON (a sampling result may carry an image). */
export const DEFAULT_MAX_FORWARDED_ANSWER_CHARS = 1024 * 1024;
/** Longest cancellation reason forwarded (a longer one is cut). */
const MAX_REASON_CHARS = 1024;
/** Longest session id accepted from the bus. */
const MAX_SESSION_ID_CHARS = 256;

/** What the relay needs of the instance it runs in (legacy.ts and live-sessions.ts). */
export interface RelayHost {
  readonly dispatcher: MessageHandler;
  /** The sessions this instance holds (LiveSessions). */
  readonly live: {
    /** The channel session `id` is open on here, if this instance holds it (nothing rebuilt). */
    heldChannel(id: string): object | undefined;
    /** Whether a POST of session `id` here serves the client's request `requestId`. */
    isServing(id: string, requestId: unknown): boolean;
    /** Cancels the client's request `requestId` of session `id` if served here; whether it was. */
    cancelServed(id: string, requestId: unknown, reason: unknown): boolean;
  };
  report(line: string): void;
}

export interface SessionRelayOptions {
  readonly bus: MessageBus;
  /** The channels' prefix (default `mcp-gen`). */
  readonly prefix?: string;
  /** Largest answer forwarded, in characters of JSON (default 1 MiB). */
  readonly maxAnswerChars?: number;
}

export interface SessionRelay {
  /** Resolves once this instance listens on the bus (never rejects: a failure is reported). */
  readonly ready: Promise<void>;
  /**
   * Takes the client's response `message` to session `id` (open here on `channel`) when it
   * answers a request another instance sent, and forwards it: true when taken (the caller
   * answers 202 and does nothing more), false when it is this instance's to handle. The
   * publish is not waited for (a bus that stalls must not hold the POST); failures are reported.
   */
  forwardAnswer(id: string, channel: object, message: Record<string, unknown>): boolean;
  /**
   * After this instance handled the client's notification `message` to session `id`: a
   * notifications/cancelled for a request no POST here serves goes to the other instances.
   */
  forwardCancel(id: string, message: Record<string, unknown>): void;
}

const CANCELLED = "notifications/cancelled";

/** The relay the HTTP options ask for (`messageBus`), or undefined without a bus. */
export function relayFor(
  options: HttpCoreOptions<never>,
  host: RelayHost,
): SessionRelay | undefined {
  const { messageBus: bus, messageBusPrefix: prefix, maxForwardedAnswerChars: max } = options;
  if (bus === undefined) return undefined;
  if (typeof bus?.publish !== "function" || typeof bus.subscribe !== "function")
    throw new TypeError("messageBus must be a MessageBus (publish and subscribe)");
  return sessionRelay(host, {
    bus,
    ...(prefix === undefined ? {} : { prefix }),
    ...(max === undefined ? {} : { maxAnswerChars: max }),
  });
}

/** Whether `message` is a response (to a request the server sent), not a request. */
const isResponse = (message: Record<string, unknown>) =>
  message["method"] === undefined && ("result" in message || "error" in message);

/** The relay of one instance: it listens on its process's answers channel and on the cancels. */
export function sessionRelay(host: RelayHost, options: SessionRelayOptions): SessionRelay {
  const { bus } = options;
  const prefix = options.prefix ?? "mcp-gen";
  if (typeof prefix !== "string" || prefix === "")
    throw new TypeError("messageBusPrefix must be a non-empty string");
  const maxAnswerChars = options.maxAnswerChars ?? DEFAULT_MAX_FORWARDED_ANSWER_CHARS;
  if (!Number.isSafeInteger(maxAnswerChars) || maxAnswerChars < 1)
    throw new TypeError("maxForwardedAnswerChars must be a positive integer");
  const answers = (origin: string) => `${prefix}:answers:${origin}`;
  const cancels = `${prefix}:cancels`;
  const publish = async (channel: string, text: string, limit: number, what: string) => {
    if (text.length > limit)
      return host.report(`mcp-gen: ${what} over ${limit} characters not forwarded`);
    try {
      await bus.publish(channel, text);
    } catch (error) {
      host.report(`mcp-gen: ${what} not forwarded: ${String(error)}`);
    }
  };

  const ready = Promise.all([
    bus.subscribe(answers(requestOrigin()), (text) => deliverAnswer(host, text, maxAnswerChars)),
    bus.subscribe(cancels, (text) => deliverCancel(host, text)),
  ]).then(
    () => undefined,
    (error: unknown) => host.report(`mcp-gen: the message bus refused a subscription: ${error}`),
  );

  return {
    ready,
    forwardAnswer(id, channel, message) {
      if (!isResponse(message)) return false;
      const origin = originOfRequestId(message["id"]);
      const session = host.dispatcher.session?.(channel);
      if (origin === undefined || session?.awaits?.(message["id"]) !== false) return false;
      const text = JSON.stringify({ session: id, message });
      void publish(answers(origin), text, maxAnswerChars, "a client's answer");
      return true;
    },
    forwardCancel(id, message) {
      const params = message["params"];
      if (message["method"] !== CANCELLED || !isObject(params)) return;
      const requestId = params["requestId"];
      if (typeof requestId !== "string" && typeof requestId !== "number") return;
      if (host.live.isServing(id, requestId)) return;
      const reason = params["reason"];
      const text = JSON.stringify({
        session: id,
        requestId,
        ...(typeof reason === "string" ? { reason: reason.slice(0, MAX_REASON_CHARS) } : {}),
      });
      void publish(cancels, text, MAX_NOTICE_CHARS, "a cancellation");
    },
  };
}

/** Parses a bus message naming a session; undefined (reported) when it is not one. */
function parseForwarded(
  host: RelayHost,
  text: string,
  limit: number,
): (Record<string, unknown> & { session: string }) | undefined {
  let value: unknown;
  try {
    value = text.length <= limit ? JSON.parse(text) : undefined;
  } catch {
    // reported below
  }
  const session = isObject(value) ? value["session"] : undefined;
  if (typeof session === "string" && session.length <= MAX_SESSION_ID_CHARS)
    return value as Record<string, unknown> & { session: string };
  host.report("mcp-gen: a message on the bus that is no forwarded answer or cancellation");
  return undefined;
}

/**
 * An answer forwarded to this process: handled by the session's dispatcher when a request
 * sent from here waits for it; else dropped quietly (another instance of this process, or a
 * session ended here, or an answer already taken: at most once).
 */
function deliverAnswer(host: RelayHost, text: string, limit: number): void {
  const forwarded = parseForwarded(host, text, limit);
  const message = forwarded?.["message"];
  if (!forwarded || !isObject(message)) return;
  const channel = host.live.heldChannel(forwarded.session);
  const session = channel && host.dispatcher.session?.(channel);
  if (!channel || !session?.awaits?.(message["id"])) return;
  host.dispatcher.handle(message, { channel }).catch((error: unknown) => {
    host.report(`mcp-gen: a forwarded answer: ${String(error)}`);
  });
}

/** A cancellation forwarded by another instance: the request is cancelled if served here. */
function deliverCancel(host: RelayHost, text: string): void {
  const forwarded = parseForwarded(host, text, MAX_NOTICE_CHARS);
  if (!forwarded) return;
  const reason = forwarded["reason"];
  host.live.cancelServed(forwarded.session, forwarded["requestId"], reason ?? "cancelled");
}
