// Calls only initialize-based revisions have, on the dual-era client's typed API: ping,
// logging/setLevel, resources/subscribe and the client's notifications/roots/list_changed,
// against a v1 SDK 1.32.2 McpServer over Streamable HTTP (legacy), and what each does on a
// modern server (the v2 SDK 2.4.0), where 2026-07-28 removed them.
import { type Server as HttpServer } from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import {
  RootsListChangedNotificationSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import * as z from "zod";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  importDualEraClient,
  listen,
  stop,
  v1SessionfulHandler,
  v2ModernHandler,
  type Seen,
} from "./support/dual-era-client.js";

type Any = any;

let client: Any;
let httpClient: Any;

beforeAll(async () => {
  [client, httpClient] = await importDualEraClient(["client.js", "http-client.js"]);
});

describe("legacy-only calls against the v1 SDK 1.32.2 over Streamable HTTP", () => {
  const seen: Seen = [];
  /** The roots the server read after each notifications/roots/list_changed it received. */
  const rootsAfterChange: string[][] = [];
  const subscribed: string[] = [];
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  let url: string;
  let server: HttpServer;

  function v1Server(): McpServer {
    const mcp = new McpServer(
      { name: "v1-server", version: "1.32.2" },
      { capabilities: { logging: {}, resources: { subscribe: true } } },
    );
    mcp.registerResource("note", "file:///note.txt", { description: "A note" }, async (uri) => ({
      contents: [{ uri: uri.href, text: "hi" }],
    }));
    mcp.registerTool(
      "echo",
      { description: "Echoes", inputSchema: { text: z.string() } },
      async ({ text }, extra) => {
        await extra.sendNotification({
          method: "notifications/message",
          params: { level: "info", data: `echo ${text}` },
        });
        return { content: [{ type: "text", text }] };
      },
    );
    // The server reacts to a change of roots as a host expects it to: it asks for them again.
    mcp.server.setNotificationHandler(RootsListChangedNotificationSchema, async () => {
      const { roots } = await mcp.server.listRoots();
      rootsAfterChange.push(roots.map((r) => r.uri));
    });
    mcp.server.setRequestHandler(SubscribeRequestSchema, async (request) => {
      subscribed.push(request.params.uri);
      return {};
    });
    mcp.server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
      subscribed.push(`-${request.params.uri}`);
      return {};
    });
    return mcp;
  }

  beforeAll(async () => {
    ({ url, server } = await listen(v1SessionfulHandler(v1Server, sessions), seen));
  });
  afterAll(() => stop(server));

  it("pings the server", async () => {
    seen.length = 0;
    const c = client.createClient({ transport: httpClient.createHttpTransport({ url }) });
    expect(await c.ping()).toMatchObject({});
    expect(seen).toContain("POST ping");
    expect(seen).not.toContain("POST response");
    await c.close();
  });

  it("tells the server its roots changed, and the server asks for them again", async () => {
    seen.length = 0;
    rootsAfterChange.length = 0;
    let roots = [{ uri: "file:///work/a", name: "a" }];
    const c = client.createClient({
      transport: httpClient.createHttpTransport({ url }),
      capabilities: { roots: { listChanged: true } },
      inputHandlers: { "roots/list": async () => ({ roots }) },
    });
    // No session yet: the server has been told nothing, so nothing is sent (and nothing probed).
    await c.notifyRootsListChanged();
    expect(seen).toEqual([]);
    await c.listTools();
    roots = [{ uri: "file:///work/b", name: "b" }];
    await c.notifyRootsListChanged();
    await vi.waitFor(() => expect(rootsAfterChange).toEqual([["file:///work/b"]]));
    expect(seen).toContain("POST notifications/roots/list_changed");
    await c.close();
    // A closed session is not reopened to be told.
    seen.length = 0;
    await c.notifyRootsListChanged();
    expect(seen).toEqual([]);
  });

  it("refuses to send notifications/roots/list_changed without the roots.listChanged capability", async () => {
    seen.length = 0;
    const c = client.createClient({
      transport: httpClient.createHttpTransport({ url }),
      capabilities: { roots: {} },
      inputHandlers: { "roots/list": async () => ({ roots: [] }) },
    });
    await c.listTools();
    await expect(c.notifyRootsListChanged()).rejects.toThrow(/roots\.listChanged capability/);
    expect(seen).not.toContain("POST notifications/roots/list_changed");
    await c.close();
  });

  it("subscribes to a resource and unsubscribes", async () => {
    subscribed.length = 0;
    const c = client.createClient({ transport: httpClient.createHttpTransport({ url }) });
    expect(await c.subscribeResource({ uri: "file:///note.txt" })).toMatchObject({
      resultType: "complete",
    });
    await c.unsubscribeResource({ uri: "file:///note.txt" });
    expect(subscribed).toEqual(["file:///note.txt", "-file:///note.txt"]);
    await c.close();
  });

  it("an explicit setLevel is the session's level: a call's logLevel sets it back", async () => {
    seen.length = 0;
    const c = client.createClient({ transport: httpClient.createHttpTransport({ url }) });
    const echo = () =>
      c.callTool({ name: "echo", arguments: { text: "hi" } }, { logLevel: "info" });
    await echo();
    await echo();
    expect(seen.filter((s) => s === "POST logging/setLevel")).toHaveLength(1);
    await c.setLevel({ level: "error" });
    await echo();
    expect(seen.filter((s) => s === "POST logging/setLevel")).toHaveLength(3);
    await c.close();
  });
});

describe("legacy-only calls against a modern server (v2 SDK 2.4.0)", () => {
  const seen: Seen = [];
  let url: string;
  let server: HttpServer;
  const v2 = v2ModernHandler();

  beforeAll(async () => {
    ({ url, server } = await listen(v2.handle, seen));
  });
  afterAll(async () => {
    await v2.close();
    await stop(server);
  });

  it("ping is answered by server/discover (2026-07-28 has no ping)", async () => {
    seen.length = 0;
    const c = client.createClient({ transport: httpClient.createHttpTransport({ url }) });
    expect(await c.ping()).toEqual({});
    expect(await c.era()).toBe("modern");
    expect(seen).not.toContain("POST ping");
    // The era probe and the ping's own server/discover.
    expect(seen.filter((s) => s === "POST server/discover")).toHaveLength(2);
    await c.close();
  });

  it("notifications/roots/list_changed is not sent; setLevel and subscribe are refused before sending", async () => {
    seen.length = 0;
    const c = client.createClient({
      transport: httpClient.createHttpTransport({ url }),
      capabilities: { roots: { listChanged: true } },
    });
    await c.listTools();
    await c.notifyRootsListChanged();
    await expect(c.setLevel({ level: "info" })).rejects.toBeInstanceOf(client.EraUnsupportedError);
    await expect(c.subscribeResource({ uri: "file:///x" })).rejects.toBeInstanceOf(
      client.EraUnsupportedError,
    );
    expect(seen.filter((s) => s !== "POST server/discover" && s !== "POST tools/list")).toEqual([]);
    await c.close();
  });
});
