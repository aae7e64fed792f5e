import type { Constraints, Literal, ObjectProperty, VSchema } from "../schema/validation.js";

// Compiles validation schemas to straight-line JavaScript: for each schema type a
// boolean check `$is_T(v, d)` (the fast path, no allocation) and an error collector
// `$va_T(v, p, e, d)` that only runs once the check failed. `d` is the nesting depth,
// so recursive types stop at MAX_DEPTH instead of overflowing the stack.

/** Formats the generated preamble implements (as ajv-formats' "full" mode checks them). */
export const FORMAT_FUNCTIONS: Record<string, string> = {
  uri: "$fmtUri",
  byte: "$fmtByte",
  "uri-template": "$fmtUriTemplate",
};

const lit = (value: Literal): string => (typeof value === "string" ? JSON.stringify(value) : String(value));

/** What a schema expects, for messages: `string`, `"tools/call"`, `object`... */
export function describeSchema(s: VSchema, depth = 0): string {
  switch (s.kind) {
    case "any":
      return "any value";
    case "never":
      return "no value";
    case "ref":
      return s.name;
    case "types":
      return s.types.join(" | ");
    case "const":
      return lit(s.value);
    case "enum":
      return s.values.map(lit).join(" | ");
    case "object":
      return "object";
    case "array":
      return "array";
    case "anyOf":
      return depth > 0 ? "union" : s.members.map((m) => describeSchema(m, depth + 1)).join(" | ");
    case "allOf":
      return s.members.map((m) => describeSchema(m, depth + 1)).join(" & ");
    case "constrained":
      return describeSchema(s.schema, depth);
  }
}

interface Discriminant {
  property: string;
  cases: { value: Literal; member: VSchema }[];
}

export class ValidatorWriter {
  /** Hoisted helper functions, in creation order (deterministic). */
  readonly helpers: string[] = [];
  private counter = 0;

  constructor(
    private readonly schemas: ReadonlyMap<string, VSchema>,
    private readonly recursive: ReadonlySet<string>,
  ) {}

  private fresh(owner: string): string {
    return `${owner}_${++this.counter}`;
  }

  /** The object schema behind refs, if the schema is (an alias of) an object. */
  private objectOf(s: VSchema, seen = new Set<string>()): Extract<VSchema, { kind: "object" }> | undefined {
    if (s.kind === "object") return s;
    if (s.kind === "ref" && !seen.has(s.name)) {
      seen.add(s.name);
      const target = this.schemas.get(s.name);
      return target ? this.objectOf(target, seen) : undefined;
    }
    return undefined;
  }

  private constOf(s: VSchema, seen = new Set<string>()): Literal | undefined {
    if (s.kind === "const") return s.value;
    if (s.kind === "ref" && !seen.has(s.name)) {
      seen.add(s.name);
      const target = this.schemas.get(s.name);
      return target ? this.constOf(target, seen) : undefined;
    }
    return undefined;
  }

  /** A required property with a distinct literal in every member (`method`, `type`). */
  discriminant(members: VSchema[]): Discriminant | undefined {
    const objects = members.map((m) => this.objectOf(m));
    if (objects.length < 2 || objects.some((o) => o === undefined)) return undefined;
    const [first] = objects as Extract<VSchema, { kind: "object" }>[];
    for (const candidate of first!.properties) {
      const cases: Discriminant["cases"] = [];
      for (const [i, o] of objects.entries()) {
        const p = o!.properties.find((x) => x.name === candidate.name);
        const value = p && p.required ? this.constOf(p.schema) : undefined;
        if (value === undefined || cases.some((c) => c.value === value)) break;
        cases.push({ value, member: members[i]! });
      }
      if (cases.length === members.length) return { property: candidate.name, cases };
    }
    return undefined;
  }

  // ---- the boolean fast path -------------------------------------------------------

  /** The body of `$is_<name>(v, d)`. */
  isFunction(name: string): string {
    const schema = this.schemas.get(name)!;
    const guard = this.recursive.has(name) ? "if (d > MAX_DEPTH) return false;\n" : "";
    return `function $is_${name}(v: any, d: number): boolean {\n${guard}${this.isBody(schema, name)}\n}`;
  }

  private isBody(s: VSchema, owner: string): string {
    if (s.kind === "object") return this.objectIsBody(s, owner);
    if (s.kind === "array") return this.arrayIsBody(s, undefined, owner);
    if (s.kind === "constrained" && s.schema.kind === "array") return this.arrayIsBody(s.schema, s.constraints, owner);
    if (s.kind === "anyOf") {
      const disc = this.discriminant(s.members);
      if (disc) return this.discriminatedIsBody(disc, owner);
    }
    return `return ${this.isExpr(s, "v", owner)};`;
  }

  /** A boolean expression testing `v` (an identifier). Complex parts are hoisted. */
  isExpr(s: VSchema, v: string, owner: string): string {
    switch (s.kind) {
      case "any":
        return "true";
      case "never":
        return "false";
      case "ref":
        return `$is_${s.name}(${v}, d + 1)`;
      case "types":
        return s.types.length === 1 ? typeCheck(s.types[0]!, v) : `(${s.types.map((t) => typeCheck(t, v)).join(" || ")})`;
      case "const":
        return `${v} === ${lit(s.value)}`;
      case "enum":
        return `(${s.values.map((x) => `${v} === ${lit(x)}`).join(" || ")})`;
      case "anyOf":
        if (this.discriminant(s.members)) return this.hoistIs(s, v, owner);
        return `(${s.members.map((m) => this.isExpr(m, v, owner)).join(" || ")})`;
      case "allOf":
        return `(${s.members.map((m) => this.isExpr(m, v, owner)).join(" && ")})`;
      case "object":
      case "array":
        return this.hoistIs(s, v, owner);
      case "constrained":
        if (s.schema.kind === "array") return this.hoistIs(s, v, owner);
        return `(${this.isExpr(s.schema, v, owner)} && ${constraintExpr(s.constraints, v)})`;
    }
  }

  private hoistIs(s: VSchema, v: string, owner: string): string {
    const name = this.fresh(owner);
    this.helpers.push(`function $is_${name}(v: any, d: number): boolean {\n${this.isBody(s, owner)}\n}`);
    return `$is_${name}(${v}, d)`;
  }

  private objectIsBody(s: Extract<VSchema, { kind: "object" }>, owner: string): string {
    const lines = ["if (typeof v !== \"object\" || v === null || Array.isArray(v)) return false;"];
    s.properties.forEach((p, i) => {
      const x = `p${i}`;
      lines.push(`const ${x} = v${access(p.name)};`);
      const check = this.isExpr(p.schema, x, owner);
      if (p.required) lines.push(p.schema.kind === "any" ? `if (${x} === undefined) return false;` : `if (!(${check})) return false;`);
      else if (check !== "true") lines.push(`if (${x} !== undefined && !(${check})) return false;`);
    });
    if (s.additional) {
      const check = this.isExpr(s.additional, "x", owner);
      lines.push(`for (const k in v) {`);
      if (s.properties.length > 0) lines.push(`if (${declared(s.properties)}) continue;`);
      lines.push(`const x = v[k];`, `if (!(${check})) return false;`, `}`);
    }
    lines.push("return true;");
    return lines.join("\n");
  }

  private arrayIsBody(s: Extract<VSchema, { kind: "array" }>, constraints: Constraints | undefined, owner: string): string {
    const lines = ["if (!Array.isArray(v)) return false;"];
    if (constraints?.maxItems !== undefined) lines.push(`if (v.length > ${constraints.maxItems}) return false;`);
    if (constraints?.minItems !== undefined) lines.push(`if (v.length < ${constraints.minItems}) return false;`);
    const check = this.isExpr(s.items, "x", owner);
    if (check !== "true") lines.push(`for (let i = 0; i < v.length; i++) {`, `const x = v[i];`, `if (!(${check})) return false;`, `}`);
    lines.push("return true;");
    return lines.join("\n");
  }

  private discriminatedIsBody(disc: Discriminant, owner: string): string {
    const lines = [
      "if (typeof v !== \"object\" || v === null || Array.isArray(v)) return false;",
      `switch (v${access(disc.property)}) {`,
    ];
    for (const c of disc.cases) lines.push(`case ${lit(c.value)}: return ${this.isExpr(c.member, "v", owner)};`);
    lines.push("default: return false;", "}");
    return lines.join("\n");
  }

  // ---- the error collector -----------------------------------------------------------

  /** The body of `$va_<name>(v, p, e, d)`: pushes errors for `v` at pointer `p`. */
  validateFunction(name: string): string {
    const schema = this.schemas.get(name)!;
    const guard = this.recursive.has(name) ? `if (d > MAX_DEPTH) { $tooDeep(e, p); return; }\n` : "";
    return `function $va_${name}(v: any, p: string, e: ValidationError[], d: number): void {\n${guard}${this.vaBody(schema, name)}\n}`;
  }

  private vaBody(s: VSchema, owner: string): string {
    switch (s.kind) {
      case "object":
        return this.objectVaBody(s, owner);
      case "array":
        return this.arrayVaBody(s, undefined, owner);
      case "constrained":
        if (s.schema.kind === "array") return this.arrayVaBody(s.schema, s.constraints, owner);
        return this.vaStatements(s, "v", "p", owner);
      case "anyOf": {
        const disc = this.discriminant(s.members);
        if (disc) return this.discriminatedVaBody(disc, owner);
        return this.vaStatements(s, "v", "p", owner);
      }
      default:
        return this.vaStatements(s, "v", "p", owner);
    }
  }

  /** Statements that validate `v` at path expression `p`, pushing into `e`. */
  vaStatements(s: VSchema, v: string, p: string, owner: string): string {
    const expected = JSON.stringify(describeSchema(s));
    switch (s.kind) {
      case "any":
        return "";
      case "never":
        return `$fail(e, ${p}, "no value is allowed here", undefined);`;
      case "ref":
        return `if (!$is_${s.name}(${v}, d + 1)) $va_${s.name}(${v}, ${p}, e, d + 1);`;
      case "types":
      case "const":
      case "enum":
        return `if (!(${this.isExpr(s, v, owner)})) $expected(e, ${p}, ${expected}, ${v});`;
      case "allOf":
        return s.members.map((m) => this.vaStatements(m, v, p, owner)).join("\n");
      case "anyOf": {
        if (this.discriminant(s.members)) return this.hoistVa(s, v, p, owner);
        const members = s.members.map((m) => this.hoistVaFunction(m, owner));
        return `if (!(${this.isExpr(s, v, owner)})) $anyOf(e, ${p}, ${v}, d, [${members.join(", ")}], ${expected});`;
      }
      case "object":
      case "array":
        return this.hoistVa(s, v, p, owner);
      case "constrained": {
        if (s.schema.kind === "array") return this.hoistVa(s, v, p, owner);
        const inner = this.vaStatements(s.schema, v, p, owner);
        return `${inner}\n${constraintStatements(s.constraints, v, p)}`;
      }
    }
  }

  private hoistVaFunction(s: VSchema, owner: string): string {
    if (s.kind === "ref") return `$va_${s.name}`;
    const name = this.fresh(owner);
    this.helpers.push(`function $va_${name}(v: any, p: string, e: ValidationError[], d: number): void {\n${this.vaBody(s, owner)}\n}`);
    return `$va_${name}`;
  }

  private hoistVa(s: VSchema, v: string, p: string, owner: string): string {
    const is = this.isExpr(s, v, owner);
    return `if (!(${is})) ${this.hoistVaFunction(s, owner)}(${v}, ${p}, e, d);`;
  }

  private objectVaBody(s: Extract<VSchema, { kind: "object" }>, owner: string): string {
    const lines = ["if (typeof v !== \"object\" || v === null || Array.isArray(v)) { $expected(e, p, \"object\", v); return; }"];
    s.properties.forEach((p, i) => {
      const x = `p${i}`;
      const path = `p + ${JSON.stringify("/" + pointerEscape(p.name))}`;
      const check = this.vaStatements(p.schema, x, path, owner);
      lines.push(`{ const ${x} = v${access(p.name)};`);
      if (p.required) lines.push(`if (${x} === undefined) $missing(e, ${path}, ${JSON.stringify(p.name)});`, check ? `else { ${check} }` : "");
      else if (check) lines.push(`if (${x} !== undefined) { ${check} }`);
      lines.push("}");
    });
    if (s.additional) {
      const check = this.vaStatements(s.additional, "x", "p + \"/\" + $escape(k)", owner);
      lines.push(`for (const k in v) {`, `if (e.length >= MAX_ERRORS) return;`);
      if (s.properties.length > 0) lines.push(`if (${declared(s.properties)}) continue;`);
      lines.push(`const x = v[k];`, check, `}`);
    }
    return lines.filter(Boolean).join("\n");
  }

  private arrayVaBody(s: Extract<VSchema, { kind: "array" }>, constraints: Constraints | undefined, owner: string): string {
    const lines = ["if (!Array.isArray(v)) { $expected(e, p, \"array\", v); return; }"];
    if (constraints?.maxItems !== undefined) {
      lines.push(`if (v.length > ${constraints.maxItems}) $fail(e, p, "must have at most ${constraints.maxItems} items, found " + v.length, "maxItems ${constraints.maxItems}");`);
    }
    if (constraints?.minItems !== undefined) {
      lines.push(`if (v.length < ${constraints.minItems}) $fail(e, p, "must have at least ${constraints.minItems} items, found " + v.length, "minItems ${constraints.minItems}");`);
    }
    const check = this.vaStatements(s.items, "x", "p + \"/\" + i", owner);
    if (check) lines.push(`for (let i = 0; i < v.length && e.length < MAX_ERRORS; i++) {`, `const x = v[i];`, check, `}`);
    return lines.join("\n");
  }

  private discriminatedVaBody(disc: Discriminant, owner: string): string {
    const path = JSON.stringify("/" + pointerEscape(disc.property));
    const expected = JSON.stringify(disc.cases.map((c) => lit(c.value)).join(" | "));
    const lines = [
      "if (typeof v !== \"object\" || v === null || Array.isArray(v)) { $expected(e, p, \"object\", v); return; }",
      `switch (v${access(disc.property)}) {`,
    ];
    for (const c of disc.cases) lines.push(`case ${lit(c.value)}: { ${this.vaStatements(c.member, "v", "p", owner)} return; }`);
    lines.push(
      `case undefined: $missing(e, p + ${path}, ${JSON.stringify(disc.property)}); return;`,
      `default: $expected(e, p + ${path}, ${expected}, v${access(disc.property)});`,
      "}",
    );
    return lines.join("\n");
  }
}

function typeCheck(t: string, v: string): string {
  switch (t) {
    case "string":
      return `typeof ${v} === "string"`;
    case "boolean":
      return `typeof ${v} === "boolean"`;
    case "null":
      return `${v} === null`;
    case "integer":
      return `Number.isInteger(${v})`;
    case "number":
      return `Number.isFinite(${v})`;
    default:
      throw new Error(`unknown JSON type ${t}`);
  }
}

/** Each keyword applies only to values of its type, as in JSON Schema. */
function constraintExpr(c: Constraints, v: string): string {
  const parts: string[] = [];
  const num: string[] = [];
  if (c.minimum !== undefined) num.push(`${v} >= ${c.minimum}`);
  if (c.maximum !== undefined) num.push(`${v} <= ${c.maximum}`);
  if (c.exclusiveMinimum !== undefined) num.push(`${v} > ${c.exclusiveMinimum}`);
  if (c.exclusiveMaximum !== undefined) num.push(`${v} < ${c.exclusiveMaximum}`);
  if (c.multipleOf !== undefined) num.push(`$multipleOf(${v}, ${c.multipleOf})`);
  if (num.length > 0) parts.push(`(typeof ${v} !== "number" || (${num.join(" && ")}))`);
  const str: string[] = [];
  const format = c.format ? FORMAT_FUNCTIONS[c.format] : undefined;
  if (format) str.push(`${format}(${v})`);
  if (c.minLength !== undefined) str.push(`$length(${v}) >= ${c.minLength}`);
  if (c.maxLength !== undefined) str.push(`$length(${v}) <= ${c.maxLength}`);
  if (c.pattern !== undefined) str.push(`new RegExp(${JSON.stringify(c.pattern)}, "u").test(${v})`);
  if (str.length > 0) parts.push(`(typeof ${v} !== "string" || (${str.join(" && ")}))`);
  return parts.length > 0 ? parts.join(" && ") : "true";
}

function constraintStatements(c: Constraints, v: string, p: string): string {
  const out: string[] = [];
  const check = (keyword: keyof Constraints, cond: string, message: string) => {
    if (c[keyword] === undefined) return;
    out.push(`if (!(${cond})) $fail(e, ${p}, ${message}, ${JSON.stringify(`${keyword} ${c[keyword]}`)});`);
  };
  const isNum = `typeof ${v} !== "number"`;
  const isStr = `typeof ${v} !== "string"`;
  check("minimum", `${isNum} || ${v} >= ${c.minimum}`, `"must be >= ${c.minimum}, found " + ${v}`);
  check("maximum", `${isNum} || ${v} <= ${c.maximum}`, `"must be <= ${c.maximum}, found " + ${v}`);
  check("exclusiveMinimum", `${isNum} || ${v} > ${c.exclusiveMinimum}`, `"must be > ${c.exclusiveMinimum}, found " + ${v}`);
  check("exclusiveMaximum", `${isNum} || ${v} < ${c.exclusiveMaximum}`, `"must be < ${c.exclusiveMaximum}, found " + ${v}`);
  check("multipleOf", `${isNum} || $multipleOf(${v}, ${c.multipleOf})`, `"must be a multiple of ${c.multipleOf}"`);
  const format = c.format ? FORMAT_FUNCTIONS[c.format] : undefined;
  if (format) check("format", `${isStr} || ${format}(${v})`, `"must be a valid ${c.format}, found " + $describe(${v})`);
  check("minLength", `${isStr} || $length(${v}) >= ${c.minLength}`, `"must have at least ${c.minLength} characters"`);
  check("maxLength", `${isStr} || $length(${v}) <= ${c.maxLength}`, `"must have at most ${c.maxLength} characters"`);
  check("pattern", `${isStr} || new RegExp(${JSON.stringify(c.pattern ?? "")}, "u").test(${v})`, `"must match the pattern " + ${JSON.stringify(JSON.stringify(c.pattern ?? ""))}`);
  return out.join("\n");
}

const IDENT = /^[A-Za-z_$][\w$]*$/;

function access(name: string): string {
  return IDENT.test(name) ? `.${name}` : `[${JSON.stringify(name)}]`;
}

function declared(properties: ObjectProperty[]): string {
  return properties.map((p) => `k === ${JSON.stringify(p.name)}`).join(" || ");
}

/** RFC 6901: `~` and `/` in a key become `~0` and `~1`. */
export function pointerEscape(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}
