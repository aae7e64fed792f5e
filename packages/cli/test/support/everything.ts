import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { ROOT } from "../helpers.js";
import { importDualEraClient } from "./dual-era-client.js";
import { whenSeen, within } from "./wait.js";

// The reference server @modelcontextprotocol/server-everything (the devDependency's pinned
// version), started over stdio or Streamable HTTP, and the generated dual-era client connected
// to it with every input handler (sampling, form and URL elicitation, roots), recording what it
// sends and every notification it hears. Shared by test/everything-drive-*.test.ts.

type Any = any;

export const EVERYTHING_DIR = join(ROOT, "node_modules/@modelcontextprotocol/server-everything");
const EVERYTHING = join(EVERYTHING_DIR, "dist/index.js");
/** The version package.json pins: what these tests were written against. */
export const EVERYTHING_VERSION = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"))
  .devDependencies["@modelcontextprotocol/server-everything"] as string;

export type TransportKind = "stdio" | "http";

/** Messages seen, in order, and waits for the next that matches. */
export class Seen {
  readonly list: Any[] = [];
  private readonly waiters = new Set<{ match: (m: Any) => boolean; found: (m: Any) => void }>();

  push = (message: Any): void => {
    this.list.push(message);
    for (const w of this.waiters) {
      if (!w.match(message)) continue;
      this.waiters.delete(w);
      w.found(message);
    }
  };

  /** The first message seen after this call (or before, with `past`) that matches. */
  next(match: (m: Any) => boolean, what: string, past = false): Promise<Any> {
    const seen = past ? this.list.find(match) : undefined;
    if (seen) return Promise.resolve(seen);
    return within(new Promise((found) => this.waiters.add({ match, found })), what);
  }

  /** Log messages (`notifications/message` params) seen so far. */
  get logs(): Any[] {
    return this.list.filter((n) => n.method === "notifications/message").map((n) => n.params);
  }
}

/** What a test can see and steer of one connection to the server. */
export interface Drive {
  kind: TransportKind;
  /** The generated client. */
  c: Any;
  /** The generated client's module (its errors). */
  clientModule: Any;
  /** Every message the client sent (requests and notifications), in order. */
  sent: Seen;
  /** The response to each of the client's requests, as they came. */
  answered: Seen;
  /** Every notification the client heard: the session's and those about calls in flight. */
  heard: Seen;
  /** stdio: each line the server wrote on stdout, parsed (what the transport hears raw). */
  written: Any[];
  /** HTTP: each request's verb, JSON-RPC body and the server's status: `{ verb, body, status }`. */
  exchanges: Seen;
  /** The server process. */
  server: ChildProcess;
  /** A variable set in the server's environment only (get-env shows it). */
  marker: { name: string; value: string };
  /** What roots/list answers. */
  roots: { uri: string; name: string }[];
  /** Each sampling/createMessage the client was asked, and each elicitation/create. */
  asked: { sampling: Any[]; elicitation: Any[] };
  /** How the next elicitation/create is answered (default: decline). */
  elicit: (params: Any) => Any;
  close(): Promise<void>;
}

/** A free TCP port on loopback (the server takes it from PORT). */
async function freePort(): Promise<number> {
  const probe = createServer().listen(0, "127.0.0.1");
  await once(probe, "listening");
  const { port } = probe.address() as { port: number };
  await new Promise((r) => probe.close(r));
  return port;
}

/** server-everything over Streamable HTTP: its process and endpoint, once it listens. */
async function startHttpServer(env: NodeJS.ProcessEnv) {
  const port = await freePort();
  const server = spawn(process.execPath, [EVERYTHING, "streamableHttp"], {
    env: { ...env, PORT: String(port) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  server.stderr!.on("data", (chunk) => (stderr += String(chunk)));
  await whenSeen(
    [server.stderr!],
    () => stderr.includes(`listening on port ${port}`),
    "server-everything listening",
  );
  return { server, url: `http://127.0.0.1:${port}/mcp` };
}

/** The generated dual-era client's modules `drive` uses (generated once per worker, then copied). */
export const importClient = () => importDualEraClient(["client.js", "stdio.js", "http-client.js"]);

/** Connects the generated client (`importClient`'s modules) to a new server-everything over `kind`. */
export async function drive(kind: TransportKind, modules: Any[]): Promise<Drive> {
  const [clientModule, stdio, httpClient] = modules;
  const marker = { name: "EVERYTHING_DRIVE_MARKER", value: randomUUID() };
  const env = { ...process.env, [marker.name]: marker.value };
  const heard = new Seen();
  const written: Any[] = [];
  const posts = new Seen();
  let inner: Any;
  let server: ChildProcess;
  if (kind === "stdio") {
    inner = stdio.createStdioTransport({
      command: process.execPath,
      args: [EVERYTHING, "stdio"],
      env,
      stderr: "ignore",
    });
    server = inner.process;
    let rest = "";
    server.stdout!.on("data", (chunk) => {
      const lines = (rest + String(chunk)).split("\n");
      rest = lines.pop()!;
      // Only messages: a line that is not JSON is not one (the transport skips it too).
      for (const line of lines) if (line.trim().startsWith("{")) written.push(JSON.parse(line));
    });
  } else {
    const started = await startHttpServer(env);
    server = started.server;
    const recording: typeof fetch = async (input, init) => {
      const body = typeof init?.body === "string" ? JSON.parse(init.body) : undefined;
      const response = await fetch(input, init);
      posts.push({ verb: init?.method, body, status: response.status });
      return response;
    };
    inner = httpClient.createHttpTransport({ url: started.url, fetch: recording });
  }
  const sent = new Seen();
  const answered = new Seen();
  const transport = {
    legacy: inner.legacy,
    closesStreamOnAbort: inner.closesStreamOnAbort,
    request: (message: Any, options: Any) => {
      sent.push(message);
      // Notifications about the call (progress, logs) are heard here too.
      const onNotification = (n: Any) => (heard.push(n), options?.onNotification?.(n));
      return inner.request(message, { ...options, onNotification }).then((response: Any) => {
        answered.push(response);
        return response;
      });
    },
    notify: (message: Any) => (sent.push(message), inner.notify(message)),
    close: () => inner.close(),
  };
  const d: Drive = {
    kind,
    c: undefined,
    clientModule,
    sent,
    answered,
    heard,
    written,
    exchanges: posts,
    server,
    marker,
    roots: [{ uri: "file:///work/drive-one", name: "drive-one" }],
    asked: { sampling: [], elicitation: [] },
    elicit: () => ({ action: "decline" }),
    async close() {
      await d.c.close();
      if (server.exitCode === null && server.signalCode === null) {
        server.kill();
        await once(server, "exit");
      }
    },
  };
  d.c = clientModule.createClient({
    transport,
    probeTimeoutMs: 5_000,
    clientInfo: { name: "everything-drive", version: "1.0.0" },
    capabilities: { elicitation: { form: {}, url: {} }, roots: { listChanged: true } },
    onNotification: heard.push,
    // The server suggests polling each second; polling faster sees each stage sooner.
    tasks: { minPollIntervalMs: 50, maxPollIntervalMs: 250 },
    inputHandlers: {
      "sampling/createMessage": async (params: Any) => {
        d.asked.sampling.push(params);
        const said = params.messages.map((m: Any) => m.content.text).join(" ");
        return {
          role: "assistant",
          model: "drive-model",
          content: { type: "text", text: `Heard ${said.length} characters: ${said}` },
          stopReason: "endTurn",
        };
      },
      "elicitation/create": async (params: Any) => (
        d.asked.elicitation.push(params),
        d.elicit(params)
      ),
      "roots/list": async () => ({ roots: d.roots }),
    },
  });
  return d;
}

/** The text of each text block of a tool result. */
export const texts = (result: Any): Any[] =>
  result.content.filter((b: Any) => b.type === "text").map((b: Any) => b.text);
