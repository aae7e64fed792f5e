import { once } from "node:events";
import { PassThrough, Writable } from "node:stream";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createRouter } from "../src/server/router.js";
import {
  createStdioTransport,
  readLines,
  serveStdio,
  TransportError,
} from "../src/transport/stdio/stdio.js";
import { within } from "../../cli/test/support/wait.js";
import { createEraDispatcher } from "../src/server/era-dispatcher.js";
import {
  dualEras,
  LEGACY_INITIALIZE,
  LEGACY_PROTOCOL,
  PROTOCOL,
  request,
  VALIDATORS,
} from "./fixture.js";

afterEach(() => void vi.useRealTimers());

describe("runtime stdio line reader", () => {
  it("drops a line over the limit without buffering it, and goes on with the next", async () => {
    const input = new PassThrough();
    const lines: string[] = [];
    let oversize = 0;
    const done = readLines(
      input,
      1000,
      (l) => lines.push(l),
      () => oversize++,
    );
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

  it("that stops reading and exits (a start-up failure) is exited with its stderr, not the EPIPE of the write", async () => {
    // Such a server closes its input before the first message arrives: the write fails with EPIPE
    // before the exit is seen. What the host needs is the exit code and what the server said.
    // This one exits once told (SIGUSR2), after the test saw the write fail.
    const script = `require("fs").closeSync(0); process.on("SIGUSR2", () => process.exit(1)); setInterval(() => {}, 1000); process.stderr.write("Error: API_KEY is not set\\n");`;
    const transport = server(script);
    await once(transport.process.stderr!, "data"); // its input is closed by now
    const refused = once(transport.process.stdin!, "error");
    const failed = transport.request(call).catch((e) => e);
    await within(refused, "the write failing");
    transport.process.kill("SIGUSR2");
    const error = await failed;
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ kind: "exited", stderr: "Error: API_KEY is not set" });
    expect(error.message).toMatch(/^the server process exited \(code 1\)\n[^]*API_KEY is not set$/);
    await expect(transport.request({ ...call, id: 2 })).rejects.toBe(error);
  });

  it("that stops reading but keeps running is dropped, once the wait for its exit is over", async () => {
    const transport = server(
      `require("fs").closeSync(0); process.stderr.write("closed\\n"); setInterval(() => {}, 1000);`,
    );
    const child = transport.process;
    await once(child.stderr!, "data");
    // The wait for its exit (1 s) and close()'s wait before SIGTERM (2 s) run on fake timers.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const refused = once(child.stdin!, "error"); // emitted after the write's callback
    let settled = false;
    const failed = transport.request(call).catch((e) => e);
    void failed.finally(() => (settled = true));
    await within(refused, "the write failing");
    await vi.advanceTimersByTimeAsync(999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const error = await failed;
    expect(error).toMatchObject({ name: "TransportError", kind: "dropped" });
    expect(error.message).toMatch(/^the server stopped reading: .*EPIPE/);
    const closed = transport.close!();
    await vi.advanceTimersByTimeAsync(2000);
    await closed;
    expect(child.signalCode).toBe("SIGTERM");
  });

  it("that is not an MCP server (a usage text on stdout, then exit) is exited quoting its last line that was not JSON", async () => {
    const usage = `Usage: weather-server [--port N]${"!".repeat(300)}`;
    const script = `process.stdout.write('{"jsonrpc":"2.0","method":"notifications/message","params":{}}\\nstarting\\n${usage}\\n'); process.stdin.once("data", () => process.exit(2));`;
    const transport = server(script, "ignore");
    const error = await transport.request(call).catch((e) => e);
    expect(error).toMatchObject({ name: "TransportError", kind: "exited" });
    expect(error.message).toBe(
      `the server process exited (code 2); its last line on stdout that was not JSON: ${JSON.stringify(`${usage.slice(0, 200)}...`)}`,
    );
  });

  it("killed, without captured stderr, names the signal", async () => {
    const transport = server(
      `process.stdin.once("data", () => process.kill(process.pid, "SIGKILL"));`,
      "ignore",
    );
    const error = await transport.request(call).catch((e) => e);
    expect(error).toMatchObject({ name: "TransportError", kind: "exited", stderr: undefined });
    expect(error.message).toBe("the server process exited (SIGKILL)");
  });

  it("close() ends a server that ignores both the end of its input and SIGTERM: SIGKILL, after 2 s more", async () => {
    const transport = server(
      `process.on("SIGTERM", () => process.stderr.write("ignoring SIGTERM\\n")); setInterval(() => {}, 1000); process.stdout.write("ready\\n");`,
    );
    await once(transport.process.stdout!, "data"); // its SIGTERM handler is in place
    const child = transport.process;
    const terms: string[] = [];
    child.stderr!.on("data", (chunk) => terms.push(String(chunk).trim()));
    // close()'s two waits run on fake timers: the test lets each 2 s pass, and checks that
    // nothing was sent before.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const closed = transport.close!();
    await vi.advanceTimersByTimeAsync(1999);
    expect(child.killed).toBe(false); // no signal yet: its input was closed, it may still exit
    const termed = once(child.stderr!, "data");
    await vi.advanceTimersByTimeAsync(1);
    await within(termed, "the server reporting SIGTERM");
    await vi.advanceTimersByTimeAsync(1999);
    expect(child.exitCode === null && child.signalCode === null).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    await closed;
    expect(child.signalCode).toBe("SIGKILL");
    expect(terms).toEqual(["ignoring SIGTERM"]);
  });

  it("close() rejects the calls in flight with TransportError (closed), and refuses later ones", async () => {
    const transport = server(
      `process.stdin.resume(); process.stdin.on("end", () => process.exit(0));`,
    );
    const inFlight = transport.request(call).catch((e) => e);
    await transport.close!();
    expect(await inFlight).toMatchObject({ name: "TransportError", kind: "closed" });
    await expect(transport.request({ ...call, id: 2 })).rejects.toMatchObject({ kind: "closed" });
    await expect(
      transport.notify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    ).rejects.toThrow(/transport was closed/);
  });
});

describe("runtime stdio client transport: notifications, with no per-request stream", () => {
  // A server that, once it holds `n` requests, sends one log message and one progress
  // notification per request, then answers them all.
  const server = (n: number) =>
    createStdioTransport({
      command: process.execPath,
      args: [
        "-e",
        `const ids = []; require("readline").createInterface({ input: process.stdin }).on("line", (line) => {
        ids.push(JSON.parse(line).id);
        if (ids.length < ${n}) return;
        const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...m }) + "\\n");
        send({ method: "notifications/message", params: { level: "info", data: "working" } });
        for (const id of ids) send({ method: "notifications/progress", params: { progressToken: id, progress: 1 } });
        for (const id of ids) send({ id, result: {} });
      });`,
      ],
      stderr: "ignore",
    });
  const run = async (n: number) => {
    const transport = server(n);
    const session: string[] = [];
    transport.legacy!.onNotification((m) => session.push(String(m.method)));
    const perCall = Array.from({ length: n }, () => [] as string[]);
    await Promise.all(
      perCall.map((seen, i) =>
        transport.request(
          { jsonrpc: "2.0", id: i + 1, method: "tools/call", params: {} },
          {
            onNotification: (m) => void seen.push(String(m.method)),
            // As the client engine passes them, from the revision's protocol descriptor.
            callNotifications: { progress: "notifications/progress", log: "notifications/message" },
          },
        ),
      ),
    );
    await transport.close!();
    return { session, perCall };
  };

  it("a log message goes to the one request in flight", async () => {
    expect(await run(1)).toEqual({
      session: [],
      perCall: [["notifications/message", "notifications/progress"]],
    });
  });

  it("with several in flight, a log message is the session's, not each request's (progress still reaches each, matched by token)", async () => {
    const { session, perCall } = await run(3);
    expect(session).toEqual(["notifications/message"]);
    for (const seen of perCall) expect(seen).toEqual(Array(3).fill("notifications/progress"));
  });
});

describe("runtime stdio server: a client that goes away mid-call", () => {
  it("aborts the requests in flight and says so on stderr, instead of dying of an unhandled EPIPE", async () => {
    // The client exited: every write to its end of the pipe fails with EPIPE.
    const written: string[] = [];
    const output = new Writable({
      write(chunk, _encoding, callback) {
        written.push(String(chunk));
        callback(Object.assign(new Error("write EPIPE"), { code: "EPIPE" }));
      },
    });
    let aborted: (reason: unknown) => void;
    const handlerAborted = new Promise((resolve) => (aborted = resolve));
    const router = createRouter(PROTOCOL, VALIDATORS, "client->server", {
      "tools/call": async (_params: unknown, ctx: any) => {
        await ctx.sendProgress(1, 10);
        await new Promise((resolve) =>
          ctx.signal.addEventListener("abort", resolve, { once: true }),
        );
        aborted(ctx.signal.reason);
        return { content: [] };
      },
    });
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      const input = new PassThrough();
      const served = serveStdio(router, { input, output });
      input.write(
        `${JSON.stringify(request("tools/call", 1, { name: "slow", _meta: { v: "2099-01-01", caps: {}, progressToken: "p" } }))}\n`,
      );
      expect(await handlerAborted).toMatchObject({ code: "EPIPE" });
      input.end();
      await served.done;
      // Only the progress line was attempted: the reply was not written into the broken pipe.
      expect(written).toHaveLength(1);
      expect(written[0]).toContain("notifications/progress");
      const lines = stderr.mock.calls.map(([text]) => String(text));
      expect(lines.filter((l) => l.startsWith("mcp: output closed"))).toEqual([
        "mcp: output closed (EPIPE): the client is gone; requests in flight are cancelled\n",
      ]);
    } finally {
      stderr.mockRestore();
    }
  }, 10_000);
});

describe("runtime stdio client transport: the server cancels a request it sent (legacy session)", () => {
  // A raw-protocol server: on tools/call it asks e1, cancels it, sends cancellations for an
  // unknown id and a malformed one, then asks e2. Once e2 is answered it cancels e2 (finished by
  // then) and, a moment later, answers tools/call with the ids of every response it received.
  const script = `
    const send = (m) => process.stdout.write(JSON.stringify(m) + "\\n");
    const ask = (id) => send({ jsonrpc: "2.0", id, method: "elicitation/create", params: { message: "?" } });
    const cancelled = (params) => send({ jsonrpc: "2.0", method: "notifications/cancelled", params });
    const received = [];
    let call;
    require("node:readline").createInterface({ input: process.stdin }).on("line", (line) => {
      const m = JSON.parse(line);
      if (m.method === "tools/call") {
        call = m.id;
        ask("e1");
        cancelled({ requestId: "e1", reason: "no longer needed" });
        cancelled({ requestId: "unknown" });
        cancelled({ reason: "no id" });
        ask("e2");
      } else if (m.method === undefined) {
        received.push(m.id);
        if (m.id !== "e2") return;
        cancelled({ requestId: "e2" });
        setTimeout(() => send({ jsonrpc: "2.0", id: call, result: { received } }), 300);
      }
    });`;

  it("aborts the handler's signal and sends no response for it; other cancellations are ignored", async () => {
    const transport = createStdioTransport({
      command: process.execPath,
      args: ["-e", script],
      stderr: "ignore",
    });
    const signals = new Map<unknown, AbortSignal>();
    const notifications: unknown[] = [];
    transport.legacy!.onServerRequest(async (request, context) => {
      // Read with care: a transport that passes no signal fails the assertions, not the handler.
      const signal = context?.signal;
      if (signal) signals.set(request["id"], signal);
      // e1 answers anyway once aborted, or after 300 ms: a response the transport must not send.
      if (request["id"] === "e1")
        await new Promise(
          (resolve) => (signal?.addEventListener("abort", resolve), setTimeout(resolve, 300)),
        );
      else await new Promise((resolve) => setTimeout(resolve, 50));
      return { jsonrpc: "2.0", id: request["id"], result: { action: "decline" } };
    });
    try {
      const response = await transport.request(
        { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "x" } },
        { onNotification: (n) => notifications.push(n["params"]) },
      );
      expect(response).toEqual({ jsonrpc: "2.0", id: 1, result: { received: ["e2"] } });
      expect(signals.get("e1")?.aborted).toBe(true);
      expect((signals.get("e1")?.reason as Error).message).toBe("no longer needed");
      expect(signals.get("e2")?.aborted).toBe(false);
      // The notifications still reach the call's listener, as before.
      expect(notifications).toHaveLength(4);
    } finally {
      await transport.close!();
    }
  });
});

describe("runtime stdio server: initialize once per connection", () => {
  it("refuses a second initialize (invalid request) and keeps the first session's version", async () => {
    // 2025-11-25 basic/lifecycle: initialization is the first interaction, once; a client
    // cannot renegotiate the version mid-connection.
    const older = { ...LEGACY_PROTOCOL, revision: "older", protocolVersion: "2097-01-01" };
    const dispatcher = createEraDispatcher(
      {
        modern: { protocol: PROTOCOL, validators: VALIDATORS },
        legacy: [LEGACY_PROTOCOL, older].map((protocol) => ({
          protocol,
          validators: VALIDATORS,
          adapters: {},
        })),
      },
      { ping: () => ({}) },
    );
    const input = new PassThrough();
    const output = new PassThrough();
    const served = serveStdio(dispatcher, { input, output });
    const replies: unknown[] = [];
    const reader = readLines(
      output,
      1 << 20,
      (line) => replies.push(JSON.parse(line)),
      () => {},
    );
    const send = (message: object) => input.write(`${JSON.stringify(message)}\n`);
    const replyTo = (id: number) =>
      within(
        (async () => {
          while (!replies.some((r: any) => r.id === id)) await once(output, "data");
          return replies.find((r: any) => r.id === id) as any;
        })(),
        `the reply to ${id}`,
      );
    send(LEGACY_INITIALIZE);
    expect((await replyTo(1)).result.protocolVersion).toBe("2098-01-01");
    send({
      ...LEGACY_INITIALIZE,
      id: 2,
      params: { ...LEGACY_INITIALIZE.params, protocolVersion: "2097-01-01" },
    });
    expect(await replyTo(2)).toEqual({
      jsonrpc: "2.0",
      id: 2,
      error: {
        code: -32600,
        message:
          "Invalid request: initialize was already received on this connection (MCP 2098-01-01); a new version needs a new connection",
      },
    });
    // The session goes on at the first version.
    send({ jsonrpc: "2.0", id: 3, method: "ping" });
    expect(await replyTo(3)).toEqual({ jsonrpc: "2.0", id: 3, result: {} });
    input.end();
    await within(served.done, "the server's end");
    output.end();
    await reader;
  });

  it("keeps the first session on the channel, whatever a second initialize asks", async () => {
    const dispatcher = createEraDispatcher(dualEras(), {});
    const channel = {};
    await dispatcher.handle(LEGACY_INITIALIZE, { channel });
    const first = dispatcher.session(channel);
    const again = await dispatcher.handle({ ...LEGACY_INITIALIZE, id: 2 }, { channel });
    expect(again).toMatchObject({ id: 2, error: { code: -32600 } });
    expect(dispatcher.session(channel)).toBe(first);
  });
});
