import { Ajv2020 } from "ajv/dist/2020.js";
import { fullFormats } from "ajv-formats/dist/formats.js";

// The JSON Schema validator README recommends for defineTools, line for line: 2020-12 (MCP's
// default dialect) with ajv-formats' formats; ajv compiles each schema once and caches it.

const ajv = new Ajv2020({ strict: false, formats: fullFormats });
export const validate = (schema: object, value: unknown) => {
  const check = ajv.compile(schema);
  return check(value)
    ? undefined
    : (check.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? "is invalid"}`);
};
