import { describe, expect, it } from "vitest";
import { diffMarkdown, diffRevisions, type Change } from "../src/diff/diff.js";
import { loadRevision } from "../src/schema/index.js";
import { readSchemaText } from "../src/schema/reader.js";
import { buildProtocol } from "../src/schema/protocol.js";
import type { LoadedRevision } from "../src/schema/index.js";
import { cli, readFixture, SPEC_DIR, SPEC_REVISIONS } from "./helpers.js";

const diff = diffRevisions(
  loadRevision(SPEC_DIR, "2025-11-25"),
  loadRevision(SPEC_DIR, "2026-07-28"),
);
const find = (kind: string, subject: string, change?: Change["change"]) =>
  diff.changes.find(
    (c) =>
      c.kind === kind && c.subject === subject && (change === undefined || c.change === change),
  );

describe("mcp-gen diff 2025-11-25 -> 2026-07-28", () => {
  it("names the removed methods, as breaking", () => {
    for (const method of [
      "initialize",
      "ping",
      "logging/setLevel",
      "resources/subscribe",
      "resources/unsubscribe",
    ]) {
      expect(find("method", method, "removed"), method).toMatchObject({ breaking: true });
    }
  });

  it("names the server->client requests removed, and their return as input requests", () => {
    for (const method of ["sampling/createMessage", "roots/list", "elicitation/create"]) {
      expect(find("method", method, "removed"), method).toMatchObject({
        from: "request server->client",
        breaking: true,
      });
      expect(find("inputRequest", method, "added"), method).toBeDefined();
    }
    expect(find("union", "ServerRequest", "removed")).toMatchObject({ breaking: true });
  });

  it("names the added methods and the new input_required ones", () => {
    expect(find("method", "server/discover", "added")).toMatchObject({ breaking: false });
    expect(find("method", "subscriptions/listen", "added")).toBeDefined();
    for (const method of ["tools/call", "prompts/get", "resources/read"]) {
      expect(find("method", method, "changed"), method).toMatchObject({
        detail: "input_required",
        from: "false",
        to: "true",
      });
    }
  });

  it("resultType is now required on results; cacheable results gain ttlMs and cacheScope", () => {
    expect(find("field", "Result.resultType", "added")).toMatchObject({
      to: "required ResultType",
      breaking: true,
    });
    expect(find("type", "CacheableResult", "added")?.to).toBe("ttlMs, cacheScope");
    for (const type of [
      "ListToolsResult",
      "ListPromptsResult",
      "ListResourcesResult",
      "ReadResourceResult",
    ]) {
      const change = find("type", type, "changed");
      expect(change?.detail, type).toMatch(/gains .*ttlMs, cacheScope/);
      // New fields on the wire: not the envelope's.
      expect(change?.detail, type).not.toMatch(/envelope/);
      expect(change?.to, type).toMatch(/CacheableResult/);
    }
  });

  it("names the new and the removed error codes", () => {
    expect(find("error", "HEADER_MISMATCH", "added")?.to).toBe("-32020");
    expect(find("error", "MISSING_REQUIRED_CLIENT_CAPABILITY", "added")?.to).toBe("-32021");
    expect(find("error", "UNSUPPORTED_PROTOCOL_VERSION", "added")?.to).toBe("-32022");
    expect(find("error", "URL_ELICITATION_REQUIRED", "removed")).toMatchObject({
      from: "-32042",
      breaking: true,
    });
  });

  it("names the protocol version bump and the deprecations of roots, sampling and logging", () => {
    expect(find("constant", "LATEST_PROTOCOL_VERSION", "changed")).toMatchObject({
      from: '"2025-11-25"',
      to: '"2026-07-28"',
    });
    for (const subject of [
      "ClientCapabilities.roots",
      "ClientCapabilities.sampling",
      "ServerCapabilities.logging",
      "CreateMessageRequest",
      "ListRootsRequest",
      "LoggingMessageNotification",
    ]) {
      expect(find("deprecation", subject, "added"), subject).toBeDefined();
    }
  });

  it("prints Markdown with breaking changes marked, and JSON from the CLI", () => {
    const md = diffMarkdown(diff);
    expect(md).toMatch(/^# MCP schema 2025-11-25 -> 2026-07-28$/m);
    expect(md).toMatch(
      /^- \*\*breaks clients and servers\*\* `initialize` removed \(request client->server\)$/m,
    );
    expect(md).toMatch(
      /^- \*\*breaks clients\*\* `tools\/call` changed \(input_required\): `false` -> `true`$/m,
    );
    expect(md).toMatch(/^- `ClientCapabilities\.roots` deprecated$/m);
    const r = cli([
      "diff",
      "--spec",
      SPEC_DIR,
      "--from",
      "2025-11-25",
      "--to",
      "2026-07-28",
      "--format",
      "json",
    ]);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(JSON.parse(JSON.stringify(diff)));
    expect(
      cli([
        "diff",
        "--spec",
        SPEC_DIR,
        "--from",
        "2025-11-25",
        "--to",
        "2026-07-28",
        "--format",
        "xml",
      ]).status,
    ).toBe(2);
    expect(cli(["diff", "--spec", SPEC_DIR, "--from", "2025-11-25"]).status).toBe(2);
  });

  it("prints types on one line, without docs, and no placeholder for what is not there", () => {
    const md = diffMarkdown(diff);
    // Every item is one line: nothing but headings, the summary, list items and their sub-items.
    for (const line of md.split("\n"))
      expect(line, line).toMatch(/^(#|- | {2}- |\d+ changes?, |$)/);
    expect(md).not.toMatch(/\/\*\*|`nothing`|`none`|``/);
    expect(md).toMatch(/^- `JSONObject` added: `\{ \[key: string\]: JSONValue \}`$/m);
    expect(md).toMatch(
      /^- `InputRequests` added \(interface\): fields `\[key: string\]: InputRequest`$/m,
    );
    // Servers send CreateMessageRequest: clients read it and lose jsonrpc and id; going back, servers must set them again.
    expect(md).toMatch(
      /^- \*\*breaks clients\*\* `CreateMessageRequest` changed \(extends; loses jsonrpc, id; JSON-RPC envelope fields, the messages are unchanged\): no longer extends `JSONRPCRequest`$/m,
    );
    const reverse = diffMarkdown(
      diffRevisions(loadRevision(SPEC_DIR, "2026-07-28"), loadRevision(SPEC_DIR, "2025-11-25")),
    );
    expect(reverse).toMatch(
      /^- \*\*breaks servers\*\* `CreateMessageRequest` changed \(extends; gains jsonrpc, id; JSON-RPC envelope fields, the messages are unchanged\): now extends `JSONRPCRequest`$/m,
    );
  });

  it("a revision against itself has no changes", () => {
    const same = loadRevision(SPEC_DIR, "2025-06-18");
    expect(diffRevisions(same, same).changes).toEqual([]);
  });
});

/** What the reverse diff must say for a change: added and removed swap, and so do from and to (a rename is about the new name). */
function mirrored(c: Change): string {
  const change = c.change === "added" ? "removed" : c.change === "removed" ? "added" : c.change;
  return key({
    ...c,
    change,
    from: c.to,
    to: c.from,
    subject: c.change === "renamed" ? c.to! : c.subject,
  });
}

/** A change without its breaking flag (direction-dependent) and with only the first word of its detail ("extends; gains x" reverses to "extends; loses x"). */
function key(
  c: Omit<Change, "from" | "to"> & { from?: string | undefined; to?: string | undefined },
): string {
  return JSON.stringify({
    kind: c.kind,
    subject: c.subject,
    change: c.change,
    detail: c.detail?.split(";")[0],
    from: c.from,
    to: c.to,
  });
}

function expectMirrors(a: LoadedRevision, b: LoadedRevision) {
  const forward = diffRevisions(a, b).changes;
  const backward = diffRevisions(b, a).changes;
  expect(backward.map(key).sort()).toEqual(forward.map(mirrored).sort());
  return [...forward, ...backward];
}

function loadText(name: string, text: string): LoadedRevision {
  const model = readSchemaText(`${name}.ts`, text);
  return {
    revision: { name } as LoadedRevision["revision"],
    model,
    protocol: buildProtocol(model),
  };
}

/** The fixture schema with one change of every kind, each an addition and a removal. */
function changedFixture(): string {
  const edits: [string, string][] = [
    ["export type ServerRequest = PingRequest;", ""],
    [
      "export type ClientRequest = PingRequest | CallToolRequest;",
      "export type ClientRequest = CallToolRequest | ListToolsRequest;",
    ],
    ["export type InputRequest = ElicitRequest;", "export type InputRequest = ListRootsRequest;"],
    ["  weight?: number;", "  priority?: number;"],
    [
      'export interface TextContent {\n  type: "text";\n  text: string;',
      'export interface TextContent {\n  type: "text";\n  text: string | null;',
    ],
    ["export const METHOD_NOT_FOUND = -32601;", "export const INVALID_PARAMS = -32602;"],
    ["code: typeof METHOD_NOT_FOUND;", "code: typeof INVALID_PARAMS;"],
    ["export const PAGE_SIZE = 50;", "export const MAX_ROUNDS = 10;"],
    [
      'export const LATEST_PROTOCOL_VERSION = "2099-01-01";',
      'export const LATEST_PROTOCOL_VERSION = "2100-01-01";',
    ],
    [
      "export interface ImageContent {",
      "/** @deprecated Use text. */\nexport interface ImageContent {",
    ],
  ];
  let text = readFixture("mini-schema.ts");
  for (const [from, to] of edits) {
    expect(text.includes(from), from).toBe(true);
    text = text.replace(from, to);
  }
  return `${text}
export interface ListToolsRequest extends JSONRPCRequest {
  method: "tools/list";
  params?: RequestParams;
}
export interface ListToolsResult extends Result {
  tools: string[];
}
export interface ListRootsRequest {
  method: "roots/list";
  params?: {};
}
export interface ListRootsResult {
  roots: string[];
}
`;
}

describe("mcp-gen diff is symmetric", () => {
  it("every kind of change is reported both ways, added in one direction and removed in the other", () => {
    const changes = expectMirrors(
      loadText("a", readFixture("mini-schema.ts")),
      loadText("b", changedFixture()),
    );
    const seen = new Set(changes.map((c) => `${c.kind} ${c.change}`));
    for (const kind of [
      "method",
      "inputRequest",
      "type",
      "field",
      "union",
      "error",
      "constant",
      "deprecation",
    ]) {
      expect(seen, kind).toContain(`${kind} added`);
      expect(seen, kind).toContain(`${kind} removed`);
    }
    expect(seen).toContain("field changed");
    expect(seen).toContain("constant changed");
  });

  it("2026-07-28 -> 2025-11-25 reports the removed input requests", () => {
    const reverse = diffRevisions(
      loadRevision(SPEC_DIR, "2026-07-28"),
      loadRevision(SPEC_DIR, "2025-11-25"),
    );
    for (const method of ["sampling/createMessage", "roots/list", "elicitation/create"]) {
      expect(
        reverse.changes.find((c) => c.kind === "inputRequest" && c.subject === method),
        method,
      ).toMatchObject({ change: "removed", breaking: true });
    }
  });

  it("removed constants are reported, as breaking", () => {
    const changes = diffRevisions(
      loadText("b", changedFixture()),
      loadText("a", readFixture("mini-schema.ts")),
    ).changes;
    expect(changes.find((c) => c.kind === "constant" && c.subject === "MAX_ROUNDS")).toMatchObject({
      change: "removed",
      from: "10",
      breaking: true,
    });
    expect(changes.find((c) => c.kind === "error" && c.subject === "INVALID_PARAMS")).toMatchObject(
      { change: "removed", from: "-32602", breaking: true },
    );
  });

  it.each(SPEC_REVISIONS.slice(1).map((to, i) => [SPEC_REVISIONS[i]!, to]))(
    "%s <-> %s mirror each other",
    (from, to) => {
      expectMirrors(loadRevision(SPEC_DIR, from), loadRevision(SPEC_DIR, to));
    },
  );
});
