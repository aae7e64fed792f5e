// Server-sent events (the text/event-stream format of the HTML standard), as much as MCP
// uses: `data` lines joined into one message per event. Parsing is linear in the stream:
// each chunk is scanned once for line ends, and an event larger than the limit is refused.

/** An event grew beyond the reader's limit. */
export class SseLimitError extends Error {
  constructor(limit: number) {
    super(`an event of the stream is larger than ${limit} bytes`);
    this.name = "SseLimitError";
  }
}

/** Reading the body failed (the connection dropped): what a client may resume from. */
export class SseReadError extends Error {
  constructor(cause: unknown) {
    super(`the event stream failed: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
    this.name = "SseReadError";
  }
}

/** The fields of one event that MCP reads. */
export interface SseEvent {
  data: string;
  id: string | undefined;
  event: string | undefined;
  retry: number | undefined;
}

/** The events of a text/event-stream body. `limit` bounds one event's size in characters. */
export async function* readSseEvents(
  body: ReadableStream<Uint8Array>,
  limit: number,
): AsyncGenerator<SseEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let pending = ""; // the start of a line not yet ended
  let data: string[] = [];
  let size = 0;
  let id: string | undefined;
  let event: string | undefined;
  let retry: number | undefined;
  let afterCR = false; // a chunk ended in \r: a \n opening the next one ends no line
  let finished = false;
  const line = function* (text: string): Generator<SseEvent> {
    if (text === "") {
      if (data.length > 0) yield { data: data.join("\n"), id, event, retry };
      data = [];
      size = 0;
      event = undefined;
      return;
    }
    if (text.startsWith(":")) return;
    const colon = text.indexOf(":");
    const field = colon === -1 ? text : text.slice(0, colon);
    const value = colon === -1 ? "" : text.slice(text[colon + 1] === " " ? colon + 2 : colon + 1);
    if (field === "data") {
      size += value.length + 1;
      if (size > limit) throw new SseLimitError(limit);
      data.push(value);
    } else if (field === "id" && !value.includes("\0")) id = value;
    else if (field === "event") event = value;
    else if (field === "retry" && /^\d+$/.test(value)) retry = Number(value);
  };
  try {
    for (;;) {
      // Not `ReadableStreamReadResult`: a DOM lib name that Node's types alone do not declare.
      let read: Awaited<ReturnType<typeof reader.read>>;
      try {
        read = await reader.read();
      } catch (error) {
        finished = true; // an errored stream has nothing to cancel
        throw new SseReadError(error);
      }
      const { value, done } = read;
      const chunk = done ? decoder.decode() : decoder.decode(value, { stream: true });
      let start = 0;
      if (afterCR && chunk.charCodeAt(0) === 10) start = 1;
      afterCR = chunk.length > 0 ? chunk.charCodeAt(chunk.length - 1) === 13 : afterCR;
      for (let i = start; i < chunk.length; i++) {
        const c = chunk.charCodeAt(i);
        if (c !== 10 && c !== 13) continue;
        const text = pending + chunk.slice(start, i);
        pending = "";
        // \r\n is one line end.
        if (c === 13 && chunk.charCodeAt(i + 1) === 10) i++;
        start = i + 1;
        yield* line(text);
      }
      pending += chunk.slice(start);
      if (pending.length + size > limit) throw new SseLimitError(limit);
      if (done) {
        finished = true;
        if (pending !== "") yield* line(pending);
        yield* line("");
        return;
      }
    }
  } finally {
    // A reader that stops early (the response came) lets go of the stream: a server may keep
    // a resumed GET stream open, and an open body keeps its connection alive.
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

/** The JSON messages of a text/event-stream body (events whose data is not JSON are skipped). */
export async function* readSseMessages(
  body: ReadableStream<Uint8Array>,
  limit: number,
): AsyncGenerator<unknown> {
  for await (const event of readSseEvents(body, limit)) {
    if (event.data === "") continue;
    try {
      yield JSON.parse(event.data);
    } catch {
      // Not JSON: not a message.
    }
  }
}
