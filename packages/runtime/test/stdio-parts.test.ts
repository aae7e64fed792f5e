// The steps of the stdio client transport on their own, without a server process: where each
// line the server writes goes, what an exit's error says, and the shutdown's signals (fake time).
import type { ChildProcess } from "node:child_process";
import { EventEmitter } from "node:events";
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ChannelCalls } from "../src/transport/channel-calls.js";
import {
  captureStderrTail,
  exitError,
  SHUTDOWN_WAIT_MS,
  shutDown,
  STDERR_TAIL_BYTES,
} from "../src/transport/stdio/stdio-process.js";
import { TransportError } from "../src/core/transport-error.js";

const line = (message: unknown) => JSON.stringify(message);
/** The progress and log methods of the calls' revision, as the client engine passes them. */
const callNotifications = { progress: "notifications/progress", log: "notifications/message" };

describe("ChannelCalls", () => {
  function calls() {
    const sent: unknown[] = [];
    const transportHeard: unknown[] = [];
    const sessionHeard: unknown[] = [];
    const stdio = new ChannelCalls({ onNotification: (n) => void transportHeard.push(n) }, (m) => {
      sent.push(m);
      return Promise.resolve();
    });
    stdio.sessionListener = (n) => void sessionHeard.push(n);
    return { stdio, sent, transportHeard, sessionHeard };
  }

  it("settles each call with the response to its id, and sends the request", async () => {
    const { stdio, sent } = calls();
    const first = stdio.call({ jsonrpc: "2.0", id: 1, method: "a" }, {});
    const second = stdio.call({ jsonrpc: "2.0", id: "1", method: "b" }, {});
    expect(sent).toHaveLength(2);
    stdio.receive(line({ jsonrpc: "2.0", id: "1", result: { which: "second" } }));
    stdio.receive(line({ jsonrpc: "2.0", id: 1, result: { which: "first" } }));
    expect(await first).toMatchObject({ result: { which: "first" } });
    expect(await second).toMatchObject({ result: { which: "second" } });
    expect(stdio.size).toBe(0);
  });

  it("gives a log message to the one call in flight, but to the session when several run", () => {
    const { stdio, transportHeard, sessionHeard } = calls();
    const log = { jsonrpc: "2.0", method: "notifications/message", params: { data: "x" } };
    const heardByOne: unknown[] = [];
    void stdio.call(
      { id: 1 },
      { onNotification: (n) => void heardByOne.push(n), callNotifications },
    );
    stdio.receive(line(log));
    expect(heardByOne).toEqual([log]);
    expect(sessionHeard).toEqual([]);

    const heardByTwo: unknown[] = [];
    void stdio.call(
      { id: 2 },
      { onNotification: (n) => void heardByTwo.push(n), callNotifications },
    );
    stdio.receive(line(log));
    expect(heardByOne).toEqual([log]);
    expect(heardByTwo).toEqual([]);
    expect(sessionHeard).toEqual([log]);
    // The transport's own listener hears every notification.
    expect(transportHeard).toEqual([log, log]);
  });

  it("knows progress and log messages by the methods the calls' revision names, none of its own", () => {
    const { stdio, sessionHeard } = calls();
    const renamed = { progress: "notes/progress", log: "notes/log" };
    const heard: unknown[] = [];
    void stdio.call(
      { id: 1 },
      { onNotification: (n) => void heard.push(n), callNotifications: renamed },
    );
    const log = { jsonrpc: "2.0", method: "notes/log", params: { data: "x" } };
    const progress = { jsonrpc: "2.0", method: "notes/progress", params: { progress: 1 } };
    // Named so by another revision, not this one: a notification for the session too.
    const other = { jsonrpc: "2.0", method: "notifications/message", params: { data: "y" } };
    for (const n of [log, progress, other]) stdio.receive(line(n));
    expect(heard).toEqual([log, progress, other]);
    expect(sessionHeard).toEqual([other]);
  });

  it("claims no notification for a call that names no methods", () => {
    const { stdio, sessionHeard } = calls();
    const heard: unknown[] = [];
    void stdio.call({ id: 1 }, { onNotification: (n) => void heard.push(n) });
    const progress = { jsonrpc: "2.0", method: "notifications/progress", params: {} };
    stdio.receive(line(progress));
    expect(heard).toEqual([progress]);
    expect(sessionHeard).toEqual([progress]);
  });

  it("keeps the last line that was not JSON, quoted and cut, for the error of an exit", () => {
    const { stdio } = calls();
    stdio.receive("Usage: server [options]");
    expect(stdio.noise).toBe('"Usage: server [options]"');
    stdio.receive("y".repeat(500));
    expect(stdio.noise).toBe(JSON.stringify(`${"y".repeat(200)}...`));
    stdio.receive(line({ jsonrpc: "2.0", method: "notifications/progress" }));
    expect(stdio.noise).toBe(JSON.stringify(`${"y".repeat(200)}...`));
  });

  it("failAll rejects every call in flight with the failure", async () => {
    const { stdio } = calls();
    const failure = new TransportError("exited", "gone");
    const pending = stdio.call({ id: 1 }, {});
    stdio.failAll(failure);
    await expect(pending).rejects.toBe(failure);
    expect(stdio.size).toBe(0);
  });
});

describe("the server process's exit", () => {
  it("keeps the stderr tail from its first whole line when the bound cut it", async () => {
    const stderr = new PassThrough();
    const tail = captureStderrTail(stderr);
    stderr.write("x".repeat(STDERR_TAIL_BYTES));
    stderr.write("\nlast words\n");
    stderr.end();
    stderr.destroy();
    await tail.ended;
    expect(tail.text()).toBe("last words");
  });

  it("names the signal or the code, the last noise and the stderr", () => {
    const error = exitError(null, "SIGKILL", '"banner"', "");
    expect(error.kind).toBe("exited");
    expect(error.message).toBe(
      'the server process exited (SIGKILL); its last line on stdout that was not JSON: "banner"',
    );
    expect(error.stderr).toBeUndefined();
    const withStderr = exitError(3, null, undefined, "boom");
    expect(withStderr.message).toMatch(/^the server process exited \(code 3\)\n.*\nboom$/);
    expect(withStderr.stderr).toBe("boom");
  });
});

describe("shutDown", () => {
  afterEach(() => void vi.useRealTimers());

  /** A process that exits only when told to (`exit`), and records the signals it was sent. */
  function fakeChild() {
    const child = Object.assign(new EventEmitter(), {
      stdin: new PassThrough(),
      exitCode: null as number | null,
      signalCode: null as string | null,
      signals: [] as string[],
      kill(signal: string) {
        child.signals.push(signal);
        return true;
      },
      exit(code: number) {
        child.exitCode = code;
        child.emit("exit", code, null);
      },
    });
    return child;
  }

  it("closes the input, then sends SIGTERM and SIGKILL to a server that does not exit", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const child = fakeChild();
    let done = false;
    const closing = shutDown(child as unknown as ChildProcess).then(() => (done = true));
    expect(child.stdin.writableEnded).toBe(true);
    await vi.advanceTimersByTimeAsync(SHUTDOWN_WAIT_MS - 1);
    expect(child.signals).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(child.signals).toEqual(["SIGTERM"]);
    await vi.advanceTimersByTimeAsync(SHUTDOWN_WAIT_MS);
    expect(child.signals).toEqual(["SIGTERM", "SIGKILL"]);
    expect(done).toBe(false);
    child.exit(137);
    await closing;
    expect(done).toBe(true);
  });

  it("sends no signal to a server that exits when its input closes", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const child = fakeChild();
    const closing = shutDown(child as unknown as ChildProcess);
    child.exit(0);
    await closing;
    await vi.advanceTimersByTimeAsync(3 * SHUTDOWN_WAIT_MS);
    expect(child.signals).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });
});
