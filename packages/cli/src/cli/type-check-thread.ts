import { Worker } from "node:worker_threads";
import type { TscError } from "../schema/tsc-check.js";
import type { TypeCheckElsewhere } from "../schema/type-check.js";

// tsc's check of the schema is about a tenth of a cold `mcp-gen generate`, and the reader
// needs none of its result: one worker thread runs it (loading TypeScript itself, on another
// core) while this thread reads the schema and generates (schema/type-check.ts). The output
// is written only once the verdict is in. When the thread cannot start, or has failed, the
// check runs in place, as before. MCP_GEN_TYPE_CHECK_THREAD=0 turns the thread off.

interface Reply {
  id: number;
  error?: TscError;
  failed?: string;
}

interface Waiter {
  resolve(error?: TscError): void;
  reject(error: Error): void;
}

/** The thread; null once it could not start or has failed, undefined until first asked. */
let thread: Worker | null | undefined;
let nextId = 0;
const waiting = new Map<number, Waiter>();

/** A TypeCheckElsewhere for loadRevision: the check runs in this process's worker thread. */
export const typeCheckInThread: TypeCheckElsewhere = (text) => {
  if (thread === undefined) thread = startThread();
  if (!thread) return undefined;
  const id = nextId++;
  // A pending check keeps the process alive until it is answered; an idle thread does not.
  if (waiting.size === 0) thread.ref();
  thread.postMessage({ id, text });
  return new Promise<TscError | undefined>((resolve, reject) => {
    waiting.set(id, { resolve, reject });
  });
};

function startThread(): Worker | null {
  if (process.env.MCP_GEN_TYPE_CHECK_THREAD === "0") return null;
  let worker: Worker;
  try {
    worker = new Worker(new URL("./type-check-worker.js", import.meta.url));
  } catch {
    return null;
  }
  worker.unref();
  worker.on("message", (reply: Reply) => {
    const waiter = waiting.get(reply.id);
    if (!waiter) return;
    waiting.delete(reply.id);
    if (waiting.size === 0) worker.unref();
    if (reply.failed !== undefined)
      waiter.reject(new Error(`type-checking the schema failed: ${reply.failed}`));
    else waiter.resolve(reply.error);
  });
  const fail = (error: Error) => {
    thread = null;
    for (const waiter of waiting.values()) waiter.reject(error);
    waiting.clear();
  };
  worker.on("error", fail);
  worker.on("exit", (code) => fail(new Error(`the type-check thread exited (code ${code})`)));
  return worker;
}
