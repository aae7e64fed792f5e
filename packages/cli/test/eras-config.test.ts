import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadEras } from "../src/cli/commands.js";
import { existsSync } from "node:fs";
import { cli, fakeSpec, SPEC_DIR, tempDir } from "./helpers.js";

const schemaOf = (revision: string) =>
  readFileSync(join(SPEC_DIR, "schema", revision, "schema.ts"), "utf8");

describe("revisions of one output", () => {
  it("takes the newest as the handlers' revision and the others as legacy, newest first", () => {
    const { loaded, legacy } = loadEras(SPEC_DIR, [
      "2025-03-26",
      "2026-07-28",
      "2025-11-25",
      "2025-11-25",
    ]);
    expect(loaded.revision.name).toBe("2026-07-28");
    expect(legacy.map((l) => l.revision.name)).toEqual(["2025-11-25", "2025-03-26"]);
  });

  it("refuses an initialize-based newest revision, and legacy revisions without initialize", () => {
    expect(() => loadEras(SPEC_DIR, ["2025-11-25", "2025-06-18"])).toThrow(
      /needs a stateless newest revision .* 2025-11-25 is initialize-based/,
    );
    expect(() => loadEras(SPEC_DIR, [])).toThrow(/'revisions' is empty/);
  });

  it("one revision is an ordinary single-revision output", () => {
    const { loaded, legacy } = loadEras(SPEC_DIR, ["2025-06-18"]);
    expect([loaded.revision.name, legacy.length]).toEqual(["2025-06-18", 0]);
  });

  it("refuses a draft with a per-request version but no error to refuse a version with, rather than generating it modern-only", () => {
    // Half of 2026-07-28's statelessness: `_meta` carries the version, the schema has no
    // UNSUPPORTED_PROTOCOL_VERSION; the runtime could not answer an unsupported version.
    const draft = schemaOf("2026-07-28").replaceAll(
      "UNSUPPORTED_PROTOCOL_VERSION",
      "VERSION_REFUSED_ELSEWHERE",
    );
    const spec = fakeSpec(draft, "2030-01-01");
    mkdirSync(join(spec, "schema", "2025-11-25"));
    writeFileSync(join(spec, "schema", "2025-11-25", "schema.ts"), schemaOf("2025-11-25"));
    expect(() => loadEras(spec, ["2030-01-01", "2025-11-25"])).toThrow(
      /needs a stateless newest revision .* 2030-01-01 is not stateless \(.*UNSUPPORTED_PROTOCOL_VERSION/,
    );
  });

  it("serves an older stateless revision beside a newer one, and refuses two revisions of one protocol version in one line", () => {
    // A spec bump: a newer stateless revision; 2026-07-28 stays served per request.
    const bumped = schemaOf("2026-07-28").replace(
      'LATEST_PROTOCOL_VERSION = "2026-07-28"',
      'LATEST_PROTOCOL_VERSION = "2026-12-01"',
    );
    const spec = fakeSpec(bumped, "2026-12-01");
    for (const revision of ["2026-07-28", "2025-11-25"]) {
      mkdirSync(join(spec, "schema", revision));
      writeFileSync(join(spec, "schema", revision, "schema.ts"), schemaOf(revision));
    }
    const { loaded, legacy } = loadEras(spec, ["2025-11-25", "2026-07-28", "2026-12-01"]);
    expect([loaded.revision.name, ...legacy.map((l) => l.revision.name)]).toEqual([
      "2026-12-01",
      "2026-07-28",
      "2025-11-25",
    ]);
    // A copy that still says 2026-07-28: requests of the two could not be told apart.
    writeFileSync(join(spec, "schema", "2026-12-01", "schema.ts"), schemaOf("2026-07-28"));
    const out = join(tempDir(), "out");
    const refused = cli([
      "generate",
      "--spec",
      spec,
      "--revisions",
      "2026-12-01,2026-07-28",
      "--out",
      out,
    ]);
    expect(refused.status).toBe(1);
    expect(refused.stderr.trim().split("\n")).toEqual([
      "mcp-gen: 2026-07-28 and 2026-12-01 both speak protocol version 2026-07-28: list one of them",
    ]);
    expect(existsSync(out)).toBe(false);
  });
});
