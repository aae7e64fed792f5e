// @ts-check
// An mcp-gen plugin as a third party would publish it: summary.ts, every method of the revision
// with the directions it travels, and each request's result type (imported from the types.ts
// of the built-in `types` generator). The plugin guide, docs/guide/plugins.md, includes this
// file; packages/cli/test/plugin.test.ts installs and runs it.

/** @import { McpGenPlugin } from "@mcp-gen/cli/plugin" */

/** @type {McpGenPlugin} */
const plugin = {
  apiVersion: 1,
  name: "method-summary",
  description: "summary.ts: every method, its directions and its result type",
  requires: ["types"],
  generate(ctx) {
    const { protocol } = ctx;
    const file = ctx.file("summary.ts");
    file.doc(`The methods of MCP ${protocol.revision}, with the directions each travels.`);
    const directions = protocol.methods.map((m) => [m.method, [...m.directions]]);
    file.value("export const METHODS = ", Object.fromEntries(directions), ";");
    file.line();
    file.doc("What each request answers.");
    file.block("export interface Results {", () => {
      for (const m of protocol.methods) {
        if (m.kind !== "request" || m.result === undefined) continue;
        if (m.deprecated !== undefined) file.doc(`@deprecated ${m.deprecated}`);
        const result = file.import("./types.js", m.result, true);
        file.line(`${JSON.stringify(m.method)}: ${result};`);
      }
    });
    return [file];
  },
};

export default plugin;
