// The one list of places where schema.json contradicts schema.ts and the generated
// validators follow schema.ts. docs/schema-json-deviations.md explains each; the
// differential test compares against schema.json with these patches applied, and
// packages/cli/test/validators.test.ts pins every entry with its witness value.

type Defs = Record<string, any>;

export interface Deviation {
  revision: string;
  type: string;
  reason: string;
  /** A value schema.ts allows and the unpatched schema.json rejects. */
  witness: unknown;
  patch(defs: Defs): void;
}

export const DEVIATIONS: Deviation[] = [
  {
    revision: "2026-07-28",
    type: "JSONValue",
    reason:
      "schema.ts: `string | number | boolean | null | JSONObject | JSONArray`. typescript-json-schema runs without strictNullChecks, so `null` is dropped from the union and schema.json rejects JSON null as a JSON value.",
    witness: null,
    patch(defs) {
      const primitives = (defs["JSONValue"].anyOf as { type?: string[] }[]).find((m) =>
        Array.isArray(m.type),
      )!;
      primitives.type!.push("null");
    },
  },
];
