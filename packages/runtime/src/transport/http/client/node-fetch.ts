import { request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from "node:http";
import { request as httpsRequest } from "node:https";

// The HTTP client transport's default fetch on Node.js (package.json "imports": the "node"
// condition of #default-fetch): the requests it sends, over node:http / node:https and their
// global keep-alive agents, answered with standard Response objects. Measured with
// `BENCH=client npm run bench` (docs/benchmarks.md): Node's built-in fetch (undici) spent
// most of a call's client CPU time (per request: a Request and its clone, the body teed,
// web streams both ways, transferable AbortSignals); this takes a fraction of it. Anything
// this does not carry the same way (a Request object, a body other than a string or bytes,
// redirects followed, another scheme) goes to globalThis.fetch unchanged.
//
// fetch's failure contract is kept, since the transport tells failures apart by it: a
// request that gets no response rejects with a TypeError whose `cause` is the socket's
// error; a body that breaks errors its stream with a TypeError ("terminated"); an abort
// rejects with (or errors the body with) the signal's reason.

type Body = string | Uint8Array;

/** Statuses whose Response has no body (a Response with one cannot be made). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/** The request's headers as node:http takes them: a record (what the transport sends), or any HeadersInit. */
function plainHeaders(headers: RequestInit["headers"]): OutgoingHttpHeaders {
  if (headers === undefined) return {};
  if (headers instanceof Headers || Array.isArray(headers))
    return Object.fromEntries(new Headers(headers));
  return { ...(headers as Record<string, string>) };
}

/** The response's headers, repeated ones kept as sent. */
function responseHeaders(raw: readonly string[]): Headers {
  const headers = new Headers();
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  return headers;
}

/**
 * The response body as a web stream, pulled: the socket is paused while a chunk waits to be
 * read (a slow reader of an event stream holds the server back instead of the heap growing).
 */
function bodyStream(res: IncomingMessage, signal: AbortSignal | undefined): ReadableStream {
  let settled = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const fail = (error: unknown) => {
        if (settled) return;
        settled = true;
        controller.error(error);
      };
      res.on("data", (chunk: Buffer) => {
        controller.enqueue(chunk);
        if ((controller.desiredSize ?? 0) <= 0) res.pause();
      });
      res.once("end", () => {
        if (settled) return;
        settled = true;
        controller.close();
      });
      res.once("error", (error) =>
        fail(signal?.aborted ? signal.reason : new TypeError("terminated", { cause: error })),
      );
      // Closed before its end without an error event (the socket destroyed under it).
      res.once("close", () => {
        if (!res.complete)
          fail(signal?.aborted ? signal.reason : new TypeError("terminated", { cause: res }));
      });
    },
    pull() {
      res.resume();
    },
    cancel() {
      settled = true;
      res.destroy();
    },
  });
}

/** A fetch over node:http and node:https for what the transport sends; see the file's head. */
export const nodeFetch: typeof fetch = (input, init = {}) => {
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : undefined;
  const body = init.body ?? undefined;
  const scheme = url?.slice(0, url.indexOf(":"));
  if (
    url === undefined ||
    (scheme !== "http" && scheme !== "https") ||
    init.redirect !== "manual" ||
    (body !== undefined && typeof body !== "string" && !(body instanceof Uint8Array))
  )
    return globalThis.fetch(input, init);
  return send(url, scheme === "https", init, body as Body | undefined);
};

function send(
  url: string,
  secure: boolean,
  init: RequestInit,
  body: Body | undefined,
): Promise<Response> {
  const signal = init.signal ?? undefined;
  if (signal?.aborted) return Promise.reject(signal.reason);
  const headers = plainHeaders(init.headers);
  if (body !== undefined && headers["content-length"] === undefined)
    headers["content-length"] = String(
      typeof body === "string" ? Buffer.byteLength(body) : body.byteLength,
    );
  return new Promise<Response>((resolve, reject) => {
    const request = (secure ? httpsRequest : httpRequest)(url, {
      method: init.method ?? "GET",
      headers,
    });
    const onAbort = () => {
      reject(signal!.reason);
      request.destroy(signal!.reason instanceof Error ? signal!.reason : undefined);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    // The response's end (or the request's failure) releases the abort listener.
    request.once("close", () => signal?.removeEventListener("abort", onAbort));
    request.once("error", (error) =>
      reject(signal?.aborted ? signal.reason : new TypeError("fetch failed", { cause: error })),
    );
    request.once("response", (res) => {
      const status = res.statusCode ?? 0;
      const noBody = NULL_BODY.has(status) || init.method === "HEAD";
      if (noBody) res.resume();
      try {
        resolve(
          new Response(noBody ? null : bodyStream(res, signal), {
            status,
            statusText: res.statusMessage ?? "",
            headers: responseHeaders(res.rawHeaders),
          }),
        );
      } catch (error) {
        // A status a Response cannot have (below 200 or above 599): no fetch answer either.
        res.destroy();
        reject(new TypeError("fetch failed", { cause: error }));
      }
    });
    request.end(body);
  });
}
