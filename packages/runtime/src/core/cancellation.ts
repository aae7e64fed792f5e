// A request's cancellation whose AbortSignal is made only when someone reads it. Making an
// AbortSignal (and listening on one) is a measurable part of serving one HTTP request
// (BENCH=http profiles: about a tenth of the server's CPU went to the two signals each
// request made, the transport's and the router's), yet most handlers never read
// `ctx.signal`. The transport and the router pass a Cancellation down instead; a handler
// that reads `ctx.signal` gets a real AbortSignal, aborted already if the request was.

/** What a cancellation's follower reads: whether it fired, and a way to hear when it does. */
export interface CancellationWatch {
  readonly aborted: boolean;
  /** Why it fired (undefined while it has not). */
  readonly reason: unknown;
  /** An AbortSignal following this cancellation, made on first read. */
  readonly signal: AbortSignal;
  /**
   * Calls `listener` once, when the cancellation fires (never when it has fired already:
   * check `aborted` first); returns the unsubscribe.
   */
  onAbort(listener: (reason: unknown) => void): () => void;
}

const NOTHING_TO_UNSUBSCRIBE = () => undefined;

/** A cancellation that can be fired (`abort`), read as a CancellationWatch. */
export class Cancellation implements CancellationWatch {
  #controller: AbortController | undefined;
  #aborted = false;
  #reason: unknown;
  #listeners: ((reason: unknown) => void)[] | undefined;

  get aborted(): boolean {
    return this.#aborted;
  }

  get reason(): unknown {
    return this.#reason;
  }

  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  /** Fires the cancellation (once: later calls do nothing). */
  abort(reason: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    const listeners = this.#listeners;
    this.#listeners = undefined;
    this.#controller?.abort(reason);
    for (const listener of listeners ?? []) listener(reason);
  }

  onAbort(listener: (reason: unknown) => void): () => void {
    if (this.#aborted) return NOTHING_TO_UNSUBSCRIBE;
    (this.#listeners ??= []).push(listener);
    return () => {
      const at = this.#listeners?.indexOf(listener) ?? -1;
      if (at !== -1) this.#listeners!.splice(at, 1);
    };
  }
}

/**
 * An AbortSignal read as a CancellationWatch. Given a function instead, the watch calls it
 * for the signal each time it is read, and not before: a signal made on first read (a
 * RequestContext's `signal` getter) stays unmade while nobody reads the watch.
 */
export function watchSignal(signal: AbortSignal | (() => AbortSignal)): CancellationWatch {
  return new SignalWatch(typeof signal === "function" ? signal : () => signal);
}

/**
 * watchSignal's watch: a class, its getters on the prototype (an object literal with getters
 * is built on V8's slow path, and a legacy request makes one).
 */
class SignalWatch implements CancellationWatch {
  readonly #current: () => AbortSignal;

  constructor(current: () => AbortSignal) {
    this.#current = current;
  }

  get aborted(): boolean {
    return this.#current().aborted;
  }

  get reason(): unknown {
    return this.#current().reason as unknown;
  }

  get signal(): AbortSignal {
    return this.#current();
  }

  onAbort(listener: (reason: unknown) => void): () => void {
    const signal = this.#current();
    if (signal.aborted) return NOTHING_TO_UNSUBSCRIBE;
    const onAbort = () => listener(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    return () => signal.removeEventListener("abort", onAbort);
  }
}

/** The cancellation a caller handed over: its `cancellation`, else its `signal`, else none. */
export function cancellationOf(context: {
  readonly cancellation?: CancellationWatch | undefined;
  readonly signal?: AbortSignal | undefined;
}): CancellationWatch | undefined {
  if (context.cancellation) return context.cancellation;
  return context.signal ? watchSignal(context.signal) : undefined;
}
