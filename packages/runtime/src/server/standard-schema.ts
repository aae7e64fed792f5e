// Standard Schema (https://standardschema.dev) and Standard JSON Schema, the interfaces that
// zod 4, Valibot, ArkType and others implement: what a typed tool or typed request state takes
// as its schema. The interfaces are copied here (the Standard Schema project invites copying
// them, so that a library needs no dependency on @standard-schema/spec): the runtime keeps no
// dependencies. Flat, not in namespaces; structurally the same as @standard-schema/spec 1.1.0
// (packages/cli/test/typed-tools.types.test.ts checks that both ways).

/** Inferred input and output types a Standard Schema carries (at the type level only). */
export interface StandardTypes<Input = unknown, Output = Input> {
  readonly input: Input;
  readonly output: Output;
}

/** One problem a Standard Schema found: its message and where (a path of keys). */
export interface StandardIssue {
  readonly message: string;
  readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;
}

/** What a Standard Schema's validate answers: the (possibly transformed) value, or issues. */
export type StandardResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | { readonly issues: ReadonlyArray<StandardIssue> };

/** A Standard Schema (version 1): a validator whose types can be inferred. */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: string;
    readonly types?: StandardTypes<Input, Output> | undefined;
    readonly validate: (
      value: unknown,
      options?: { readonly libraryOptions?: Record<string, unknown> | undefined } | undefined,
    ) => StandardResult<Output> | Promise<StandardResult<Output>>;
  };
}

/** The options of a Standard JSON Schema converter: the JSON Schema dialect to write. */
export interface StandardJSONSchemaOptions {
  readonly target: "draft-2020-12" | "draft-07" | "openapi-3.0" | ({} & string);
  readonly libraryOptions?: Record<string, unknown> | undefined;
}

/** A Standard JSON Schema (version 1): a schema that can write itself as JSON Schema. */
export interface StandardJSONSchemaV1<Input = unknown, Output = Input> {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: string;
    readonly types?: StandardTypes<Input, Output> | undefined;
    readonly jsonSchema: {
      readonly input: (options: StandardJSONSchemaOptions) => Record<string, unknown>;
      readonly output: (options: StandardJSONSchemaOptions) => Record<string, unknown>;
    };
  };
}

/**
 * What a typed tool takes as a schema from a schema library: a Standard Schema that is also a
 * Standard JSON Schema (zod 4.2 and later, ArkType 2.1.20 and later, Valibot schemas wrapped
 * by `toStandardJsonSchema` from `@valibot/to-json-schema`). It validates the values, and
 * writes the JSON Schema that tools/list lists.
 */
export type StandardToolSchema<Input = unknown, Output = Input> = StandardSchemaV1<Input, Output> &
  StandardJSONSchemaV1<Input, Output>;

/** The type a Standard Schema's validate gives (what a typed tool's `call` gets). */
export type StandardOutput<S> = S extends StandardSchemaV1<unknown, infer Output> ? Output : never;

/** The type a Standard Schema accepts (what a typed tool's structuredContent must be). */
export type StandardInput<S> = S extends StandardSchemaV1<infer Input, unknown> ? Input : never;

/** Whether `value` carries a Standard Schema's `~standard.validate`. */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  if ((typeof value !== "object" && typeof value !== "function") || value === null) return false;
  const props = (value as { "~standard"?: unknown })["~standard"];
  return (
    typeof props === "object" &&
    props !== null &&
    typeof (props as { validate?: unknown }).validate === "function"
  );
}

/** The JSON Schema a Standard JSON Schema writes for its input or output, or undefined without one. */
export function standardJsonSchema(
  schema: StandardSchemaV1,
  io: "input" | "output",
): Record<string, unknown> | undefined {
  const converter = (
    schema["~standard"] as { jsonSchema?: StandardJSONSchemaV1["~standard"]["jsonSchema"] }
  ).jsonSchema;
  if (typeof converter?.[io] !== "function") return undefined;
  // MCP's default dialect for tool schemas (2025-11-25 and later; earlier revisions name none).
  return converter[io]({ target: "draft-2020-12" });
}

const pointerStep = (key: PropertyKey) =>
  `/${String(key).replace(/~/g, "~0").replace(/\//g, "~1")}`;

/** Longest issue message quoted, in characters: a message may echo the peer's input. */
const MAX_MESSAGE = 300;

/** One issue as one readable line: `/a/0: message` (a JSON pointer to where it is). */
export function issueLine(issue: StandardIssue): string {
  const steps = (issue.path ?? []).map((step) =>
    pointerStep(typeof step === "object" && step !== null ? step.key : step),
  );
  const message = String(issue.message);
  const short = message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE)}...` : message;
  return `${steps.join("") || "/"}: ${short}`;
}

/** Validates `value` with a Standard Schema: its value, or the issues as lines. */
export async function standardValidate<Output>(
  schema: StandardSchemaV1<unknown, Output>,
  value: unknown,
): Promise<{ ok: true; value: Output } | { ok: false; problems: string[] }> {
  const result = await schema["~standard"].validate(value);
  if (result.issues) return { ok: false, problems: result.issues.map(issueLine) };
  return { ok: true, value: result.value };
}
