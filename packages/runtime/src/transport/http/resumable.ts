import { parseEventId, type EventStore } from "./event-store.js";
import {
  errorBody,
  EVENT_STREAM_HEADERS,
  sendJson,
  type EventStream,
  type HttpExchange,
  type ReplySink,
} from "./exchange.js";
import { JSONRPC_ERRORS } from "../../core/errors.js";
import type { MissedNotices } from "../../server/message-bus.js";
import { sessionNoticePosition } from "../../server/notice-position.js";

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

export interface ResumableHost {
  store: EventStore;
  /** The `retry` sent before closing a connection whose stream is not over. */
  retryMs: number;
  report(line: string): void;
  /** The session notices a session missed after an event (the dispatcher's, when it has a history). */
  missedNotices?: MissedNotices | undefined;
}

/** What legacy.ts tells the resumable streams about the session a request names. */
export interface SessionRef {
  readonly channel: object;
  readonly id: string;
  readonly version: string;
  /** Makes `send` the session's stream for messages not tied to a request. */
  attach(send: (message: object) => void): () => void;
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * One resumable stream while this instance writes it. Its events are recorded, then written
 * to its connection if one is open; everything goes through one queue, so events keep their
 * order and a resumption sees each event exactly once: in the replay or written after it.
 */
class LiveStream {
  ended = false;
  /** Called once, when the first event with an id was written (the client can resume now). */
  onIdWritten: (() => void) | undefined;
  private chain: Promise<void> = Promise.resolve();
  private connection: { stream: EventStream; release: () => void } | undefined;
  /** An append failed: events go out without ids from then on (the store has a gap). */
  private broken = false;
  /** Session notices up to this history position are on the stream already (caught up). */
  private caughtUpTo: string | undefined;

  constructor(
    readonly id: string,
    private readonly host: ResumableHost,
    private readonly onEnd: () => void = () => undefined,
  ) {}

  /** Runs `task` after everything queued before; its failure is reported, and rethrown to the caller. */
  queue(task: () => Promise<void> | void): Promise<void> {
    const run = this.chain.then(task);
    this.chain = run.catch((error: unknown) =>
      this.host.report(`mcp-gen: SSE stream ${this.id}: ${describe(error)}`),
    );
    return run;
  }

  send(message: object): void {
    const at = sessionNoticePosition();
    void this.queue(async () => {
      const upTo = this.caughtUpTo;
      if (at !== undefined && upTo !== undefined && !laterPosition(at, upTo)) return;
      await this.deliver(message);
    }).catch(() => undefined);
  }

  /**
   * Records the session notices the stream missed while no instance wrote it (its instance
   * died), after its event `after`, and writes them; later deliveries of them are skipped.
   * Runs inside a queued task, once the connection is attached.
   */
  async catchUp(channel: object, after: string): Promise<void> {
    const missed = await this.host.missedNotices?.(channel, after);
    for (const { at, message } of missed ?? []) {
      await this.deliver(message);
      this.caughtUpTo = at;
    }
  }

  private async deliver(message: object): Promise<void> {
    const id = await this.record(message);
    const connection = this.connection;
    if (!connection) return;
    connection.stream.event(message, id);
    if (id !== undefined) this.idWritten();
  }

  /** The priming event: a position the client can resume after before any message came. */
  prime(): void {
    void this.queue(async () => {
      const id = await this.record(undefined);
      if (id === undefined || !this.connection) return;
      this.connection.stream.mark({ id });
      this.idWritten();
    }).catch(() => undefined);
  }

  /** Makes `stream` the stream's connection; a previous one is closed (the client replaced it). */
  attach(stream: EventStream, exchange: HttpExchange): void {
    const previous = this.connection;
    const release = exchange.onClose(() => {
      if (this.connection?.stream === stream) this.connection = undefined;
    });
    this.connection = { stream, release };
    if (previous) {
      previous.release();
      previous.stream.end();
    }
  }

  end(): void {
    void this.queue(() => {
      this.ended = true;
      const connection = this.connection;
      this.connection = undefined;
      connection?.release();
      connection?.stream.end();
      this.onEnd();
    }).catch(() => undefined);
  }

  private async record(message: object | undefined): Promise<string | undefined> {
    if (this.broken) return undefined;
    try {
      return await this.host.store.append(this.id, message);
    } catch (error) {
      this.broken = true;
      this.host.report(`mcp-gen: SSE stream ${this.id} is no longer resumable: ${describe(error)}`);
      return undefined;
    }
  }

  private idWritten(): void {
    const once = this.onIdWritten;
    this.onIdWritten = undefined;
    once?.();
  }
}

/** The stream id's parts a resumption checks. */
function streamOf(eventId: string, tag: string): { id: string; kind: "p" | "g" } | undefined {
  const streamId = parseEventId(eventId)?.streamId;
  const [kind, owner] = streamId?.split(".") ?? [];
  if (owner !== tag || (kind !== "p" && kind !== "g")) return undefined;
  return { id: streamId!, kind };
}

/** Whether history position `a` (an event id, its cursor a Redis entry id) comes after `b`. */
function laterPosition(a: string, b: string): boolean {
  const [am = 0, as = 0] = (parseEventId(a)?.cursor ?? "").split("-").map(Number);
  const [bm = 0, bs = 0] = (parseEventId(b)?.cursor ?? "").split("-").map(Number);
  return am > bm || (am === bm && as > bs);
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
  const tags = new WeakMap<object, Promise<string>>();
  const tagOf = (session: SessionRef) => {
    let tag = tags.get(session.channel);
    if (!tag) tags.set(session.channel, (tag = sessionTag(session.id)));
    return tag;
  };
  const primes = (session: SessionRef) => session.version >= PRIMING_SINCE;

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
   * resumable. `keepOnClose` is called once the client holds an event id: from then on its
   * going away is not a cancellation (2025-11-25 transports, "Sending Messages to the
   * Server": disconnection SHOULD NOT be interpreted as cancelling; the client resumes).
   */
  async function postSink(
    sink: ReplySink,
    exchange: HttpExchange,
    session: SessionRef,
    keepOnClose: () => void,
  ): Promise<ReplySink> {
    const tag = await tagOf(session);
    return {
      send: (status, headers, body) => sink.send(status, headers, body),
      openStream(headers) {
        const connection = sink.openStream(headers);
        const id = `p.${tag}.${randomHex(16)}`;
        const stream = new LiveStream(id, host, () => posts.delete(id));
        posts.set(id, stream);
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
      const events: [string, object][] = [];
      let found: string | undefined;
      try {
        found = await host.store.replayAfter(lastEventId, (id, message) =>
          events.push([id, message]),
        );
      } catch (error) {
        host.report(`mcp-gen: replaying after ${lastEventId}: ${describe(error)}`);
        outcome = "failed";
        return;
      }
      if (found === undefined) return void (outcome = "refused");
      const connection = sink.openStream(EVENT_STREAM_HEADERS);
      for (const [id, message] of events) connection.event(message, id);
      if (live && !live.ended) {
        live.attach(connection, exchange);
        if (adopted) await catchUp(host, live, session, events.at(-1)?.[0] ?? lastEventId);
        return;
      }
      // A POST's stream no instance here writes: over once its response was sent; else the
      // client polls (2025-11-25 transports: close with `retry`, the client reconnects), and
      // whichever instance writes it records what comes next in the shared store.
      if (!events.some(([, message]) => isResponse(message)))
        connection.mark({ retryMs: host.retryMs });
      connection.end();
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

function refuse(sink: ReplySink, message: string): void {
  // 400, not 404: a 404 on a session's request tells the client that its session is gone.
  sendJson(sink, 400, errorBody(JSONRPC_ERRORS.INVALID_REQUEST, message));
}
