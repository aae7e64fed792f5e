// examples/testing, the code of the guide's "Testing a server" page (docs/guide/testing.md):
// a server's tests written with node:test and the test client (connectInMemory), as a user's
// project has them. Generated from the example's own mcp-gen.config.json, type-checked under
// the strict flags with its generated code, compiled, then run with `node --test`: every test
// must pass, in both eras.
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { typecheck } from "./helpers.js";
import { prepareExample, runScript, transpiledExample } from "./support/example-project.js";

let dir: string;
let sources: string[];

beforeAll(async () => {
  ({ dir, sources } = await prepareExample("testing"));
}, 180_000);

describe("examples/testing", () => {
  it("type-checks with its generated code under the strict flags", () => {
    expect(sources).toEqual(["server.test.ts", "server.ts"]);
    expect(typecheck(sources.map((f) => join(dir, f)))).toEqual([]);
  }, 180_000);

  it("passes its own tests under node --test, in both eras", async () => {
    const js = transpiledExample(dir);
    const ran = await runScript("--test", [join(js, "server.test.js")]);
    expect(ran.status, ran.stdout + ran.stderr).toBe(0);
    // Four tests in each era, each named with it, and none failed or skipped.
    for (const era of ["modern", "legacy"]) expect(ran.stdout).toContain(`server.ts, ${era} era`);
    expect(ran.stdout).toMatch(/^# tests 8$/m);
    expect(ran.stdout).toMatch(/^# pass 8$/m);
    expect(ran.stdout).toMatch(/^# fail 0$/m);
  }, 180_000);
});
