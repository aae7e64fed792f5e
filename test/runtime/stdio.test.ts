import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { readLines } from "../../runtime/stdio.js";

describe("runtime stdio line reader", () => {
  it("drops a line over the limit without buffering it, and goes on with the next", async () => {
    const input = new PassThrough();
    const lines: string[] = [];
    let oversize = 0;
    const done = readLines(input, 1000, (l) => lines.push(l), () => oversize++);
    input.write('{"a":1}\r\n{"b"');
    input.write(":2}\n");
    for (let i = 0; i < 100; i++) input.write("x".repeat(100));
    input.write('\n{"c":3}');
    input.end();
    await done;
    expect(lines).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
    expect(oversize).toBe(1);
  });
});
