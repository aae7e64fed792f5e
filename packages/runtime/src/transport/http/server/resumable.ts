import { parseEventId } from "./event-store.js";
import {
  errorBody,
  EVENT_STREAM_HEADERS,
  sendJson,
  type HttpExchange,
  type ReplySink,
} from "./exchange.js";
import { JSONRPC_ERRORS } from "../../../core/errors.js";
import { describe, LiveStream, type ResumableHost } from "./live-stream.js";

export type { ResumableHost };

// Resumable SSE streams of legacy sessions (2025-03-26 .. 2025-11-25 basic/transports,
// "Resumability and Redelivery"): every event of a POST's response stream and of the
// standalone GET stream is recorded in the event store and written with its id; a GET with
// `Last-Event-ID` replays what came after that event on the stream it belongs to, then goes
// on with the stream where it is still live. Modern (2026-07-28) streams are not resumable:
// they never get here.
//
// A stream id is `<kind>.<session tag>.<random>`: kind "p" for a POST's response stream, "g"
// for the standalone stream; the tag is a digest of the session id, so any instance can tell
// whose stream an event id names without asking anyone, and never replays another session's
// events. Ids are globally unique within the session, as the spec requires.

/** Priming events (an id and empty data first) come with 2025-11-25 (transports, "Sending Messages to the Server"). */
const PRIMING_SINCE = "2025-11-25";

/** Whether `session` primes its streams (an empty event with an id first). */
const primes = (session: SessionRef) => session.version >= PRIMING_SINCE;

/** What legacy.ts tells the resumable streams about the session a request names. */
export interface SessionRef {
  readonly channel: object;
  readonly id: string;
  readonly version: string;
  /** Makes `send` the session's stream for messages not tied to a request. */
  attach(send: (message: object) => void): () => void;
}

/** The stream id's parts a resumption checks. */
function streamOf(eventId: string, tag: string): { id: string; kind: "p" | "g" } | undefined {
  const streamId = parseEventId(eventId)?.streamId;
  const [kind, owner] = streamId?.split(".") ?? [];
  if (owner !== tag || (kind !== "p" && kind !== "g")) return undefined;
  return { id: streamId!, kind };
}

/** Whether `eventId` names a standalone GET stream (whoever's it is: resume checks that). */
export const namesStandaloneStream = (eventId: string) =>
  parseEventId(eventId)?.streamId.startsWith("g.") === true;

/** A JSON-RPC response (not a request or notification): the end of a POST's stream. */
const isResponse = (message: object) =>
  "id" in message && !("method" in message) && ("result" in message || "error" in message);

function randomHex(bytes: number): string {
  const values = globalThis.crypto.getRandomValues(new Uint8Array(bytes));
  return Array.from(values, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The session's tag in its stream ids: 96 bits of SHA-256(session id), which it does not reveal. */
async function sessionTag(sessionId: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest(
    "SHA-256",
    new TextEncoder().encode(sessionId),
  );
  return Array.from(new Uint8Array(digest, 0, 12), (b) => b.toString(16).padStart(2, "0")).join("");
}

export type ResumableStreams = ReturnType<typeof resumableStreams>;

export function resumableStreams(host: ResumableHost) {
  /** The POST response streams this instance is writing, by stream id. */
  const posts = new Map<string, LiveStream>();
  /** Each session's standalone stream on this instance, by session channel. */
  const standalone = new WeakMap<object, { stream: LiveStream; detach: () => void }>();
  /**
   * Each session's stream-id tag: the digest's promise while it is computed, then the tag
   * itself, so that a session's later requests need not wait for it.
   */
  const tags = new WeakMap<object, string | Promise<string>>();
  const tagOf = (session: SessionRef): string | Promise<string> => {
    const { channel } = session;
    const known = tags.get(channel);
    if (known !== undefined) return known;
    const computing = sessionTag(session.id);
    tags.set(channel, computing);
    void computing.then((tag) => tags.get(channel) === computing && tags.set(channel, tag));
    return computing;
  };

  /**
   * Makes `stream` the session's standalone stream here through `session.attach` (again, when
   * it is already: the connection resuming it watches its messages for the idle limit),
   * ending the one it replaces.
   */
  function adopt(session: SessionRef, stream: LiveStream): void {
    const previous = standalone.get(session.channel);
    const detach = session.attach((message) => stream.send(message));
    standalone.set(session.channel, { stream, detach });
    if (previous?.stream !== stream) previous?.stream.end();
  }

  /**
   * The sink a session's request is answered through: a response stream it opens is
   * resumable (see resumableSink).
   */
  function postSink(request: PostRequest): ReplySink | Promise<ReplySink> {
    const tag = tagOf(request.session);
    return typeof tag === "string"
      ? resumableSink(host, posts, request, tag)
      : tag.then((known) => resumableSink(host, posts, request, known));
  }

  /** A GET without Last-Event-ID: a new standalone stream, replacing the session's last one. */
  async function openStandalone(
    exchange: HttpExchange,
    sink: ReplySink,
    session: SessionRef,
  ): Promise<void> {
    const stream = new LiveStream(`g.${await tagOf(session)}.${randomHex(16)}`, host);
    const connection = sink.openStream(EVENT_STREAM_HEADERS);
    connection.comment("stream open");
    stream.attach(connection, exchange);
    adopt(session, stream);
    if (primes(session)) stream.prime();
  }

  /** A GET with Last-Event-ID: the events after it on its stream, then the stream goes on. */
  async function resume(
    exchange: HttpExchange,
    sink: ReplySink,
    session: SessionRef,
    lastEventId: string,
  ): Promise<void> {
    const named = streamOf(lastEventId, await tagOf(session));
    if (!named) return refuse(sink, "Last-Event-ID is not an event id of this session");
    let live = named.kind === "p" ? posts.get(named.id) : undefined;
    const mine = standalone.get(session.channel)?.stream;
    if (named.kind === "g") {
      // Resuming a standalone stream makes it the session's: the client asks for that one. Here
      // on another instance than the one that wrote it, or after a newer GET, it is adopted.
      live = mine?.id === named.id && !mine.ended ? mine : new LiveStream(named.id, host);
      adopt(session, live);
    }
    // Written elsewhere, by an instance that may be gone (see catchUp).
    const adopted = named.kind === "g" && mine === undefined;
    let outcome: "refused" | "failed" | "done" = "done";
    const replay = async () => {
      const events = await readAfter(host, lastEventId);
      if (typeof events === "string") return void (outcome = events);
      if (!live || live.ended) return answerPoll(host, sink, named.id, events, lastEventId);
      live.attach(openReplay(sink, events, lastEventId), exchange);
      if (adopted) await catchUp(host, live, session, events.at(-1)?.[0] ?? lastEventId);
    };
    await (live ? live.queue(replay) : replay());
    if (outcome === "done") return;
    if (named.kind === "g" && standalone.get(session.channel)?.stream === live) {
      standalone.get(session.channel)!.detach();
      standalone.delete(session.channel);
      live!.end();
    }
    if (outcome === "failed")
      return sendJson(
        sink,
        503,
        errorBody(JSONRPC_ERRORS.INTERNAL_ERROR, "The event store is unavailable"),
      );
    refuse(sink, "Last-Event-ID names an event that is not kept (expired or never sent)");
  }

  /** The session ended: its standalone stream is closed and its events forgotten. */
  function forget(channel: object): void {
    const open = standalone.get(channel);
    if (!open) return;
    standalone.delete(channel);
    open.stream.end();
    host.store.deleteStream(open.stream.id).catch((error: unknown) => {
      host.report(`mcp-gen: deleting SSE stream ${open.stream.id}: ${describe(error)}`);
    });
  }

  return { postSink, openStandalone, resume, forget };
}

/** A session's request, answered through postSink. */
export interface PostRequest {
  readonly sink: ReplySink;
  readonly exchange: HttpExchange;
  readonly session: SessionRef;
  readonly requestId: unknown;
  /** Called once the client holds an event id (see resumableSink). */
  readonly keepOnClose: () => void;
}

/**
 * The sink `request` is answered through, its session's stream ids tagged `tag`: a response
 * stream it opens is recorded in `posts` while written, and resumable. `keepOnClose` is
 * called once the client holds an event id: from then on its going away is not a
 * cancellation (2025-11-25 transports, "Sending Messages to the Server": disconnection SHOULD
 * NOT be interpreted as cancelling; the client resumes).
 */
function resumableSink(
  host: ResumableHost,
  posts: Map<string, LiveStream>,
  { sink, exchange, session, requestId, keepOnClose }: PostRequest,
  tag: string,
): ReplySink {
  return {
    send: (status, headers, body) => sink.send(status, headers, body),
    openStream(headers) {
      const connection = sink.openStream(headers);
      const id = `p.${tag}.${randomHex(16)}`;
      const stream = new LiveStream(id, host, () => posts.delete(id));
      posts.set(id, stream);
      stream.hold(instanceStopped(requestId));
      stream.onIdWritten = keepOnClose;
      stream.attach(connection, exchange);
      if (primes(session)) stream.prime();
      return {
        event: (message) => (stream.send(message as object), true),
        mark: (fields) => connection.mark(fields),
        comment: (text) => connection.comment(text),
        end: () => stream.end(),
      };
    },
  };
}

/**
 * A response stream replaying `events`. Nothing to replay: the client's own position goes
 * first, as a priming event (an id, empty data: 2025-11-25 transports, "Sending Messages to
 * the Server"). It sends the headers at once (F10), and a client that keeps the id of the
 * last event it read (the v1 SDK) keeps its place when the connection closes with only a
 * `retry`.
 */
function openReplay(sink: ReplySink, events: [string, object][], lastEventId: string) {
  const connection = sink.openStream(EVENT_STREAM_HEADERS);
  for (const [id, message] of events) connection.event(message, id);
  if (events.length === 0) connection.mark({ id: lastEventId });
  return connection;
}

/**
 * A resumption of the POST stream `streamId`, which no instance here writes: what was
 * recorded after the client's position, then the connection closes. When the stream is not
 * over, with `retry`: the client polls (2025-11-25 transports), and whichever instance writes
 * it records what comes next in the store; unless that instance died, and the stream ends
 * with its error (see settle).
 */
async function answerPoll(
  host: ResumableHost,
  sink: ReplySink,
  streamId: string,
  events: [string, object][],
  lastEventId: string,
): Promise<void> {
  const fate = events.some(([, message]) => isResponse(message))
    ? "over"
    : await settle(host, streamId, events, lastEventId);
  // Over, and the client has every event: 204 tells an SSE client not to reconnect (HTML,
  // "Server-sent events": 204 No Content stops reconnection). The v1 SDK resumes after an
  // error response; without this it would poll for ever.
  if (events.length === 0 && fate === "over") return sink.send(204, {});
  const connection = openReplay(sink, events, lastEventId);
  if (fate !== "over") connection.mark({ retryMs: host.retryMs });
  connection.end();
}

/** The events recorded after `eventId` on its stream; "refused" when it is not kept, "failed" when the store fails (reported). */
async function readAfter(
  host: ResumableHost,
  eventId: string,
): Promise<[string, object][] | "refused" | "failed"> {
  const events: [string, object][] = [];
  try {
    const found = await host.store.replayAfter(eventId, (id, message) =>
      events.push([id, message]),
    );
    return found === undefined ? "refused" : events;
  } catch (error) {
    host.report(`mcp-gen: replaying after ${eventId}: ${describe(error)}`);
    return "failed";
  }
}

/**
 * Settles the POST stream `streamId` that no instance here writes (EventStore.settle), and
 * adds to `events` what its settling recorded (the ending of a stream whose instance died):
 * "over" when nothing more comes on it, else "polling". A store without leases cannot tell,
 * nor can a failing one (reported): the client polls, as the spec has it.
 */
async function settle(
  host: ResumableHost,
  streamId: string,
  events: [string, object][],
  lastEventId: string,
): Promise<"over" | "polling"> {
  try {
    const fate = (await host.store.settle?.(streamId)) ?? "unknown";
    if (fate !== "over" && fate !== "ended") return "polling";
    // Recorded since the replay: the ending just appended, or the holder's last events.
    const more = await readAfter(host, events.at(-1)?.[0] ?? lastEventId);
    if (typeof more === "string") return "polling";
    events.push(...more);
    return "over";
  } catch (error) {
    host.report(`mcp-gen: settling SSE stream ${streamId}: ${describe(error)}`);
    return "polling";
  }
}

/**
 * Catches `live` up with the session notices sent after its event `after`; a failure is
 * reported, not fatal. For a standalone stream adopted by an instance that had none of the
 * session: the one resumed was written elsewhere, by an instance that may have died, and no
 * instance recorded what came since. One replaced here by a newer GET is not caught up: what
 * came since went on the newer one, and a server "MUST NOT replay messages that would have
 * been delivered on a different stream" (2025-11-25 transports, "Resumability and
 * Redelivery").
 */
async function catchUp(
  host: ResumableHost,
  live: LiveStream,
  session: SessionRef,
  after: string,
): Promise<void> {
  try {
    await live.catchUp(session.channel, after);
  } catch (error) {
    host.report(`mcp-gen: catching up SSE stream ${live.id}: ${describe(error)}`);
  }
}

/**
 * The error a call ends with when the instance running it dies before answering. Whether it
 * took effect is unknown: retrying is safe for an idempotent tool only.
 */
export function instanceStopped(requestId: unknown): object {
  return errorBody(
    JSONRPC_ERRORS.INTERNAL_ERROR,
    "The server instance running this request stopped before answering it; the request may have taken effect (retry only if it is idempotent)",
    requestId,
  );
}

function refuse(sink: ReplySink, message: string): void {
  // 400, not 404: a 404 on a session's request tells the client that its session is gone.
  sendJson(sink, 400, errorBody(JSONRPC_ERRORS.INVALID_REQUEST, message));
}
