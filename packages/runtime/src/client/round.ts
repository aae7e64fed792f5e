import { McpError } from "../core/errors.js";
import { isObject, type ProtocolDescriptor } from "../core/protocol.js";
import { McpProtocolError, RequestTimeoutError } from "./errors.js";
import { timeoutOption } from "../core/options.js";
import type { CallOptions, Transport } from "../core/transport.js";

// One request round of the client engine: a new id, the request, its response; progress
// and log notifications routed to the call; cancellation on abort or timeout. The same in
// every era: legacy sessions use the same ids, timeouts and progress.

type Json = Record<string, unknown>;

const abortError = (signal: AbortSignal): unknown => signal.reason ?? new Error("aborted");

/** How one round is sent, beside the caller's options. */
export interface RoundOptions {
  /** Extra transport headers (Mcp-Param-* mirrors of tool arguments). */
  headers?: Record<string, string> | undefined;
  /** Send notifications/cancelled on abort or timeout (not where closing the stream is the cancellation). */
  cancelNotice: boolean;
  /** A long-lived request (subscriptions/listen): no timeout unless the call asks for one. */
  longLived?: boolean;
}

export interface RoundSender {
  send(
    method: string,
    params: Json,
    opts: CallOptions,
    progressToken: string | undefined,
    round: RoundOptions,
  ): Promise<Json>;
  /** A progress token no other request of this sender uses. */
  progressToken(): string;
}

export function createRoundSender(
  protocol: ProtocolDescriptor,
  transport: Transport,
  defaultTimeout: number,
  maxTimeout: number,
): RoundSender {
  const { wellKnown } = protocol;
  const callNotifications = { progress: wellKnown.progress, log: wellKnown.log };
  let nextId = 0;

  async function send(
    method: string,
    params: Json,
    opts: CallOptions,
    progressToken: string | undefined,
    { headers, cancelNotice, longLived = false }: RoundOptions,
  ): Promise<Json> {
    const signal = opts.signal;
    if (signal?.aborted) throw abortError(signal);
    const id = ++nextId;
    opts.onRequestId?.(id);
    const message = { jsonrpc: "2.0", id, method, params };
    // A long-lived request lives as long as the caller's signal lets it (2026-07-28
    // basic/patterns/subscriptions: the stream "stays open and delivers notifications until
    // the client cancels it"); only a timeout the call names bounds it.
    const untimed = longLived && opts.timeoutMs === undefined;
    const callTimeout = timeoutOption(opts.timeoutMs, "timeoutMs", defaultTimeout);
    const ceiling = longLived ? callTimeout : maxTimeout;
    const timeoutMs = Math.min(callTimeout, ceiling);
    const started = Date.now();
    const local = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const arm = () => {
      if (timer !== undefined) clearTimeout(timer);
      if (untimed) return;
      // Progress restarts the clock, never past the maximum (basic/patterns/timeouts).
      const left = Math.min(timeoutMs, ceiling - (Date.now() - started));
      timer = setTimeout(
        () => local.abort(new RequestTimeoutError(method, Date.now() - started)),
        Math.max(left, 0),
      );
    };
    arm();
    const onNotification = (notification: Json) => {
      const params = isObject(notification["params"]) ? notification["params"] : {};
      if (notification["method"] === wellKnown.progress) {
        // Another request's progress (stdio gives every call in flight all of it) is not
        // about this call: it neither restarts its clock nor reaches its listeners.
        if (progressToken === undefined || params["progressToken"] !== progressToken) return;
        if (opts.resetTimeoutOnProgress !== false) arm();
        return opts.onProgress?.(params as never);
      }
      if (notification["method"] === wellKnown.log && opts.onLog)
        return opts.onLog(params as never);
      opts.onNotification?.(notification as never);
    };
    const onAbort = () => local.abort(signal ? abortError(signal) : undefined);
    signal?.addEventListener("abort", onAbort, { once: true });
    const aborted = new Promise<never>((_, reject) => {
      local.signal.addEventListener(
        "abort",
        () => {
          // Tell the server to stop the request in flight; the reply no longer matters. Over
          // modern Streamable HTTP the transport closing the response stream is the
          // cancellation and no notifications/cancelled is expected (2026-07-28
          // basic/patterns/cancellation, "Transport-Specific Cancellation").
          if (wellKnown.cancelled !== null && cancelNotice) {
            const reason =
              local.signal.reason instanceof Error
                ? local.signal.reason.message
                : String(local.signal.reason ?? "cancelled");
            const cancel = {
              jsonrpc: "2.0",
              method: wellKnown.cancelled,
              params: { requestId: id, reason },
            };
            transport.notify(cancel).catch(() => undefined);
          }
          reject(local.signal.reason);
        },
        { once: true },
      );
    });
    aborted.catch(() => undefined);
    try {
      const request = transport.request(message, {
        signal: local.signal,
        ...(headers ? { headers } : {}),
        onNotification,
        callNotifications,
        // The user may take a while at the authorization server: that time is not the server's.
        onAuthorizing: (active) => (active ? clearTimeout(timer) : arm()),
      });
      const response = (await Promise.race([request, aborted])) as Json;
      if (response["id"] !== id)
        throw new McpProtocolError(
          `response id ${JSON.stringify(response["id"])} does not match request id ${id}`,
        );
      const error = response["error"];
      if (isObject(error))
        throw new McpError(Number(error["code"]), String(error["message"]), error["data"]);
      const result = response["result"];
      if (!isObject(result))
        throw new McpProtocolError(`the ${method} response has no result object`);
      return result;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    }
  }

  return {
    send,
    progressToken: () => `p${nextId + 1}-${Math.random().toString(36).slice(2, 10)}`,
  };
}
