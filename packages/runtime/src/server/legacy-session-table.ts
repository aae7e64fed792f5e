import type { HandleContext } from "./context.js";
import type { Dispatcher } from "./router-types.js";
import type { LegacySession } from "./legacy-session.js";

// The legacy sessions an era dispatcher keeps open, one per channel (the stdio process, or an
// HTTP session), each with the router of its negotiated revision; and the streams that
// reach them for messages not tied to a request (list changes, resource updates).

/** Tells the dispatcher's error hook about a failure no reply carries. */
export type ReportError = (error: unknown, method: string) => void;

/** A session open on a channel, with the router serving its revision. */
export interface OpenSession {
  readonly session: LegacySession;
  readonly router: Dispatcher;
}

/** The channel of calls that name none: one shared by all of them (e.g. stdio). */
const DEFAULT_CHANNEL = {};

/** The channel a message came on. */
export const channelOf = (context: HandleContext): object => context.channel ?? DEFAULT_CHANNEL;

export class LegacySessionTable {
  private readonly byChannel = new WeakMap<object, OpenSession>();
  /** The open sessions, for notifications to all of them (a WeakMap cannot be walked). */
  private readonly live = new Set<LegacySession>();
  private readonly reportError: ReportError;

  constructor(reportError: ReportError) {
    this.reportError = reportError;
  }

  get(channel: object): OpenSession | undefined {
    return this.byChannel.get(channel);
  }

  /** Opens `session` on `channel`, ending the one open there (the client initialized again). */
  open(channel: object, session: LegacySession, router: Dispatcher): void {
    const previous = this.byChannel.get(channel)?.session;
    previous?.close("the client initialized again");
    if (previous) this.live.delete(previous);
    this.byChannel.set(channel, { session, router });
    this.live.add(session);
  }

  /** Ends the session on `channel` (requests it awaits fail). */
  end(channel: object): void {
    const open = this.byChannel.get(channel)?.session;
    open?.close();
    if (open) this.live.delete(open);
    this.byChannel.delete(channel);
  }

  /** Makes `send` the session's stream for messages not tied to a request; returns its detach. */
  attachStream(channel: object, send: (message: object) => unknown): () => void {
    const session = this.byChannel.get(channel)?.session;
    if (!session) return () => undefined;
    session.stream = send;
    return () => {
      if (session.stream === send) session.stream = undefined;
    };
  }

  /**
   * Sends `notification` to every session with an open stream, or those `filter` picks;
   * returns how many got it. A stream that throws is reported, and the others still get it.
   */
  notify(notification: object, filter?: (session: LegacySession) => boolean): number {
    let sent = 0;
    for (const session of this.live) {
      if (!session.stream || (filter && !filter(session))) continue;
      try {
        session.stream(notification);
        sent++;
      } catch (error) {
        this.reportError(error, String((notification as { method?: unknown }).method ?? ""));
      }
    }
    return sent;
  }
}
