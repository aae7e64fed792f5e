import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadEras } from "../cli/commands.js";
import { fakeSpec, SPEC_DIR } from "./helpers.js";

const schemaOf = (revision: string) => readFileSync(join(SPEC_DIR, "schema", revision, "schema.ts"), "utf8");

describe("revisions of one output", () => {
  it("takes the newest as the handlers' revision and the others as legacy, newest first", () => {
    const { loaded, legacy } = loadEras(SPEC_DIR, ["2025-03-26", "2026-07-28", "2025-11-25", "2025-11-25"]);
    expect(loaded.revision.name).toBe("2026-07-28");
    expect(legacy.map((l) => l.revision.name)).toEqual(["2025-11-25", "2025-03-26"]);
  });

  it("refuses an initialize-based newest revision, and legacy revisions without initialize", () => {
    expect(() => loadEras(SPEC_DIR, ["2025-11-25", "2025-06-18"])).toThrow(/needs a stateless newest revision .* 2025-11-25 is initialize-based/);
    expect(() => loadEras(SPEC_DIR, [])).toThrow(/'revisions' is empty/);
  });

  it("one revision is an ordinary single-revision output", () => {
    const { loaded, legacy } = loadEras(SPEC_DIR, ["2025-06-18"]);
    expect([loaded.revision.name, legacy.length]).toEqual(["2025-06-18", 0]);
  });

  it("refuses a draft with a per-request version but no error to refuse a version with, rather than generating it modern-only", () => {
    // Half of 2026-07-28's statelessness: `_meta` carries the version, the schema has no
    // UNSUPPORTED_PROTOCOL_VERSION; the runtime could not answer an unsupported version.
    const draft = schemaOf("2026-07-28").replaceAll("UNSUPPORTED_PROTOCOL_VERSION", "VERSION_REFUSED_ELSEWHERE");
    const spec = fakeSpec(draft, "2030-01-01");
    mkdirSync(join(spec, "schema", "2025-11-25"));
    writeFileSync(join(spec, "schema", "2025-11-25", "schema.ts"), schemaOf("2025-11-25"));
    expect(() => loadEras(spec, ["2030-01-01", "2025-11-25"])).toThrow(/needs a stateless newest revision .* 2030-01-01 is not stateless \(.*UNSUPPORTED_PROTOCOL_VERSION/);
  });
});
