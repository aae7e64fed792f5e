import { JSONRPC_ERRORS } from "../../../core/errors.js";
import { isObject } from "../../../core/protocol.js";
import { timeoutOption } from "../../../core/options.js";
import { MAX_NOTICE_CHARS, type MessageBus } from "../../../server/message-bus.js";
import { originOfRequestId, requestOrigin } from "../../../server/request-origin.js";
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
// Both are at most once (pub/sub). An answer is acknowledged: the instance whose handler
// takes it says so on `<prefix>:acks:<forwarding process>`, and the POST is answered 202 only
// then; without an acknowledgement within forwardedAnswerTimeoutMs (the instance died, or
// its handler gave up) it is refused (issue 35: an answer must not vanish behind a 202). A
// cancellation is not: an instance that misses one leaves its call to requestTimeoutMs.
// - a DELETE goes on `<prefix>:ended`, which every instance reads: one that holds the
//   session ends it there at once, so that it stops taking notices for it (issue 35).
// The session id is checked by the instance the POST reached (it exists, and the POST's
// principal opened it) before anything is published: the bus is the deployment's own.

/** Largest forwarded answer by default, in characters of JSON (a sampling result may carry an image). */
export const DEFAULT_MAX_FORWARDED_ANSWER_CHARS = 1024 * 1024;
/** Longest cancellation reason forwarded (a longer one is cut). */
const MAX_REASON_CHARS = 1024;
/** Longest session id accepted from the bus. */
const MAX_SESSION_ID_CHARS = 256;
/** How long a forwarded answer waits for its acknowledgement by default. */
export const DEFAULT_FORWARDED_ANSWER_TIMEOUT_MS = 3_000;
/** A process's mark (request-origin.ts): what an acknowledgement channel may be named by. */
const ORIGIN = /^[0-9a-z]{16}$/;

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
    /** Ends session `id` here if held (it was deleted through another instance). */
    end(id: string): void;
  };
  report(line: string): void;
}

export interface SessionRelayOptions {
  readonly bus: MessageBus;
  /** The channels' prefix (default `mcp-gen`). */
  readonly prefix?: string;
  /** Largest answer forwarded, in characters of JSON (default 1 MiB). */
  readonly maxAnswerChars?: number;
  /** How long a forwarded answer waits for the instance it is for to take it (default 3 s). */
  readonly answerTimeoutMs?: number;
}

/** Why a client's answer is refused: the POST's HTTP status and the error's message. */
export interface AnswerRefusal {
  readonly status: number;
  readonly code: number;
  readonly message: string;
}

/** An answer larger than the bus carries. */
const TOO_LARGE = (limit: number): AnswerRefusal => ({
  status: 413,
  code: JSONRPC_ERRORS.INVALID_REQUEST,
  message: `The response is over ${limit} characters`,
});

/** An answer the bus did not take (it failed, or stalled past the timeout). */
const UNFORWARDED: AnswerRefusal = {
  status: 503,
  code: JSONRPC_ERRORS.INTERNAL_ERROR,
  message: "The response could not be forwarded; send it again",
};

/** An answer no handler waits for (here, or on the instance its id names). */
export const NOT_AWAITED: AnswerRefusal = {
  status: 400,
  code: JSONRPC_ERRORS.INVALID_REQUEST,
  message:
    "No request of this session waits for this response: it was answered already, timed out, or the server instance that sent it stopped",
};

export interface SessionRelay {
  /** Resolves once this instance listens on the bus (never rejects: a failure is reported). */
  readonly ready: Promise<void>;
  /**
   * Forwards the client's response `message` to session `id`, for a request no handler here
   * waits for, to the instance its id names: "taken" once that instance's handler took it
   * (the caller answers 202), else why not (reported when the bus failed).
   */
  forwardAnswer(id: string, message: Record<string, unknown>): Promise<"taken" | AnswerRefusal>;
  /** Session `id` was deleted here: the other instances holding it end it too. */
  forwardEnd(id: string): Promise<void>;
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
  const answerTimeoutMs = options.forwardedAnswerTimeoutMs;
  return sessionRelay(host, {
    bus,
    ...(prefix === undefined ? {} : { prefix }),
    ...(max === undefined ? {} : { maxAnswerChars: max }),
    ...(answerTimeoutMs === undefined ? {} : { answerTimeoutMs }),
  });
}

/** Whether `message` is a response (to a request the server sent), not a request. */
const isResponse = (message: Record<string, unknown>) =>
  message["method"] === undefined && ("result" in message || "error" in message);

/**
 * Where the client's message `message` to session `id` (open here on `channel`), no request,
 * goes: "here" when it is no response, or a handler here waits for it (or the dispatcher
 * cannot tell); "taken" when the handler of another instance took it; else why it is
 * refused: a response no handler waits for is refused, never accepted and lost (2025-11-25
 * transports, "Sending Messages to the Server": a server that cannot accept a response
 * MUST answer with an HTTP error status).
 */
export function routeAnswer(
  relay: SessionRelay | undefined,
  dispatcher: MessageHandler,
  id: string,
  channel: object,
  message: Record<string, unknown>,
): Promise<"here" | "taken" | AnswerRefusal> | "here" {
  if (!isResponse(message)) return "here";
  if (dispatcher.session?.(channel)?.awaits?.(message["id"]) !== false) return "here";
  return relay ? relay.forwardAnswer(id, message) : Promise.resolve(NOT_AWAITED);
}

/** The relay of one instance: it listens on its process's answers channel and on the cancels. */
export function sessionRelay(host: RelayHost, options: SessionRelayOptions): SessionRelay {
  const { bus } = options;
  const prefix = options.prefix ?? "mcp-gen";
  if (typeof prefix !== "string" || prefix === "")
    throw new TypeError("messageBusPrefix must be a non-empty string");
  const maxAnswerChars = options.maxAnswerChars ?? DEFAULT_MAX_FORWARDED_ANSWER_CHARS;
  if (!Number.isSafeInteger(maxAnswerChars) || maxAnswerChars < 1)
    throw new TypeError("maxForwardedAnswerChars must be a positive integer");
  const answerTimeoutMs = timeoutOption(
    options.answerTimeoutMs,
    "forwardedAnswerTimeoutMs",
    DEFAULT_FORWARDED_ANSWER_TIMEOUT_MS,
  );
  const answers = (origin: string) => `${prefix}:answers:${origin}`;
  const acks = (origin: string) => `${prefix}:acks:${origin}`;
  const cancels = `${prefix}:cancels`;
  const ended = `${prefix}:ended`;
  /** Publishes `text`; false (reported) when it is too long or the bus fails. */
  const publish = async (channel: string, text: string, limit: number, what: string) => {
    if (text.length > limit) {
      host.report(`mcp-gen: ${what} over ${limit} characters not forwarded`);
      return false;
    }
    try {
      await bus.publish(channel, text);
      return true;
    } catch (error) {
      host.report(`mcp-gen: ${what} not forwarded: ${String(error)}`);
      return false;
    }
  };
  /** The answers this instance forwarded, waiting for their acknowledgement, by nonce. */
  const unacknowledged = new Map<string, () => void>();
  const acknowledge = (channel: string, nonce: string) =>
    void publish(channel, JSON.stringify({ ack: nonce }), 256, "an acknowledgement");

  const ready = Promise.all([
    bus.subscribe(answers(requestOrigin()), (text) =>
      deliverAnswer(host, text, maxAnswerChars, (from, nonce) => acknowledge(acks(from), nonce)),
    ),
    bus.subscribe(acks(requestOrigin()), (text) => takeAck(unacknowledged, text)),
    bus.subscribe(cancels, (text) => deliverCancel(host, text)),
    bus.subscribe(ended, (text) => deliverEnded(host, text)),
  ]).then(
    () => undefined,
    (error: unknown) => host.report(`mcp-gen: the message bus refused a subscription: ${error}`),
  );

  return {
    ready,
    async forwardAnswer(id, message) {
      const origin = originOfRequestId(message["id"]);
      if (origin === undefined) return NOT_AWAITED;
      const nonce = randomNonce();
      const text = JSON.stringify({ session: id, message, from: requestOrigin(), nonce });
      if (text.length > maxAnswerChars) {
        host.report(`mcp-gen: a client's answer over ${maxAnswerChars} characters not forwarded`);
        return TOO_LARGE(maxAnswerChars);
      }
      let timer: ReturnType<typeof setTimeout> | undefined;
      const acknowledged = new Promise<"taken" | "late">((resolve) => {
        unacknowledged.set(nonce, () => resolve("taken"));
        timer = setTimeout(() => resolve("late"), answerTimeoutMs);
      });
      try {
        // Bounded as a whole: a bus that stalls does not hold the POST past the timeout.
        const published = publish(answers(origin), text, Infinity, "a client's answer");
        const first = await Promise.race([published, acknowledged]);
        if (first === "taken") return "taken";
        if (first === false || first === "late") return UNFORWARDED;
        return (await acknowledged) === "taken" ? "taken" : NOT_AWAITED;
      } finally {
        clearTimeout(timer);
        unacknowledged.delete(nonce);
      }
    },
    async forwardEnd(id) {
      const text = JSON.stringify({ session: id });
      // Bounded: a bus that stalls does not hold the DELETE (the session is gone anyway).
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, answerTimeoutMs)));
      await Promise.race([publish(ended, text, MAX_NOTICE_CHARS, "a session's end"), late]);
      clearTimeout(timer);
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
 * sent from here waits for it, and acknowledged through `ack`; else dropped quietly (another
 * instance of this process, or a session ended here, or an answer already taken), and the
 * forwarding instance refuses it when no acknowledgement comes.
 */
function deliverAnswer(
  host: RelayHost,
  text: string,
  limit: number,
  ack: (from: string, nonce: string) => void,
): void {
  const forwarded = parseForwarded(host, text, limit);
  const message = forwarded?.["message"];
  if (!forwarded || !isObject(message)) return;
  const channel = host.live.heldChannel(forwarded.session);
  const session = channel && host.dispatcher.session?.(channel);
  if (!channel || !session?.awaits?.(message["id"])) return;
  const { from, nonce } = forwarded;
  if (typeof from === "string" && ORIGIN.test(from) && typeof nonce === "string")
    ack(from, nonce.slice(0, 64));
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

/** A session deleted through another instance: ended here too, if held. */
function deliverEnded(host: RelayHost, text: string): void {
  const forwarded = parseForwarded(host, text, MAX_NOTICE_CHARS);
  if (forwarded) host.live.end(forwarded.session);
}

/** An acknowledgement of an answer this instance forwarded (others' nonces are not here). */
function takeAck(unacknowledged: Map<string, () => void>, text: string): void {
  let nonce: unknown;
  try {
    nonce = text.length <= 256 ? (JSON.parse(text) as { ack?: unknown }).ack : undefined;
  } catch {
    return;
  }
  if (typeof nonce === "string") unacknowledged.get(nonce)?.();
}

function randomNonce(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
