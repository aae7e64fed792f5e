import { TransportError } from "../../../core/transport-error.js";

/**
 * The requests under way on the HTTP client transport, each with its own controller: they
 * are aborted when the session ends or the transport closes, since no stream of theirs can
 * answer any more. Once closed, later messages are refused.
 */
export class InflightRequests {
  // Set by close(): later messages are refused with it.
  #closed: TransportError | undefined = undefined;
  readonly #controllers = new Set<AbortController>();

  /** Why the transport refuses messages: undefined until it closed. */
  get closed(): TransportError | undefined {
    return this.#closed;
  }

  /** How many requests are under way. */
  get size(): number {
    return this.#controllers.size;
  }

  /**
   * A request's signal, aborted with `own` and when the session ends or the transport closes;
   * `release()` when the request is over. Throws the closing's error once closed.
   */
  link(own: AbortSignal | undefined): { signal: AbortSignal; release(): void } {
    if (this.#closed) throw this.#closed;
    const controller = new AbortController();
    const onOwn = () => controller.abort(own!.reason);
    if (own?.aborted) controller.abort(own.reason);
    own?.addEventListener("abort", onOwn, { once: true });
    this.#controllers.add(controller);
    const release = () => (
      this.#controllers.delete(controller),
      own?.removeEventListener("abort", onOwn)
    );
    return { signal: controller.signal, release };
  }

  /** Fails the requests under way with `reason`. */
  abortAll(reason: TransportError): void {
    for (const controller of this.#controllers) controller.abort(reason);
    this.#controllers.clear();
  }

  /** Refuses later messages and fails those under way; returns the closing's error. */
  close(): TransportError {
    this.#closed ??= new TransportError("closed", "the transport was closed");
    this.abortAll(this.#closed);
    return this.#closed;
  }
}
