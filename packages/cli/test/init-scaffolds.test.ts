import ts from "typescript";
import { describe, expect, it } from "vitest";
import { formatTypeScript } from "../src/generators/print/render.js";
import { checkParses } from "../src/generators/print/parse-check.js";
import { printScaffolds, type ScaffoldView } from "../src/generators/init/scaffolds/index.js";

// `mcp-gen init`'s TypeScript files (src/*.ts of the project) are printed by GeneratedFile,
// laid out as prettier lays them out, so init runs no formatter; whatever the user's folder
// is named, the name reaches the code only as an escaped string literal.

const VIEWS: ScaffoldView[] = [
  { name: "my-server", auth: false, unserved: [], dualEra: true },
  {
    name: "my-server",
    auth: true,
    unserved: ["completion/complete", "subscriptions/listen"],
    dualEra: true,
  },
  // A name long enough that the welcome resource's contents no longer fit on a line; and a
  // server of 2026-07-28 alone (--modern-only), whose test runs in one era.
  {
    name: `server-${"x".repeat(60)}`,
    auth: false,
    unserved: ["completion/complete"],
    dualEra: false,
  },
];

/** The string literals of a TypeScript file, by value (what the code evaluates them to). */
function stringLiterals(path: string, code: string): string[] {
  const file = ts.createSourceFile(path, code, ts.ScriptTarget.ES2022);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node)) found.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe("init's TypeScript scaffolds", () => {
  it.each(VIEWS.map((v) => [`${v.name}, auth ${v.auth}`, v] as const))(
    "are laid out as prettier lays them out (%s)",
    async (_, view) => {
      const files = printScaffolds(view);
      expect(files.map((f) => f.path)).toEqual([
        "src/handlers.ts",
        "src/server.ts",
        "src/request-state.ts",
        "src/validate.ts",
        "src/stdio.ts",
        "src/http.ts",
        "src/test/server.test.ts",
        ...(view.auth ? ["src/auth.ts", "src/dev-auth.ts"] : []),
      ]);
      for (const file of files) {
        expect(file.kind, file.path).toBe("scaffold");
        expect(await formatTypeScript(file.code), file.path).toBe(file.code);
      }
    },
  );

  it("an --auth project imports the JWT verifier from the runtime, and has whoami and its test", () => {
    const files = printScaffolds(VIEWS[1]!);
    const code = (path: string) => files.find((f) => f.path === path)!.code;
    expect(code("src/auth.ts")).toContain(
      'import { createDPoPProofVerifier, createJwtVerifier } from "@mcp-gen/runtime/auth/verify";',
    );
    expect(code("src/handlers.ts")).toContain('name: "whoami"');
    expect(code("src/test/server.test.ts")).toContain("test(`whoami answers");
    expect(code("src/http.ts")).toContain('import { protectedServingOrExit } from "./auth.js";');
    const plain = printScaffolds(VIEWS[0]!);
    for (const file of plain) expect(file.code, file.path).not.toMatch(/whoami|auth\.js/);
    expect(plain.find((f) => f.path === "src/handlers.ts")!.code).not.toContain("notImplemented");
  });

  it("escapes the project's name and the unserved methods: the code parses and says them exactly", () => {
    // Not a name init makes (it keeps [a-z0-9-._] of the folder's), but the printer's to escape.
    const name = 'it\'s "quoted" */ ${x} `tick` \\ \n\u2028 ünï';
    const method = 'odd/"method*/';
    const files = printScaffolds({ name, auth: true, unserved: [method], dualEra: true });
    for (const file of files) checkParses(file.path, file.code);
    const server = files.find((f) => f.path === "src/server.ts")!;
    expect(stringLiterals(server.path, server.code)).toContain(name);
    const handlers = files.find((f) => f.path === "src/handlers.ts")!;
    const literals = stringLiterals(handlers.path, handlers.code);
    expect(literals).toContain(`Welcome to ${name}.`);
    expect(literals).toContain(method);
    expect(handlers.code).toContain(`: notImplemented,`);
  });
});
