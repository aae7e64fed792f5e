import { describe, expect, it } from "vitest";
import {
  readSseEvents,
  readSseMessages,
  SseLimitError,
  SseReadError,
} from "../src/transport/sse.js";

function stream(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const c of chunks) controller.enqueue(encoder.encode(c));
      controller.close();
    },
  });
}

async function collect<T>(items: AsyncGenerator<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

describe("runtime SSE reader", () => {
  it("reads events split anywhere, with any line ending, including \\r\\n across chunks", async () => {
    const text =
      'event: message\r\nid: 7\r\nretry: 1500\r\ndata: {"a":\r\ndata: 1}\r\n\r\n: comment\n\ndata: {"b":2}\n\n';
    for (let cut = 1; cut < text.length; cut++) {
      const events = await collect(
        readSseEvents(stream([text.slice(0, cut), text.slice(cut)]), 1000),
      );
      expect(events).toEqual([
        { data: '{"a":\n1}', id: "7", event: "message", retry: 1500 },
        { data: '{"b":2}', id: "7", event: undefined, retry: 1500 },
      ]);
    }
  });

  it("yields the JSON messages, skipping data that is not JSON", async () => {
    expect(await collect(readSseMessages(stream(["data: nope\n\ndata: [1]\n\n"]), 100))).toEqual([
      [1],
    ]);
  });

  it("refuses an event over the limit, with or without line ends", async () => {
    await expect(
      collect(readSseEvents(stream([`data: ${"x".repeat(200)}\n\n`]), 100)),
    ).rejects.toBeInstanceOf(SseLimitError);
    await expect(
      collect(readSseEvents(stream(["data: ", "y".repeat(150), "z".repeat(150)]), 100)),
    ).rejects.toBeInstanceOf(SseLimitError);
    const many = Array.from({ length: 50 }, () => "data: 12345\n").join("");
    await expect(collect(readSseEvents(stream([many]), 100))).rejects.toBeInstanceOf(SseLimitError);
  });

  it("reads a 5 MB event from small chunks (linear: each chunk is scanned once)", async () => {
    const payload = JSON.stringify({ text: "x".repeat(5_000_000) });
    const text = `data: ${payload}\n\n`;
    const chunks: string[] = [];
    for (let i = 0; i < text.length; i += 16_384) chunks.push(text.slice(i, i + 16_384));
    const [message] = await collect(readSseMessages(stream(chunks), 8_000_000));
    expect((message as { text: string }).text.length).toBe(5_000_000);
  });

  it("reports a body that fails mid-stream (a dropped connection) as SseReadError, after the events before it", async () => {
    const reset = new TypeError("terminated");
    // The connection drops when the reader asks for more than the first chunk.
    const chunks = [new TextEncoder().encode("id: e1\ndata: 1\n\ndata: 2")];
    const body = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          const chunk = chunks.shift();
          if (chunk) controller.enqueue(chunk);
          else controller.error(reset);
        },
      },
      { highWaterMark: 0 },
    );
    const seen: string[] = [];
    const reading = (async () => {
      for await (const event of readSseEvents(body, 100)) seen.push(`${event.id}:${event.data}`);
    })();
    const error = await reading.catch((e) => e);
    expect(error).toBeInstanceOf(SseReadError);
    expect(error.cause).toBe(reset);
    expect(seen).toEqual(["e1:1"]);
  });
});
