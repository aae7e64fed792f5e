import type { Rule } from "./finding.js";
import { undocumentedField, undocumentedType } from "./rules/docs.js";
import { unionWithoutDiscriminant } from "./rules/unions.js";
import { irregularMethodName, requestWithoutResult } from "./rules/methods.js";
import { deprecatedWithoutReference } from "./rules/deprecated.js";
import { invalidExample } from "./rules/examples.js";
import { jsonDefMissing, jsonFieldsMismatch, jsonRequiredMismatch } from "./rules/schema-json.js";

/**
 * Every rule of `mcp-gen lint`, in the order the output lists them. docs/reference/lint.md
 * documents each; packages/cli/test/lint-rules.test.ts has a fixture that triggers each.
 */
export const RULES: readonly Rule[] = [
  undocumentedType,
  undocumentedField,
  unionWithoutDiscriminant,
  requestWithoutResult,
  irregularMethodName,
  deprecatedWithoutReference,
  invalidExample,
  jsonDefMissing,
  jsonRequiredMismatch,
  jsonFieldsMismatch,
];
