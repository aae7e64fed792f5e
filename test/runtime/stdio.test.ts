import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { createStdioTransport, readLines, TransportError } from "../../runtime/stdio.js";

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

describe("runtime stdio client transport: a server that fails", () => {
  const call = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "x" } };
  /** A fake server: node running `script`. */
  const server = (script: string, stderr: "pipe" | "ignore" = "pipe") =>
    createStdioTransport({ command: process.execPath, args: ["-e", script], stderr });

  it("that cannot start is a TransportError (unreachable) with the spawn error as its cause", async () => {
    const transport = createStdioTransport({ command: "no-such-mcp-server-here" });
    const error = await transport.request(call).catch((e) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ kind: "unreachable", cause: { code: "ENOENT" } });
    expect(error.message).toMatch(/could not start the server no-such-mcp-server-here: .*ENOENT/);
  });

  it("that exits mid-call is a TransportError (exited) carrying the last 2 KB of its stderr", async () => {
    const script = `process.stderr.write(Array.from({ length: 500 }, (_, i) => "line " + i).join("\\n") + "\\nboom: no database\\n"); process.stdin.once("data", () => process.exit(3));`;
    const transport = server(script);
    const error = await transport.request(call).catch((e) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ kind: "exited" });
    expect(error.message).toMatch(/the server process exited \(code 3\)[^]*boom: no database/);
    expect(error.stderr).toMatch(/^line \d+\n[^]*\nline 499\nboom: no database$/); // whole lines only
    expect(Buffer.byteLength(error.stderr)).toBeLessThanOrEqual(2048);
    await expect(transport.request({ ...call, id: 2 })).rejects.toBe(error);
  });

  it("killed, without captured stderr, names the signal", async () => {
    const transport = server(`process.stdin.once("data", () => process.kill(process.pid, "SIGKILL"));`, "ignore");
    const error = await transport.request(call).catch((e) => e);
    expect(error).toMatchObject({ name: "TransportError", kind: "exited", stderr: undefined });
    expect(error.message).toBe("the server process exited (SIGKILL)");
  });

  it("close() rejects the calls in flight with TransportError (closed), and refuses later ones", async () => {
    const transport = server(`process.stdin.resume(); process.stdin.on("end", () => process.exit(0));`);
    const inFlight = transport.request(call).catch((e) => e);
    await transport.close!();
    expect(await inFlight).toMatchObject({ name: "TransportError", kind: "closed" });
    await expect(transport.request({ ...call, id: 2 })).rejects.toMatchObject({ kind: "closed" });
    await expect(transport.notify({ jsonrpc: "2.0", method: "notifications/initialized" })).rejects.toThrow(/transport was closed/);
  });
});
