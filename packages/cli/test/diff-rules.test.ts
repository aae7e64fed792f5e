import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { diffMarkdown, diffRevisions, type Change } from "../src/diff/diff.js";
import { loadRevision, type LoadedRevision } from "../src/schema/index.js";
import { readSchemaText } from "../src/schema/reader.js";
import { buildProtocol } from "../src/schema/protocol.js";
import { requestFunctionName } from "../src/generators/emit/names.js";
import { cli, fakeSpec, SPEC_DIR } from "./helpers.js";

// What a maintainer simulating a draft does: copy the latest schema.ts, edit it, diff.
// Each test edits the real 2026-07-28 schema with string replacements.

const LATEST = "2026-07-28";
const latestText = readFileSync(join(SPEC_DIR, "schema", LATEST, "schema.ts"), "utf8");
const latest = loadRevision(SPEC_DIR, LATEST);

function edited(edits: [string, string][], append = ""): string {
  let text = latestText;
  for (const [from, to] of edits) {
    expect(text.includes(from), from).toBe(true);
    text = text.split(from).join(to);
  }
  return text + append;
}

function load(name: string, text: string): LoadedRevision {
  const model = readSchemaText(`${name}/schema.ts`, text);
  return {
    revision: { name } as LoadedRevision["revision"],
    model,
    protocol: buildProtocol(model),
  };
}

/** The diff from 2026-07-28 to an edited copy, and back. */
function diffTo(edits: [string, string][], append = "") {
  const draft = load("2026-12-01", edited(edits, append));
  const forward = diffRevisions(latest, draft);
  const find = (kind: string, subject: string, changes: Change[] = forward.changes) =>
    changes.filter((c) => c.kind === kind && c.subject === subject);
  return { forward, backward: diffRevisions(draft, latest), find };
}

const TOOLS_CAPABILITY =
  "  tools?: {\n    /**\n     * Whether this server supports notifications for changes to the tool list.\n     */\n    listChanged?: boolean;\n  };";
const CLIENT_CAPABILITIES_END =
  "  extensions?: { [key: string]: JSONObject };\n}\n\n/**\n * Capabilities that a server";
const CACHE_SCOPE = 'cacheScope: "public" | "private";';
const VALIDATE_TOOL = `
export interface ValidateToolRequest extends JSONRPCRequest {
  method: "tools/validate";
  params: { name: string };
}
export interface ValidateToolResult extends Result {
  valid: boolean;
}
`;
const CONFIRM = `
export interface ConfirmRequest {
  method: "confirm/ask";
  params: { message: string };
}
export interface ConfirmResult {
  confirmed: boolean;
}
`;

describe("breaking is decided by shape and by who sends the type", () => {
  it("an optional field, top-level or inside an inline object, breaks nobody", () => {
    const { forward, find } = diffTo([
      [TOOLS_CAPABILITY, "  tools?: {\n    listChanged?: boolean;\n    validate?: boolean;\n  };"],
      [CLIENT_CAPABILITIES_END, CLIENT_CAPABILITIES_END.replace("}\n", "  confirm?: {};\n}\n")],
    ]);
    expect(find("field", "ServerCapabilities.tools.validate")).toEqual([
      {
        kind: "field",
        subject: "ServerCapabilities.tools.validate",
        change: "added",
        to: "optional boolean",
        breaking: false,
        breaks: [],
      },
    ]);
    expect(find("field", "ClientCapabilities.confirm")).toMatchObject([
      { change: "added", breaking: false },
    ]);
    expect(find("field", "ServerCapabilities.tools")).toEqual([]);
    expect(forward.changes.filter((c) => c.breaking)).toEqual([]);
  });

  it("a required field breaks the side that builds the type, a removed one the side that reads it", () => {
    const { forward, backward, find } = diffTo([
      [
        "export interface CallToolRequestParams extends InputResponseRequestParams {\n",
        "export interface CallToolRequestParams extends InputResponseRequestParams {\n  dryRun: boolean;\n",
      ],
      [CACHE_SCOPE, `${CACHE_SCOPE}\n  region: string;`],
    ]);
    // Clients build tools/call params; servers build results.
    expect(find("field", "CallToolRequestParams.dryRun")).toMatchObject([
      { change: "added", breaking: true, breaks: ["client"] },
    ]);
    expect(find("field", "CacheableResult.region")).toMatchObject([
      { change: "added", breaks: ["server"] },
    ]);
    // Back again the fields are removed: now the readers break.
    expect(find("field", "CallToolRequestParams.dryRun", backward.changes)).toMatchObject([
      { change: "removed", breaks: ["server"] },
    ]);
    expect(find("field", "CacheableResult.region", backward.changes)).toMatchObject([
      { change: "removed", breaks: ["client"] },
    ]);
    expect(diffMarkdown(forward)).toMatch(
      /^- \*\*breaks clients\*\* `CallToolRequestParams\.dryRun` added: `required boolean`$/m,
    );
  });

  it("a wider union breaks its readers, a narrower one its senders", () => {
    const wider = diffTo([[CACHE_SCOPE, 'cacheScope: "public" | "private" | "shared";']]);
    expect(wider.find("field", "CacheableResult.cacheScope")).toMatchObject([
      { detail: "type", breaks: ["client"] },
    ]);
    const narrower = diffTo([[CACHE_SCOPE, 'cacheScope: "public";']]);
    expect(narrower.find("field", "CacheableResult.cacheScope")).toMatchObject([
      { detail: "type", breaks: ["server"] },
    ]);
    // A literal widened to its keyword widens too; `string | null` for `string` as well.
    const keyword = diffTo([[CACHE_SCOPE, "cacheScope: string;"]]);
    expect(keyword.find("field", "CacheableResult.cacheScope")).toMatchObject([
      { breaks: ["client"] },
    ]);
    expect(
      keyword.find("field", "CacheableResult.cacheScope", keyword.backward.changes),
    ).toMatchObject([{ breaks: ["server"] }]);
  });

  it("a type both sides send breaks both; the JSON says which sides break", () => {
    // ContentBlock is sent by servers (tool results) and, in sampling results, by clients.
    const { find } = diffTo([
      ["export interface TextContent {\n", "export interface TextContent {\n  lang: string;\n"],
    ]);
    expect(find("field", "TextContent.lang")).toMatchObject([
      { breaking: true, breaks: ["client", "server"] },
    ]);
  });
});

describe("what is not a break, in the corpus", () => {
  it("a field moved into a base, a literal beside `string`, `object` made `JSONObject`", () => {
    const june = diffRevisions(
      loadRevision(SPEC_DIR, "2025-03-26"),
      loadRevision(SPEC_DIR, "2025-06-18"),
    ).changes;
    // 2025-06-18 moved `name` of Implementation, Tool, Prompt... into BaseMetadata.
    expect(june.filter((c) => c.subject.endsWith(".name"))).toEqual([]);
    const november = diffRevisions(
      loadRevision(SPEC_DIR, "2025-06-18"),
      loadRevision(SPEC_DIR, "2025-11-25"),
    ).changes;
    expect(november.find((c) => c.subject === "CreateMessageResult.stopReason")).toMatchObject({
      to: '"endTurn" | "stopSequence" | "maxTokens" | "toolUse" | string',
      breaking: false,
    });
    const latestChanges = diffRevisions(loadRevision(SPEC_DIR, "2025-11-25"), latest).changes;
    expect(
      latestChanges.find((c) => c.subject === "ClientCapabilities.elicitation.form"),
    ).toMatchObject({ from: "object", to: "JSONObject", breaking: false });
  });
});

describe("renames", () => {
  const { forward, backward, find } = diffTo([["ListPrompts", "ListPromptTemplates"]]);

  it("a type removed and one added with the same shape is a rename, and the method's wire format is unchanged", () => {
    for (const name of ["ListPromptsRequest", "ListPromptsResult", "ListPromptsResultResponse"]) {
      expect(find("type", name), name).toEqual([
        {
          kind: "type",
          subject: name,
          change: "renamed",
          from: name,
          to: name.replace("ListPrompts", "ListPromptTemplates"),
          detail: "same shape",
          breaking: false,
          breaks: [],
        },
      ]);
    }
    expect(forward.changes.filter((c) => c.kind === "type" && c.change !== "renamed")).toEqual([]);
    expect(find("method", "prompts/list")).toEqual([
      {
        kind: "method",
        subject: "prompts/list",
        change: "changed",
        from: "ListPromptsResult",
        to: "ListPromptTemplatesResult",
        detail: "result type renamed",
        breaking: false,
        breaks: [],
      },
    ]);
    // ClientRequest and ServerResult swap one member for its new name: the rename says it.
    expect(forward.changes.filter((c) => c.kind === "union")).toEqual([]);
    expect(backward.changes.filter((c) => c.change === "renamed").map((c) => c.to)).toEqual([
      "ListPromptsRequest",
      "ListPromptsResult",
      "ListPromptsResultResponse",
    ]);
    const md = diffMarkdown(forward);
    expect(md).toMatch(
      /^- `ListPromptsResult` renamed to `ListPromptTemplatesResult` \(same shape\)$/m,
    );
    expect(md).toMatch(
      /^- `prompts\/list` result type renamed `ListPromptsResult` -> `ListPromptTemplatesResult` \(same wire format/m,
    );
    expect(md).not.toMatch(/breaks/);
  });

  it("finds the corpus's own rename: ResourceReference became ResourceTemplateReference in 2025-06-18", () => {
    const changes = diffRevisions(
      loadRevision(SPEC_DIR, "2025-03-26"),
      loadRevision(SPEC_DIR, "2025-06-18"),
    ).changes;
    expect(
      changes.filter(
        (c) => c.subject === "ResourceReference" || c.subject === "ResourceTemplateReference",
      ),
    ).toEqual([
      {
        kind: "type",
        subject: "ResourceReference",
        change: "renamed",
        from: "ResourceReference",
        to: "ResourceTemplateReference",
        detail: "same shape",
        breaking: false,
        breaks: [],
      },
    ]);
  });

  it("a changed shape is not a rename", () => {
    const { find } = diffTo([
      ["ListPrompts", "ListPromptTemplates"],
      ["  prompts: Prompt[];", "  templates: Prompt[];"],
    ]);
    expect(find("type", "ListPromptsResult")).toMatchObject([
      { change: "removed", breaks: ["client", "server"] },
    ]);
    // Clients read `prompts` no more; servers must build the required `templates`.
    expect(find("method", "prompts/list")).toMatchObject([
      { detail: "result", breaking: true, breaks: ["client", "server"] },
    ]);
  });
});

describe("wording: each fact once, in words", () => {
  it("a removed type says what it was; a new input request is not also a union and a type change", () => {
    const { forward, backward } = diffTo(
      [
        [
          "CreateMessageRequest | ListRootsRequest | ElicitRequest;",
          "CreateMessageRequest | ListRootsRequest | ElicitRequest | ConfirmRequest;",
        ],
      ],
      CONFIRM,
    );
    expect(
      forward.changes.filter((c) => c.subject === "InputRequest" || c.subject === "InputResponse"),
    ).toEqual([]);
    expect(forward.changes.filter((c) => c.kind === "inputRequest")).toHaveLength(1);
    const md = diffMarkdown(backward);
    expect(md).toMatch(
      /^- \*\*breaks clients and servers\*\* `ConfirmRequest` removed \(interface\): had fields `method, params`$/m,
    );
    expect(md).toMatch(
      /^- \*\*breaks clients and servers\*\* `confirm\/ask` input request removed: was `ConfirmRequest`$/m,
    );
  });

  it("counts one change as one change", () => {
    const { forward } = diffTo([[CACHE_SCOPE, `${CACHE_SCOPE}\n  region?: string;`]]);
    expect(forward.changes).toHaveLength(1);
    expect(diffMarkdown(forward)).toMatch(/^1 change, 0 breaking\.$/m);
  });
});

describe("what to update in code", () => {
  const { forward, backward, find } = diffTo(
    [
      ["  | ListToolsRequest;", "  | ListToolsRequest\n  | ValidateToolRequest;"],
      ["  | ListToolsResult\n", "  | ListToolsResult\n  | ValidateToolResult\n"],
      [
        "CreateMessageRequest | ListRootsRequest | ElicitRequest;",
        "CreateMessageRequest | ListRootsRequest | ElicitRequest | ConfirmRequest;",
      ],
      [CLIENT_CAPABILITIES_END, CLIENT_CAPABILITIES_END.replace("}\n", "  confirm?: {};\n}\n")],
    ],
    VALIDATE_TOOL + CONFIRM,
  );

  it("a new method names its types, handler entry, client function and capability", () => {
    expect(find("method", "tools/validate")).toEqual([
      {
        kind: "method",
        subject: "tools/validate",
        change: "added",
        to: "request client->server",
        breaking: false,
        breaks: [],
        code: {
          params: 'ValidateToolRequest["params"]',
          result: "ValidateToolResult",
          handlers: [{ side: "server", interface: "ServerHandlers", key: "tools/validate" }],
          functions: [
            { side: "client", interface: "Client", name: requestFunctionName("tools/validate") },
          ],
          capabilities: [{ side: "server", path: ["tools"] }],
        },
      },
    ]);
    const md = diffMarkdown(forward);
    expect(md).toContain(
      '  - servers: add the `"tools/validate"` handler to `ServerHandlers` (handlers.ts)\n  - clients: new function `Client.validateTool()`\n  - gated by server capability `tools`',
    );
    expect(diffMarkdown(backward)).toContain(
      '  - servers: remove the `"tools/validate"` handler from `ServerHandlers` (handlers.ts)',
    );
  });

  it("an input request is structured in JSON, and gated by a new capability breaks nobody", () => {
    expect(find("inputRequest", "confirm/ask")).toEqual([
      {
        kind: "inputRequest",
        subject: "confirm/ask",
        change: "added",
        to: "ConfirmRequest",
        breaking: false,
        breaks: [],
        code: {
          params: 'ConfirmRequest["params"]',
          result: "ConfirmResult",
          handlers: [{ side: "client", interface: "InputHandlers", key: "confirm/ask" }],
          functions: [],
          capabilities: [{ side: "client", path: ["confirm"] }],
        },
      },
    ]);
    // Gated by a capability clients already declare, older clients may be asked: it breaks them.
    const { find: findGated } = diffTo(
      [
        [
          "CreateMessageRequest | ListRootsRequest | ElicitRequest;",
          "CreateMessageRequest | ListRootsRequest | ElicitRequest | ElicitConfirmRequest;",
        ],
      ],
      CONFIRM.replace("ConfirmRequest", "ElicitConfirmRequest").replace(
        "confirm/ask",
        "elicitation/confirm",
      ),
    );
    expect(findGated("inputRequest", "elicitation/confirm")).toMatchObject([
      { breaks: ["client"], code: { capabilities: [{ side: "client", path: ["elicitation"] }] } },
    ]);
  });

  it("names the removed methods' handler entries from the older revision", () => {
    const change = diffRevisions(loadRevision(SPEC_DIR, "2025-11-25"), latest).changes.find(
      (c) => c.kind === "method" && c.subject === "roots/list",
    );
    expect(change?.code).toMatchObject({
      handlers: [{ side: "client", interface: "ClientHandlers", key: "roots/list" }],
      functions: [{ side: "server", interface: "ServerRequester", name: "listRoots" }],
    });
  });

  it("asks for no handler for what the dispatcher answers itself (ping, server/discover)", () => {
    const changes = diffRevisions(loadRevision(SPEC_DIR, "2025-11-25"), latest).changes;
    const code = (method: string) =>
      changes.find((c) => c.kind === "method" && c.subject === method)?.code;
    expect(code("server/discover")).toMatchObject({
      handlers: [],
      functions: [{ name: "discover" }],
    });
    expect(code("ping")).toMatchObject({ handlers: [] });
  });
});

describe("mcp-gen diff --fail-on-breaking", { tags: "process" }, () => {
  it("exits 1 when a change breaks clients or servers, 0 when none does, and prints the diff either way", () => {
    const spec = fakeSpec(
      edited([[CACHE_SCOPE, `${CACHE_SCOPE}\n  region?: string;`]]),
      "2026-12-01",
    );
    mkdirSync(join(spec, "schema", LATEST));
    copyFileSync(
      join(SPEC_DIR, "schema", LATEST, "schema.ts"),
      join(spec, "schema", LATEST, "schema.ts"),
    );
    const harmless = cli([
      "diff",
      "--spec",
      spec,
      "--from",
      LATEST,
      "--to",
      "2026-12-01",
      "--fail-on-breaking",
    ]);
    expect(harmless.status, harmless.stderr).toBe(0);
    expect(harmless.stdout).toContain("`CacheableResult.region` added");
    const breaking = cli([
      "diff",
      "--spec",
      spec,
      "--from",
      "2026-12-01",
      "--to",
      LATEST,
      "--fail-on-breaking",
      "--format",
      "json",
    ]);
    expect(breaking.status, breaking.stderr).toBe(1);
    expect(JSON.parse(breaking.stdout).changes).toMatchObject([
      { subject: "CacheableResult.region", change: "removed", breaks: ["client"] },
    ]);
    expect(cli(["diff", "--spec", spec, "--from", "2026-12-01", "--to", LATEST]).status).toBe(0);
  });
});
