import { transformSync } from "oxc-transform";

/**
 * Generated or runtime TypeScript as ESM JavaScript for a test to import: types stripped,
 * imports used only as types dropped (as `tsc` with `verbatimModuleSyntax` off does).
 * oxc, not `ts.transpileModule`: the tests only run the code (type-checking is the `compile`
 * tests' job), and TypeScript's transpiler took seconds per revision's validators.ts, about a
 * fifth of `npm test`'s CPU time, where oxc takes tens of milliseconds.
 */
export function transpileForTest(path: string, code: string): string {
  const result = transformSync(path, code, { target: "es2022", sourceType: "module" });
  if (result.errors.length > 0) {
    const [first] = result.errors;
    throw new Error(`transpiling ${path} for a test: ${first?.message ?? "unknown error"}`);
  }
  return result.code;
}
