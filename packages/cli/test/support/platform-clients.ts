// The real SDK clients every platform test runs against a server: the v1 SDK 1.32.2 (legacy,
// initialize-based: a session with Mcp-Session-Id, its GET stream and DELETE), and the v2 SDK
// 2.4.0 in its default mode (legacy 2025-11-25) and its auto mode (2026-07-28, stateless).
// Each calls the platform app's echo tool (test/support/platform-app.mjs) with progress and
// resolves to the text it answered, which names the protocol version that served it.
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1HttpTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  Client as V2Client,
  StreamableHTTPClientTransport as V2HttpTransport,
} from "@modelcontextprotocol/client";

type Content = { content: { type: string; text?: string }[] };

const textOf = (result: unknown) => (result as Content).content[0]?.text;

export async function v1Legacy(url: string): Promise<{ text: unknown; progress: number[] }> {
  const client = new V1Client({ name: "v1", version: "1.0.0" });
  await client.connect(new V1HttpTransport(new URL(url)));
  try {
    const tools = await client.listTools();
    if (tools.tools[0]?.name !== "echo") throw new Error("tools/list lost the echo tool");
    const progress: number[] = [];
    const result = await client.callTool({ name: "echo", arguments: { text: "v1" } }, undefined, {
      onprogress: (p) => void progress.push(p.progress),
    });
    return { text: textOf(result), progress };
  } finally {
    await client.close();
  }
}

export async function v2(url: string, mode: "default" | "auto"): Promise<unknown> {
  const client = new V2Client(
    { name: `v2-${mode}`, version: "1.0.0" },
    mode === "auto" ? { versionNegotiation: { mode: "auto" } } : {},
  );
  await client.connect(new V2HttpTransport(new URL(url)));
  try {
    return textOf(await client.callTool({ name: "echo", arguments: { text: `v2-${mode}` } }));
  } finally {
    await client.close();
  }
}

/** What every platform that holds legacy sessions answers the three clients. */
export async function expectBothEras(
  url: string,
  expect: (actual: unknown) => { toEqual(expected: unknown): void },
): Promise<void> {
  expect(await v1Legacy(url)).toEqual({ text: "v1 via 2025-11-25", progress: [1] });
  expect(await v2(url, "default")).toEqual("v2-default via 2025-11-25");
  expect(await v2(url, "auto")).toEqual("v2-auto via 2026-07-28");
}
