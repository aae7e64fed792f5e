import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readSchemaFile, readSchemaText } from "../src/schema/reader.js";
import { buildProtocol, type MethodInfo } from "../src/schema/protocol.js";
import { loadRevision } from "../src/schema/index.js";
import { McpGenError } from "../src/schema/diagnostics.js";
import { fixture, SPEC_DIR, SPEC_REVISIONS } from "./helpers.js";

const mini = buildProtocol(readSchemaFile(fixture("mini-schema.ts")));
const byMethod = (methods: MethodInfo[]) => new Map(methods.map((m) => [m.method, m]));

describe("protocol model from a fixture schema", () => {
  const methods = byMethod(mini.methods);

  it("finds methods, kinds and directions from the message unions", () => {
    expect(mini.methods.map((m) => [m.method, m.kind, m.directions])).toEqual([
      ["ping", "request", ["client->server", "server->client"]],
      ["tools/call", "request", ["client->server"]],
      ["notifications/cancelled", "notification", ["client->server", "server->client"]],
      ["notifications/tools/list_changed", "notification", ["server->client"]],
    ]);
  });

  it("names params and result types, falling back to EmptyResult", () => {
    expect(methods.get("tools/call")).toMatchObject({
      type: "CallToolRequest",
      params: "CallToolRequestParams",
      result: "CallToolResult",
      paramsOptional: false,
    });
    expect(methods.get("ping")).toMatchObject({
      params: "RequestParams",
      result: "EmptyResult",
      paramsOptional: true,
    });
    expect(methods.get("notifications/cancelled")).toMatchObject({
      params: 'CancelledNotification["params"]',
      result: undefined,
    });
  });

  it("derives input_required from params extending InputResponseRequestParams", () => {
    expect(mini.methods.filter((m) => m.inputRequired).map((m) => m.method)).toEqual([
      "tools/call",
    ]);
    expect(mini.inputRequiredResult).toBe("InputRequiredResult");
    expect(mini.inputRequests).toEqual([
      {
        method: "elicitation/create",
        type: "ElicitRequest",
        params: 'ElicitRequest["params"]',
        paramsOptional: false,
        result: "ElicitResult",
        deprecated: undefined,
        capability: { path: ["elicitation"], leaf: "object" },
      },
    ]);
  });

  it("builds capability trees and gates", () => {
    expect(
      mini.capabilities.client.map((c) => [c.name, c.deprecated, c.children.map((x) => x.name)]),
    ).toEqual([
      ["experimental", false, []],
      ["elicitation", false, ["form"]],
      ["roots", true, []],
    ]);
    expect(methods.get("tools/call")?.capabilities).toEqual({
      "client->server": { side: "server", path: ["tools"], leaf: "object" },
    });
    expect(methods.get("notifications/tools/list_changed")?.capabilities).toEqual({
      "server->client": { side: "server", path: ["tools", "listChanged"], leaf: "boolean" },
    });
    expect(methods.get("ping")?.capabilities).toEqual({});
  });

  it("finds error codes in JSON-RPC's reserved range and the types that use them", () => {
    expect(mini.errors).toEqual([
      { name: "METHOD_NOT_FOUND", code: -32601, types: ["MethodNotFoundError"] },
      { name: "NEEDS_CAPABILITY", code: -32021, types: ["NeedsCapabilityError"] },
    ]);
    expect(mini.protocolVersion).toBe("2099-01-01");
    expect(mini.jsonrpcVersion).toBe("2.0");
  });

  it("keeps deprecations", () => {
    expect(methods.get("notifications/tools/list_changed")?.deprecated).toBe("Use subscriptions.");
    expect(methods.get("tools/call")?.deprecated).toBeUndefined();
  });

  it("rejects a schema without the message unions, naming the file", () => {
    expect(() => buildProtocol(readSchemaText("s.ts", "export type A = string;"))).toThrow(
      /^s\.ts:1:1: the schema has no 'ClientRequest' type/,
    );
  });

  it("rejects a message type whose method is not a literal", () => {
    const text = `export interface R { method: string } export type ClientRequest = R; export type ClientNotification = R;
      export type ClientResult = R; export type ServerNotification = R; export type ServerResult = R;`;
    expect(() => buildProtocol(readSchemaText("s.ts", text))).toThrow(McpGenError);
    expect(() => buildProtocol(readSchemaText("s.ts", text))).toThrow(
      /'R' is a message type but its 'method' is not a string literal/,
    );
  });
});

describe("protocol model of the spec revisions", () => {
  it.each(SPEC_REVISIONS)("%s: every request has a declared result and a method", (revision) => {
    const { protocol, model } = loadRevision(SPEC_DIR, revision);
    expect(protocol.protocolVersion).toBe(revision);
    expect(protocol.methods.length).toBeGreaterThan(10);
    for (const m of protocol.methods) {
      if (m.kind === "request") expect(model.byName.has(m.result!)).toBe(true);
      expect(model.byName.has(m.type)).toBe(true);
    }
  });

  it("2026-07-28: ten client requests, MRTR on exactly three, input requests, new error codes", () => {
    const { protocol } = loadRevision(SPEC_DIR, "2026-07-28");
    const requests = protocol.methods.filter((m) => m.kind === "request");
    expect(requests.every((m) => m.directions.join() === "client->server")).toBe(true);
    expect(requests.map((m) => m.method).sort()).toEqual([
      "completion/complete",
      "prompts/get",
      "prompts/list",
      "resources/list",
      "resources/read",
      "resources/templates/list",
      "server/discover",
      "subscriptions/listen",
      "tools/call",
      "tools/list",
    ]);
    expect(
      requests
        .filter((m) => m.inputRequired)
        .map((m) => m.method)
        .sort(),
    ).toEqual(["prompts/get", "resources/read", "tools/call"]);
    expect(protocol.inputRequests.map((r) => r.method).sort()).toEqual([
      "elicitation/create",
      "roots/list",
      "sampling/createMessage",
    ]);
    expect(protocol.inputRequests.map((r) => r.capability?.path.join("."))).toEqual([
      "sampling",
      "roots",
      "elicitation",
    ]);
    expect(protocol.unions["ServerRequest"]).toBeUndefined();
    const codes = Object.fromEntries(protocol.errors.map((e) => [e.name, e.code]));
    expect(codes).toMatchObject({
      HEADER_MISMATCH: -32020,
      MISSING_REQUIRED_CLIENT_CAPABILITY: -32021,
      UNSUPPORTED_PROTOCOL_VERSION: -32022,
    });
    const cancelled = protocol.methods.find((m) => m.method === "notifications/cancelled");
    expect(cancelled?.directions).toEqual(["client->server", "server->client"]);
  });

  it("2025-11-25: both directions, ping and tasks/* both ways, no MRTR", () => {
    const { protocol } = loadRevision(SPEC_DIR, "2025-11-25");
    const methods = byMethod(protocol.methods);
    for (const m of ["ping", "tasks/get", "tasks/result", "tasks/list", "tasks/cancel"]) {
      expect(methods.get(m)?.directions, m).toEqual(["client->server", "server->client"]);
    }
    for (const m of ["sampling/createMessage", "roots/list", "elicitation/create"]) {
      expect(methods.get(m)?.directions, m).toEqual(["server->client"]);
    }
    expect(methods.get("initialize")?.directions).toEqual(["client->server"]);
    expect(protocol.methods.some((m) => m.inputRequired)).toBe(false);
    expect(protocol.inputRequests).toEqual([]);
    expect(methods.get("sampling/createMessage")?.capabilities["server->client"]).toEqual({
      side: "client",
      path: ["sampling"],
      leaf: "object",
    });
  });
});

const GATED = [
  "tools/validate",
  "tools/render",
  "tools/strict",
  "tools/pin",
  "tools/limit",
  "tools/tree/walk",
].map((method, i) => ({ method, type: `Gated${i}Request` }));

describe("capability gates in drafts: how each leaf is declared", () => {
  // The mini fixture's ServerCapabilities.tools, extended as a draft might: a boolean, an
  // object, a union of both, an alias of boolean, a number setting, a named recursive type.
  const draft = readFileSync(fixture("mini-schema.ts"), "utf8")
    .replace(
      "    listChanged?: boolean;\n  };\n}",
      [
        "    listChanged?: boolean;",
        "    validate?: boolean;",
        "    render?: JSONObject;",
        "    strict?: boolean | { level?: number };",
        "    pin?: Flag;",
        "    limit?: number;",
        "    tree?: Tree;",
        "  };",
        "}",
        "export type Flag = boolean;",
        "export interface Tree { walk?: boolean; child?: Tree }",
      ].join("\n"),
    )
    .replace(
      "export type ClientRequest = PingRequest | CallToolRequest;",
      `export type ClientRequest = PingRequest | CallToolRequest | ${GATED.map((m) => m.type).join(" | ")};`,
    )
    .concat(
      GATED.map(
        (m) => `\nexport interface ${m.type} extends JSONRPCRequest { method: "${m.method}"; }\n`,
      ).join(""),
    );
  const gates = byMethod(buildProtocol(readSchemaText("draft.ts", draft)).methods);
  const gate = (method: string) => gates.get(method)?.capabilities["client->server"];

  it.each([
    ["tools/validate", ["tools", "validate"], "boolean"],
    ["tools/render", ["tools", "render"], "object"],
    ["tools/strict", ["tools", "strict"], "object"],
    ["tools/pin", ["tools", "pin"], "boolean"],
    // A number is a setting, not a capability: the method is gated by tools.
    ["tools/limit", ["tools"], "object"],
    ["tools/tree/walk", ["tools", "tree", "walk"], "boolean"],
  ])("%s is gated by %j, declared as %s", (method, path, leaf) => {
    expect(gate(method)).toEqual({ side: "server", path, leaf });
  });
});
