import { describe, expect, it } from "vitest";
import { loadEras } from "../cli/commands.js";
import { SPEC_DIR } from "./helpers.js";

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
});
