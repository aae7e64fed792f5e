import { parseEventId, type EventStore } from "./event-store.js";
import type { EventStream, HttpExchange } from "./exchange.js";
import { sessionNoticePosition } from "../../../server/notice-position.js";
import type { MissedNotices } from "../../../server/message-bus.js";

// One resumable SSE stream while this instance writes it (resumable.ts): its events are
// recorded in the event store, then written to its connection if one is open.

/** What a resumable stream needs of the HTTP handler that owns it (resumable.ts). */
export interface ResumableHost {
  store: EventStore;
  /** The `retry` sent before closing a connection whose stream is not over. */
  retryMs: number;
  report(line: string): void;
  /** The session notices a session missed after an event (the dispatcher's, when it has a history). */
  missedNotices?: MissedNotices | undefined;
}

export const describe = (error: unknown) =>
  error instanceof Error ? error.message : String(error);

/**
 * One resumable stream while this instance writes it. Its events are recorded, then written
 * to its connection if one is open; everything goes through one queue, so events keep their
 * order and a resumption sees each event exactly once: in the replay or written after it.
 */
export class LiveStream {
  ended = false;
  /** Called once, when the first event with an id was written (the client can resume now). */
  onIdWritten: (() => void) | undefined;
  private chain: Promise<void> = Promise.resolve();
  private connection: { stream: EventStream; release: () => void } | undefined;
  /** An append failed: events go out without ids from then on (the store has a gap). */
  private broken = false;
  /** Session notices up to this history position are on the stream already (caught up). */
  private caughtUpTo: string | undefined;
  /** The store holds the stream for this instance (EventStore.hold): finished at the end. */
  private held = false;

  constructor(
    readonly id: string,
    private readonly host: ResumableHost,
    private readonly onEnd: () => void = () => undefined,
  ) {}

  /**
   * Has the store hold the stream for this instance (a POST's stream: `ending` is the error
   * response it ends with if this instance dies first), before anything is recorded on it:
   * a client holds no id of it before. A failure is reported, and the stream goes on (it
   * cannot be settled then; a resumption polls as without a lease).
   */
  hold(ending: object): void {
    const { store } = this.host;
    if (!store.hold || !store.finish) return;
    void this.queue(async () => {
      await store.hold!(this.id, ending);
      this.held = true;
    }).catch(() => undefined);
  }

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
      // Not waited for: the client has what it needs; a resumption reads "over" after this.
      if (this.held)
        this.host.store.finish!(this.id).catch((error: unknown) => {
          this.host.report(`mcp-gen: finishing SSE stream ${this.id}: ${describe(error)}`);
        });
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

/** Whether history position `a` (an event id, its cursor a Redis entry id) comes after `b`. */
function laterPosition(a: string, b: string): boolean {
  const [am = 0, as = 0] = (parseEventId(a)?.cursor ?? "").split("-").map(Number);
  const [bm = 0, bs = 0] = (parseEventId(b)?.cursor ?? "").split("-").map(Number);
  return am > bm || (am === bm && as > bs);
}
