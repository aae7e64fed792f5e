// The tests of server.ts, run by `node --test` after compiling (vitest or jest run the same
// body: connectInMemory returns a client whose calls are plain promises). Each test connects
// the generated client to the server in memory, in each era the server speaks: 2026-07-28
// requests, and a 2025-11-25 session opened by initialize.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { connectInMemory } from "@mcp-gen/runtime/testing";
import { createClient, type InputHandlers } from "./mcp/client.js";
import { server } from "./server.js";

// #region input-handlers
// What the client answers when a tool asks it: a user filling in a form, a model, its roots.
const inputHandlers: InputHandlers = {
  "elicitation/create": () => ({ action: "accept", content: { name: "Ada" } }),
  "sampling/createMessage": () => ({
    role: "assistant",
    content: { type: "text", text: "Old pond, a frog jumps" },
    model: "test-model",
  }),
  "roots/list": () => ({ roots: [{ uri: "file:///work", name: "work" }] }),
};
// #endregion input-handlers

for (const era of ["modern", "legacy"] as const) {
  describe(`server.ts, ${era} era`, () => {
    // #region call
    test("divides, and answers a division by zero with an error result", async () => {
      const client = connectInMemory(createClient, server, { era });
      try {
        const result = await client.callTool({ name: "divide", arguments: { a: 6, b: 3 } });
        assert.deepEqual(result.content, [{ type: "text", text: "2" }]);
        const byZero = await client.callTool({ name: "divide", arguments: { a: 1, b: 0 } });
        assert.equal(byZero.isError, true);
      } finally {
        await client.close();
      }
    });
    // #endregion call

    // #region input
    test("asks the client for a name, a poem and its roots", async () => {
      const client = connectInMemory(createClient, server, { era, inputHandlers });
      try {
        const text = async (name: string) => (await client.callTool({ name })).content[0];
        assert.deepEqual(await text("greet"), { type: "text", text: "Hello, Ada" });
        assert.deepEqual(await text("haiku"), { type: "text", text: "Old pond, a frog jumps" });
        assert.deepEqual(await text("show_roots"), { type: "text", text: "file:///work" });
      } finally {
        await client.close();
      }
    });
    // #endregion input

    // #region progress-and-logs
    test("reports progress and logs what it counted", async () => {
      const progress: string[] = [];
      const logs: unknown[] = [];
      const client = connectInMemory(createClient, server, {
        era,
        onProgress: ({ progress: done, total }) => progress.push(`${done}/${total}`),
        onLog: ({ level, data }) => logs.push({ level, data }),
        logLevel: "info",
      });
      try {
        await client.callTool({ name: "count" });
        assert.deepEqual(progress, ["1/3", "2/3", "3/3"]);
        assert.deepEqual(logs, [{ level: "info", data: { counted: 3 } }]);
      } finally {
        await client.close();
      }
    });
    // #endregion progress-and-logs

    // #region unknown-tool
    test("refuses a tool it does not have", async () => {
      const client = connectInMemory(createClient, server, { era });
      try {
        await assert.rejects(client.callTool({ name: "multiply" }), /Tool multiply not found/);
      } finally {
        await client.close();
      }
    });
    // #endregion unknown-tool
  });
}
