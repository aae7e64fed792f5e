import type { ProtocolDescriptor } from "../../../core/protocol.js";
import type { CancellationWatch } from "../../../core/cancellation.js";
import { createHttpCore } from "./core.js";
import {
  eventText,
  markText,
  type AuthRequestView,
  type BodyRead,
  type HttpExchange,
  type ReplySink,
} from "./exchange.js";
import type { HttpCoreOptions, MessageHandler } from "./options.js";
import type { DefaultStores } from "./store-defaults.js";

// The web-standard host of the Streamable HTTP core (core.ts): `(request) => Promise<Response>`
// for runtimes built on fetch: Cloudflare Workers, Deno, Bun, Next.js route handlers, Hono.
// A streamed answer is a ReadableStream of SSE events; the client going away (request.signal,
// or the stream cancelled) is the cancellation. Its public face, with the default stores
// wired, is src/fetch.ts (`@mcp-gen/runtime/fetch`).

/** The options of the fetch handler; `authenticate` gets the Request. */
export type FetchHandlerOptions = HttpCoreOptions<Request>;
export type { CancellationWatch } from "../../../core/cancellation.js";

/** A web-standard request handler: what Workers' `fetch`, Deno.serve and Bun.serve call. */
export type FetchHandler = (request: Request) => Promise<Response>;

/** createFetchHandler (src/fetch.ts), with the stores used when `options` give none. */
export function fetchHandler(
  defaults: DefaultStores,
  protocol: ProtocolDescriptor,
  dispatcher: MessageHandler,
  options: FetchHandlerOptions,
): FetchHandler {
  const core = createHttpCore(protocol, dispatcher, options, defaults);
  const report = options.onError ?? ((line: string) => console.error(line));
  return (request) => {
    const closing = closeSignal(request.signal);
    const { sink, response, answered } = fetchSink(closing);
    void core(fetchExchange(request, closing), sink).then(() => {
      if (answered()) return;
      report(`mcp-gen: ${request.method} ${request.url}: the core ended without an answer`);
      sink.send(500, {});
    });
    return response;
  };
}

/** Who hears that the client went away: request.signal, or the response stream cancelled. */
interface Closing {
  listen(listener: () => void): () => void;
  close(): void;
}

function closeSignal(signal: AbortSignal): Closing {
  const listeners = new Set<() => void>();
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    signal.removeEventListener("abort", close);
    for (const listener of listeners) listener();
    listeners.clear();
  };
  signal.addEventListener("abort", close, { once: true });
  return {
    listen(listener) {
      if (closed) return () => undefined;
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    close,
  };
}

function fetchExchange(request: Request, closing: Closing): HttpExchange<Request> {
  const url = new URL(request.url);
  let view: AuthRequestView | undefined;
  return {
    native: request,
    method: request.method,
    pathname: url.pathname,
    // A Request built by hand has no Host header; its URL's host is what a server's Host made.
    header: (name) => request.headers.get(name) ?? (name === "host" ? url.host : undefined),
    body: (limit, cancellation) => readBody(request, limit, cancellation),
    onClose: (listener) => closing.listen(listener),
    authView() {
      if (view) return view;
      const headers: Record<string, string> = {};
      request.headers.forEach((value, name) => (headers[name] = value));
      return (view = { method: request.method, url: url.pathname + url.search, headers });
    },
  };
}

/** The request body as text, at most `limit` bytes; "aborted" when `cancellation` fires first. */
async function readBody(
  request: Request,
  limit: number,
  cancellation: CancellationWatch,
): Promise<BodyRead> {
  if (request.bodyUsed) return { kind: "consumed" };
  const declared = Number(request.headers.get("content-length") ?? NaN);
  if (Number.isFinite(declared) && declared > limit) return { kind: "too-large" };
  if (!request.body) return { kind: "text", text: "" };
  const reader = request.body.getReader();
  const stopWatching = cancellation.onAbort(() => void reader.cancel().catch(() => undefined));
  const decoder = new TextDecoder();
  let text = "";
  let size = 0;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done)
        return cancellation.aborted
          ? { kind: "aborted" }
          : { kind: "text", text: text + decoder.decode() };
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel().catch(() => undefined);
        return { kind: "too-large" };
      }
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    return { kind: "aborted" };
  } finally {
    stopWatching();
  }
}

const encoder = new TextEncoder();

/** A sink whose first answer resolves `response`; a stream answers at once and flows after. */
function fetchSink(closing: Closing) {
  let respond!: (response: Response) => void;
  const response = new Promise<Response>((resolve) => (respond = resolve));
  let answered = false;
  const sink: ReplySink = {
    send(status, headers, body) {
      if (answered) return;
      answered = true;
      respond(new Response(body ?? null, { status, headers }));
    },
    openStream(headers) {
      let controller!: ReadableStreamDefaultController<Uint8Array>;
      let open = !answered;
      const write = (text: string) => {
        if (!open) return false;
        controller.enqueue(encoder.encode(text));
        return true;
      };
      const stream = new ReadableStream<Uint8Array>({
        start: (c) => void (controller = c),
        cancel: () => ((open = false), closing.close()),
      });
      if (!answered) {
        answered = true;
        respond(new Response(stream, { status: 200, headers }));
      }
      return {
        event: (message, id) => write(eventText(message, id)),
        mark: (fields) => void write(markText(fields)),
        comment: (text) => void write(`: ${text}\n\n`),
        end() {
          if (!open) return;
          open = false;
          controller.close();
        },
      };
    },
  };
  return { sink, response, answered: () => answered };
}
