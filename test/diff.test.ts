import { describe, expect, it } from "vitest";
import { diffMarkdown, diffRevisions, type Change } from "../schema/diff.js";
import { loadRevision } from "../schema/index.js";
import { cli, SPEC_DIR } from "./helpers.js";

const diff = diffRevisions(loadRevision(SPEC_DIR, "2025-11-25"), loadRevision(SPEC_DIR, "2026-07-28"));
const find = (kind: string, subject: string, change?: Change["change"]) =>
  diff.changes.find((c) => c.kind === kind && c.subject === subject && (change === undefined || c.change === change));

describe("mcp-gen diff 2025-11-25 -> 2026-07-28", () => {
  it("names the removed methods, as breaking", () => {
    for (const method of ["initialize", "ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe"]) {
      expect(find("method", method, "removed"), method).toMatchObject({ breaking: true });
    }
  });

  it("names the server->client requests removed, and their return as input requests", () => {
    for (const method of ["sampling/createMessage", "roots/list", "elicitation/create"]) {
      expect(find("method", method, "removed"), method).toMatchObject({ from: "request server->client", breaking: true });
      expect(find("inputRequest", method, "added"), method).toBeDefined();
    }
    expect(find("union", "ServerRequest", "removed")).toMatchObject({ breaking: true });
  });

  it("names the added methods and the new input_required ones", () => {
    expect(find("method", "server/discover", "added")).toMatchObject({ breaking: false });
    expect(find("method", "subscriptions/listen", "added")).toBeDefined();
    for (const method of ["tools/call", "prompts/get", "resources/read"]) {
      expect(find("method", method, "changed"), method).toMatchObject({ detail: "input_required", from: "false", to: "true" });
    }
  });

  it("resultType is now required on results; cacheable results gain ttlMs and cacheScope", () => {
    expect(find("field", "Result.resultType", "added")).toMatchObject({ to: "required ResultType", breaking: true });
    expect(find("type", "CacheableResult", "added")?.to).toBe("ttlMs, cacheScope");
    for (const type of ["ListToolsResult", "ListPromptsResult", "ListResourcesResult", "ReadResourceResult"]) {
      const change = find("type", type, "changed");
      expect(change?.detail, type).toMatch(/gains .*ttlMs, cacheScope/);
      expect(change?.to, type).toMatch(/CacheableResult/);
    }
  });

  it("names the new and the removed error codes", () => {
    expect(find("error", "HEADER_MISMATCH", "added")?.to).toBe("-32020");
    expect(find("error", "MISSING_REQUIRED_CLIENT_CAPABILITY", "added")?.to).toBe("-32021");
    expect(find("error", "UNSUPPORTED_PROTOCOL_VERSION", "added")?.to).toBe("-32022");
    expect(find("error", "URL_ELICITATION_REQUIRED", "removed")).toMatchObject({ from: "-32042", breaking: true });
  });

  it("names the protocol version bump and the deprecations of roots, sampling and logging", () => {
    expect(find("constant", "LATEST_PROTOCOL_VERSION", "changed")).toMatchObject({ from: '"2025-11-25"', to: '"2026-07-28"' });
    for (const subject of ["ClientCapabilities.roots", "ClientCapabilities.sampling", "ServerCapabilities.logging", "CreateMessageRequest", "ListRootsRequest", "LoggingMessageNotification"]) {
      expect(find("deprecation", subject, "added"), subject).toBeDefined();
    }
  });

  it("prints Markdown with breaking changes marked, and JSON from the CLI", () => {
    const md = diffMarkdown(diff);
    expect(md).toMatch(/^# MCP schema 2025-11-25 -> 2026-07-28$/m);
    expect(md).toMatch(/^- \*\*breaking\*\* `initialize` removed/m);
    expect(md).toMatch(/^- `ClientCapabilities\.roots` deprecated$/m);
    const r = cli(["diff", "--spec", SPEC_DIR, "--from", "2025-11-25", "--to", "2026-07-28", "--format", "json"]);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(JSON.parse(JSON.stringify(diff)));
    expect(cli(["diff", "--spec", SPEC_DIR, "--from", "2025-11-25", "--to", "2026-07-28", "--format", "xml"]).status).toBe(2);
    expect(cli(["diff", "--spec", SPEC_DIR, "--from", "2025-11-25"]).status).toBe(2);
  });

  it("a revision against itself has no changes", () => {
    const same = loadRevision(SPEC_DIR, "2025-06-18");
    expect(diffRevisions(same, same).changes).toEqual([]);
  });
});
