import { join } from "node:path";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1HttpTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  ElicitRequestSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { within } from "../../packages/cli/test/support/wait.js";
import { startCluster, type Cluster } from "../cluster/cluster.js";
import { startReplica, type Replica } from "../cluster/processes.js";

// What the fault suite's cases share: the deployment (deploy/cluster/cluster.ts) with a short
// request timeout and collectable replicas, the three kinds of client, raw legacy sessions
// (cheap: a thousand of them are a thousand header objects), and outcomes counted.

type Any = any;

/**
 * The replicas' requestTimeoutMs: a request stalled by a fault ends within it. Shorter than
 * the 5 s Redis pause of case (b), so that the pause tells a request that was bounded from
 * one that merely waited for Redis to come back.
 */
export const REQUEST_TIMEOUT_MS = 2_000;
/** How long a request may take before it counts as hung: the timeout and a generous margin. */
export const HUNG_AFTER_MS = REQUEST_TIMEOUT_MS + 10_000;

export interface FaultCluster extends Cluster {
  /** The generated dual-era client's modules (client.js, http-client.js). */
  readonly generated: { client: Any; http: Any };
}

/** The deployment, each replica with REQUEST_TIMEOUT_MS and --expose-gc. */
export async function startFaultCluster(): Promise<FaultCluster> {
  const cluster = await startCluster({
    env: { REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS), MAX_ANONYMOUS_SESSIONS: "5000" },
    nodeArgs: ["--expose-gc"],
  });
  const [client, http] = await Promise.all(
    ["client.js", "http-client.js"].map((m) => import(join(cluster.replicaDir, m))),
  );
  return Object.assign(cluster, { generated: { client, http } });
}

/** How one request ended: a result, an error the client saw, or nothing in time. */
export type Outcome =
  | { kind: "result"; value: Any; ms: number }
  | { kind: "error"; error: string; ms: number }
  | { kind: "hung"; ms: number };

/** Waits for `promise` at most `ms`; never rejects. */
export async function settle(promise: Promise<unknown>, ms = HUNG_AFTER_MS): Promise<Outcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const value = await within(
      promise.catch((error: unknown) => ({ failed: String(error) })),
      "outcome",
      ms,
    );
    if (value && typeof value === "object" && "failed" in value)
      return { kind: "error", error: String(value.failed), ms: elapsed() };
    return { kind: "result", value, ms: elapsed() };
  } catch {
    return { kind: "hung", ms: elapsed() };
  }
}

/** How many outcomes of each kind. */
export function tally(outcomes: readonly Outcome[]) {
  const of = (kind: Outcome["kind"]) => outcomes.filter((o) => o.kind === kind).length;
  return { results: of("result"), errors: of("error"), hung: of("hung") };
}

export const parsed = (result: Any) => JSON.parse(result.content[0].text);

export interface ClientHooks {
  /** Answers an elicitation (default: accept with "yes"). */
  elicit?: (message: string) => Promise<string>;
  /** Every notification the client hears outside its calls (list changes, ...). */
  onNotice?: (method: string) => void;
  /** Sees each HTTP exchange: method, the JSON-RPC body sent, the status answered. */
  onExchange?: (method: string, body: Any, status: number) => void;
  /** A GET stream (the session's standalone stream) opened (true) or ended (false). */
  onStream?: (open: boolean) => void;
}

/** A fetch that reports each exchange to `hooks.onExchange`. */
function watchedFetch(hooks: ClientHooks): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    const method = init?.method ?? "GET";
    const body = typeof init?.body === "string" ? safeJson(init.body) : undefined;
    hooks.onExchange?.(method, body, response.status);
    if (method !== "GET" || !response.ok || !response.body || !hooks.onStream) return response;
    hooks.onStream(true);
    const ended = once(() => hooks.onStream?.(false));
    const reader = response.body.getReader();
    // The same stream, told when it ends: read to its end, broken, or cancelled by the client.
    const watched = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (done) {
            ended();
            controller.close();
          } else controller.enqueue(value);
        } catch (error) {
          ended();
          controller.error(error);
        }
      },
      cancel: (reason) => (ended(), reader.cancel(reason)),
    });
    return new Response(watched, { status: response.status, headers: response.headers });
  };
}

/** `f`, run the first time only. */
const once = (f: () => void) => {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    f();
  };
};

const safeJson = (text: string) => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** A v1 SDK (1.32.2) client: always a legacy (2025-11-25) session. */
export async function v1Client(url: URL, name: string, hooks: ClientHooks = {}) {
  const client = new V1Client({ name, version: "1.0.0" }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async (r) => ({
    action: "accept",
    content: { v: (await hooks.elicit?.(r.params.message)) ?? "yes" },
  }));
  client.setNotificationHandler(ToolListChangedNotificationSchema, async (n) =>
    hooks.onNotice?.(n.method),
  );
  // Errors of its GET stream are reported here; the client reconnects by itself.
  client.onerror = () => {};
  const transport = new V1HttpTransport(url, { fetch: watchedFetch(hooks) });
  await client.connect(transport);
  return { client, transport, close: () => client.close().catch(() => {}) };
}

/** The generated client, pinned to an era: "legacy" (2025-11-25 session) or "modern". */
export function generatedClient(
  cluster: FaultCluster,
  url: URL,
  era: "legacy" | "modern",
  name: string,
  hooks: ClientHooks = {},
) {
  const { client, http } = cluster.generated;
  return client.createClient({
    transport: http.createHttpTransport({
      url: url.href,
      fetch: watchedFetch(hooks),
      onNotification: (n: Any) => hooks.onNotice?.(n.method),
    }),
    era,
    ...(era === "legacy" ? { legacyVersions: ["2025-11-25"] } : {}),
    clientInfo: { name, version: "1.0.0" },
    inputHandlers: {
      "elicitation/create": async (p: Any) => ({
        action: "accept",
        content: { v: (await hooks.elicit?.(p.message)) ?? "yes" },
      }),
    },
  });
}

export const JSON_AND_SSE = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
};

/** The JSON-RPC message in a JSON or SSE body (the last one with an id, on a stream). */
export function replyIn(text: string): Any {
  if (text.startsWith("{")) return safeJson(text);
  const data = text
    .split("\n")
    .filter((l) => l.startsWith("data:") && l.length > 5)
    .map((l) => safeJson(l.slice(5)));
  return data.reverse().find((m) => m && "id" in m);
}

/** One HTTP exchange of a raw client, never longer than `ms`: its status, or "hung". */
export async function exchange(
  url: URL,
  init: RequestInit,
  ms = HUNG_AFTER_MS,
): Promise<Exchanged> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(ms) });
    const text = await response.text();
    return {
      status: response.status,
      reply: replyIn(text),
      headers: response.headers,
      ms: elapsed(),
    };
  } catch (error) {
    const hung = (error as Error).name === "TimeoutError";
    // fetch's own message ("fetch failed") says nothing: the cause names the socket's fault.
    const cause = (error as { cause?: unknown }).cause;
    const why = cause === undefined ? String(error) : `${String(error)} (${String(cause)})`;
    return { status: hung ? "hung" : "failed", error: why, ms: elapsed() };
  }
}

/** What a raw exchange got: a status ("hung": nothing within its time), and how long it took. */
export interface Exchanged {
  readonly status: number | "hung" | "failed";
  readonly reply?: Any;
  readonly headers?: Headers;
  readonly error?: string;
  readonly ms: number;
}

/** A raw exchange as an outcome: 2xx without a JSON-RPC error is a result, else an error. */
export function asOutcome(e: Exchanged): Outcome {
  if (e.status === "hung") return { kind: "hung", ms: e.ms };
  if (e.status === "failed" || e.status >= 300 || e.reply?.error)
    return { kind: "error", error: e.error ?? JSON.stringify(e.reply ?? e.status), ms: e.ms };
  return { kind: "result", value: e.reply, ms: e.ms };
}

export type SessionHeaders = Record<string, string>;

/** A legacy session by hand (initialize, initialized): its headers, or undefined. */
export async function rawSession(
  url: URL,
  ms = HUNG_AFTER_MS,
): Promise<SessionHeaders | undefined> {
  const init = await exchange(
    url,
    {
      method: "POST",
      headers: JSON_AND_SSE,
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: { name: "raw", version: "1" },
        },
      }),
    },
    ms,
  );
  const id = init.headers?.get("mcp-session-id");
  if (init.status !== 200 || !id) return undefined;
  const headers = { ...JSON_AND_SSE, "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" };
  const done = await exchange(
    url,
    {
      method: "POST",
      headers,
      body: '{"jsonrpc":"2.0","method":"notifications/initialized"}',
    },
    ms,
  );
  return done.status === 202 ? headers : undefined;
}

let nextId = 1;
/** A tools/call of `name` on a raw legacy session. */
export const rawCall = (url: URL, headers: SessionHeaders, name: string, ms?: number) =>
  exchange(
    url,
    {
      method: "POST",
      headers,
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: nextId++,
        method: "tools/call",
        params: { name, arguments: {} },
      }),
    },
    ms,
  );

/** Ends a raw legacy session. */
export const rawDelete = (url: URL, headers: SessionHeaders, ms?: number) =>
  exchange(url, { method: "DELETE", headers }, ms);

/** Runs `work` over `items`, `lanes` at a time. */
export async function inLanes<T, R>(
  items: readonly T[],
  lanes: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(lanes, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await work(items[i]!, i);
      }
    }),
  );
  return results;
}

/** Real time between two attempts at something another process has to do first. */
export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Retries `attempt` (100 ms apart) until it succeeds, within `ms`: the time it took, or
 * undefined when it never did. For recovery times, which are printed, never asserted tightly.
 */
export async function timeUntil(
  attempt: () => Promise<boolean>,
  ms = 30_000,
  hopeless: () => boolean = () => false,
) {
  const started = performance.now();
  while (performance.now() - started < ms && !hopeless()) {
    if (await attempt().catch(() => false)) return Math.round(performance.now() - started);
    await pause(100);
  }
  return undefined;
}

/** Whether `replica` has exited (or was killed), without waiting. */
export const exited = (replica: Replica) =>
  replica.process.exitCode !== null || replica.process.signalCode !== null;

/** Whether every replica has exited: nothing will serve again by itself. */
export const allExited = (cluster: Cluster) => [...cluster.replicas.values()].every(exited);

/** Starts again the replicas a case before this one left dead, so that each case begins whole. */
export async function wholeAgain(cluster: FaultCluster): Promise<void> {
  for (const [name, replica] of cluster.replicas)
    if (exited(replica)) await restartReplica(cluster, name);
}

/**
 * Starts replica `name` again where HAProxy looks for it (after it died or was stopped), and
 * resolves once the balancer sends it requests again.
 */
export async function restartReplica(cluster: FaultCluster, name: string): Promise<Replica> {
  const old = cluster.replicas.get(name)!;
  if (!exited(old)) {
    old.process.kill("SIGKILL");
  }
  await within(
    exited(old) ? Promise.resolve() : new Promise((r) => old.process.once("exit", r)),
    `replica ${name} gone`,
    30_000,
  );
  const port = old.address.split(":").at(-1)!;
  const again = await startReplica(
    cluster.replicaDir,
    name,
    { ...cluster.replicaEnv, PORT: port },
    cluster.nodeArgs,
  );
  cluster.replicas.set(name, again);
  const modern = generatedClient(cluster, cluster.roundRobinUrl, "modern", "rejoin");
  const served = await timeUntil(
    async () => parsed(await modern.callTool({ name: "whoami" })).instance === name,
  );
  if (served === undefined) throw new Error(`HAProxy never sent to replica ${name} again`);
  return again;
}

/** The replica whose output shows `pattern` first (within `ms`). */
export function printing(cluster: Cluster, pattern: RegExp, what: string, ms = 30_000) {
  return within(
    Promise.race(
      [...cluster.replicas.values()].map((r) =>
        r.printed(pattern, ms).then(
          () => r,
          () => new Promise<never>(() => {}),
        ),
      ),
    ),
    what,
    ms,
  );
}

/** How many replicas (of those in the map now) printed a line matching `pattern`. */
export const printedBy = (cluster: Cluster, pattern: RegExp) =>
  [...cluster.replicas.values()].filter((r) => pattern.test(r.output())).length;

/** A fresh nonce, to tell one call's printed lines from another's. */
export const nonce = (prefix: string) =>
  `${prefix}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
