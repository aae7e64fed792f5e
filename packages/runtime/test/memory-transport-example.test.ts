// examples/memory-transport (docs/guide/writing-a-transport.md): the transport a reader would
// write, run between the runtime's client engine and router as the package exports them. Its
// types are checked with this test's (the runtime's tsconfig follows the import).
import { createSender } from "@mcp-gen/runtime/client";
import { createRouter } from "@mcp-gen/runtime/server";
import { TransportError } from "@mcp-gen/runtime/transport";
import { describe, expect, it } from "vitest";
import { createMemoryTransport } from "../../../examples/memory-transport/memory-transport.js";
import { PROTOCOL, VALIDATORS } from "./fixture.js";

const shape = {
  functions: { "tools/call": "callTool", "tools/list": "listTools" },
  notifications: {},
  paginated: [],
};

/**
 * A client and a router joined by the example's transport. A tools/call is held after its
 * progress (`progressed` settles then) until `release()` or its cancellation.
 */
function connected() {
  const aborted: unknown[] = [];
  let release = () => undefined as void;
  let onProgressed = () => undefined as void;
  const progressed = new Promise<void>((resolve) => (onProgressed = resolve));
  const router = createRouter(PROTOCOL, VALIDATORS, "client->server", {
    "tools/list": () => ({ tools: [{ name: "add", inputSchema: { type: "object" } }] }),
    "tools/call": async (_params: unknown, ctx: any) => {
      await ctx.sendProgress(1, 2);
      onProgressed();
      await new Promise<void>((resolve) => {
        release = resolve;
        ctx.signal.addEventListener("abort", () => (aborted.push(ctx.signal.reason), resolve()));
      });
      return { content: [{ type: "text", text: "done" }] };
    },
  });
  const transport = createMemoryTransport(router);
  const client = createSender(PROTOCOL, VALIDATORS, shape, { transport, era: "modern" }) as any;
  return { client, transport, aborted, progressed, release: () => release() };
}

describe("examples/memory-transport", () => {
  it("carries a request and its response", async () => {
    const { client } = connected();
    expect(await client.listTools({})).toMatchObject({ tools: [{ name: "add" }] });
  });

  it("gives a call the server's progress about it", async () => {
    const { client, progressed, release } = connected();
    const progress: unknown[] = [];
    const call = client.callTool({ name: "add" }, { onProgress: (p: unknown) => progress.push(p) });
    await progressed;
    expect(progress).toHaveLength(1);
    release();
    expect(await call).toMatchObject({ content: [{ text: "done" }] });
    expect(progress[0]).toMatchObject({ progress: 1, total: 2 });
  });

  it("cancels the server's requests in flight on close, and refuses later ones", async () => {
    const { client, transport, aborted, progressed } = connected();
    const call = client.callTool({ name: "add" });
    await progressed;
    expect(aborted).toEqual([]);
    await transport.close!();
    await expect(call).rejects.toMatchObject({ kind: "closed" });
    expect(aborted).toEqual([expect.any(TransportError)]);
    await expect(client.listTools({})).rejects.toBeInstanceOf(TransportError);
  });
});
