import type { Literal, VSchema } from "../../schema/validation.js";
import { constraintChecks } from "./validator-constraints.js";
import { objectCheckBody, objectCollectorBody } from "./validator-objects.js";
import { CodeWriter, quote, type Call, type Statement } from "../print/printer.js";
import {
  arrayCheckBody,
  arrayCollectorBody,
  discriminatedCheckBody,
  discriminatedCollectorBody,
  expectedCall,
  HERE,
  type BodyWriter,
} from "./validator-bodies.js";
import {
  and,
  call,
  callExpr,
  cmp,
  depthArg,
  describeSchema,
  FALSE,
  INLINE_MAX,
  lines,
  lit,
  stop,
  not,
  or,
  returns,
  TRUE,
  typeCheck,
  type Discriminant,
  type Expr,
  type Stmt,
} from "./validator-expr.js";
import { ValidationUses, type ValidationNames } from "./runtime-symbols.js";

// Compiles validation schemas to straight-line JavaScript: for each schema type a
// boolean check `$is_T(v, d)` (the fast path, no allocation) and an error collector
// `$va_T(v, e, d)` that only runs once the check failed. `d` is the nesting depth,
// so recursive types stop at MAX_DEPTH instead of overflowing the stack.
//
// A collector writes error paths relative to its own value, and the caller prefixes what
// a child added (`$at`). So collectors descend without a `$is` guard (a guard re-walks the
// valid part of an invalid subtree once per enclosing level) and build no path string for
// a valid subtree: an invalid value is walked once by `$is_T`, once by `$va_T`.
//
// Names: a schema type T owns `$is_T` and `$va_T` (after `$is`/`$va` always `_`); the
// helpers hoisted out of types are `$is$<n>` / `$va$<n>` and pattern constants `$re$<n>`
// (a `$` in that place), so no schema type name can produce a helper's name. Each schema
// node gets at most one helper of each kind, so output grows linearly with nesting.

/** The most properties an object type may have to have its checks written into its users' `$is`. */
const INLINE_OBJECT_PROPERTIES = 8;

/** A function's text, its statements laid out by the printer. */
const laidOut = (statements: Statement[]) => new CodeWriter().statements(statements).text();

/** `function name(params): returns {`, its parameters one a line when too long. */
const functionHead = (name: string, params: string[], returns: string): Call => ({
  head: `function ${name}`,
  args: params,
  tail: `: ${returns} {`,
});

export class ValidatorWriter implements BodyWriter {
  /** Hoisted helper functions, laid out, in creation order (deterministic). */
  readonly helpers: string[] = [];
  /** Module-level constants (compiled patterns). */
  readonly constants: string[] = [];
  private counter = 0;
  private readonly isHelpers = new Map<VSchema, string>();
  private readonly vaHelpers = new Map<VSchema, string>();
  private readonly patterns = new Map<string, string>();
  /** Helpers named but not yet written: written by `drain`, so nesting never deepens the stack. */
  private readonly pending: { kind: "is" | "va"; schema: VSchema; name: string }[] = [];

  /** The validation helpers, named through `uses` so the file imports those its code names. */
  readonly rt: ValidationNames;

  constructor(
    private readonly schemas: ReadonlyMap<string, VSchema>,
    private readonly recursive: ReadonlySet<string>,
    readonly uses = new ValidationUses(),
  ) {
    this.rt = uses.names;
  }

  /** A schema type by name (BodyWriter). */
  schemaNamed(name: string): VSchema | undefined {
    return this.schemas.get(name);
  }

  /**
   * The object type `name` if a check or collector that uses it (extends it, or holds one in
   * a property) may write its property checks in place of a call (BodyWriter;
   * validator-objects.ts): at most INLINE_OBJECT_PROPERTIES of them, inherited ones included;
   * no undeclared keys to check; never a recursive type, whose depth guard the call keeps.
   */
  smallObject(name: string): Extract<VSchema, { kind: "object" }> | undefined {
    const s = this.schemas.get(name);
    if (s?.kind !== "object" || s.additional || this.recursive.has(name)) return undefined;
    return s.properties.length <= INLINE_OBJECT_PROPERTIES ? s : undefined;
  }

  /** The object schema behind refs, if the schema is (an alias of) an object. */
  private objectOf(
    s: VSchema,
    seen = new Set<string>(),
  ): Extract<VSchema, { kind: "object" }> | undefined {
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

  /** `$is_<name>(v, d)`, laid out. */
  isFunction(name: string): string {
    const guard = this.recursive.has(name) ? [`if (d > ${this.rt.MAX_DEPTH}) return false;`] : [];
    const code = laidOut([
      functionHead(`$is_${name}`, ["v: any", "d: number"], "boolean"),
      ...guard,
      ...this.isBody(this.schemas.get(name)!),
      "}",
    ]);
    this.drain();
    return code;
  }

  /** Writes the pending helpers, and those their bodies name, in naming order. */
  private drain(): void {
    for (let next = this.pending.shift(); next; next = this.pending.shift()) {
      const { kind, schema, name } = next;
      const head =
        kind === "is"
          ? functionHead(name, ["v: any", "d: number"], "boolean")
          : functionHead(name, ["v: any", `e: ${this.rt.$Errors}`, "d: number"], "void");
      this.descents = 0;
      this.helpers.push(
        laidOut([head, ...(kind === "is" ? this.isBody(schema) : this.vaBody(schema)), "}"]),
      );
    }
  }

  private isBody(s: VSchema): Statement[] {
    switch (s.kind) {
      case "object":
        return objectCheckBody(this, s);
      case "array":
        return arrayCheckBody(this, s, undefined);
      case "anyOf": {
        const disc = this.discriminant(s.members);
        if (disc) return discriminatedCheckBody(this, disc);
        return [
          ...s.members.map((m) => ({ if: this.isExpr(m, "v").code, then: "return true;" })),
          "return false;",
        ];
      }
      case "allOf":
        return [
          ...s.members.map((m) => ({ if: not(this.isExpr(m, "v")).code, then: "return false;" })),
          "return true;",
        ];
      case "constrained":
        if (s.schema.kind === "array") return arrayCheckBody(this, s.schema, s.constraints);
        return [
          { if: not(this.isExpr(s.schema, "v")).code, then: "return false;" },
          ...constraintChecks(this.rt, s, "v", false, this.pattern).map((c) => ({
            if: not(c.pass).code,
            then: "return false;",
          })),
          "return true;",
        ];
      default:
        return [returns(this.isExpr(s, "v"))];
    }
  }

  /** A boolean expression testing `v` (an identifier). Objects, arrays and long checks are hoisted. */
  isExpr(s: VSchema, v: string, depth = 0): Expr {
    switch (s.kind) {
      case "any":
        return TRUE;
      case "never":
        return FALSE;
      case "ref":
        return callExpr(`$is_${s.name}`, [v, depthArg(depth + 1)]);
      case "types":
        return or(s.types.map((t) => typeCheck(t, v)));
      case "const":
        return cmp(`${v} === ${lit(s.value)}`);
      case "enum":
        return this.short(s, v, depth, or(s.values.map((x) => cmp(`${v} === ${lit(x)}`))));
      case "anyOf":
        if (this.discriminant(s.members)) return this.hoistIs(s, v, depth);
        return this.short(s, v, depth, or(s.members.map((m) => this.isExpr(m, v, depth))));
      case "allOf":
        return this.short(s, v, depth, and(s.members.map((m) => this.isExpr(m, v, depth))));
      case "object":
      case "array":
        return this.hoistIs(s, v, depth);
      case "constrained":
        if (s.schema.kind === "array") return this.hoistIs(s, v, depth);
        return this.short(
          s,
          v,
          depth,
          and([
            this.isExpr(s.schema, v, depth),
            ...constraintChecks(this.rt, s, v, false, this.pattern).map((c) => c.pass),
          ]),
        );
    }
  }

  private short(s: VSchema, v: string, depth: number, inline: Expr): Expr {
    return inline.code.length <= INLINE_MAX ? inline : this.hoistIs(s, v, depth);
  }

  private hoistIs(s: VSchema, v: string, depth: number): Expr {
    let name = this.isHelpers.get(s);
    if (!name) {
      name = `$is$${++this.counter}`;
      this.isHelpers.set(s, name);
      this.pending.push({ kind: "is", schema: s, name });
    }
    return callExpr(name, [v, depthArg(depth)]);
  }

  // ---- the error collector -----------------------------------------------------------

  /** `$va_<name>(v, e, d)`, laid out: pushes errors for `v`, their paths relative to `v`. */
  validateFunction(name: string): string {
    const guard = this.recursive.has(name)
      ? [`if (d > ${this.rt.MAX_DEPTH}) return ${this.rt.$tooDeep}(e, "");`]
      : [];
    this.descents = 0;
    const code = laidOut([
      functionHead(`$va_${name}`, ["v: any", `e: ${this.rt.$Errors}`, "d: number"], "void"),
      ...guard,
      ...this.vaBody(this.schemas.get(name)!),
      "}",
    ]);
    this.drain();
    return code;
  }

  private vaBody(s: VSchema): Statement[] {
    switch (s.kind) {
      case "object":
        return objectCollectorBody(this, s);
      case "array":
        return arrayCollectorBody(this, s, undefined);
      case "constrained":
        if (s.schema.kind === "array") return arrayCollectorBody(this, s.schema, s.constraints);
        return lines(this.rt, this.vaStatements(s, "v", HERE));
      case "anyOf": {
        const disc = this.discriminant(s.members);
        if (disc) return discriminatedCollectorBody(this, disc);
        return lines(this.rt, this.vaStatements(s, "v", HERE));
      }
      default:
        return lines(this.rt, this.vaStatements(s, "v", HERE));
    }
  }

  /**
   * Statements that validate `v` at path expression `p` (relative to the collector's value),
   * pushing into `e`; `v` is `depth` levels below the collector's own value.
   */
  vaStatements(s: VSchema, v: string, p: string, depth = 0): Stmt[] {
    switch (s.kind) {
      case "any":
        return [];
      case "never":
        return [
          { lines: [call(this.rt.$fail, ["e", p, '"no value is allowed here"', "undefined"])] },
        ];
      case "ref":
        return this.descend(call(`$va_${s.name}`, [v, "e", depthArg(depth + 1)]), p);
      case "types":
      case "const":
      case "enum":
        return [
          {
            cond: not(this.isExpr(s, v, depth)),
            action: expectedCall(this.rt, p, describeSchema(s), v),
          },
        ];
      case "allOf":
        return s.members.flatMap((m) => this.vaStatements(m, v, p, depth));
      case "anyOf": {
        if (this.discriminant(s.members)) return this.hoistVa(s, v, p, depth);
        const members = s.members.map((m) => this.hoistVaFunction(m));
        const d = depthArg(depth);
        return [
          {
            cond: not(this.isExpr(s, v, depth)),
            action: call(this.rt.$anyOf, ["e", p, v, d, members, quote(describeSchema(s))]),
          },
        ];
      }
      case "object":
      case "array":
        return this.hoistVa(s, v, p, depth);
      case "constrained": {
        if (s.schema.kind === "array") return this.hoistVa(s, v, p, depth);
        const checks = constraintChecks(this.rt, s, v, true, this.pattern).map((c) => ({
          cond: not(c.pass),
          action: call(this.rt.$fail, ["e", p, c.message, quote(`${c.keyword} ${c.value}`)]),
        }));
        return [...this.vaStatements(s.schema, v, p, depth), ...checks];
      }
    }
  }

  private hoistVaFunction(s: VSchema): string {
    if (s.kind === "ref") return `$va_${s.name}`;
    let name = this.vaHelpers.get(s);
    if (!name) {
      name = `$va$${++this.counter}`;
      this.vaHelpers.set(s, name);
      this.pending.push({ kind: "va", schema: s, name });
    }
    return name;
  }

  private hoistVa(s: VSchema, v: string, p: string, depth: number): Stmt[] {
    return this.descend(call(this.hoistVaFunction(s), [v, "e", depthArg(depth)]), p);
  }

  /** Locals named by `descend` in the function being written (`n0`, `n1`...). */
  private descents = 0;

  /** A call into a child's collector, whose errors then get the child's path `p` in front (BodyWriter). */
  descend(collect: Call, p: string): Stmt[] {
    if (p === HERE) return [{ lines: [collect] }];
    const n = `n${this.descents++}`;
    return [
      {
        lines: [
          `const ${n} = e.length;`,
          collect,
          `if (e.length > ${n}) {`,
          call(this.rt.$at, ["e", n, p]),
          stop(this.rt),
          "}",
        ],
      },
    ];
  }

  /** Patterns are compiled once, at module load, not on every call: the constant's name. */
  private readonly pattern = (pattern: string): string => {
    let name = this.patterns.get(pattern);
    if (!name) {
      name = `$re$${this.patterns.size + 1}`;
      this.patterns.set(pattern, name);
      this.constants.push(`const ${name} = new RegExp(${quote(pattern)}, "u");`);
    }
    return name;
  };
}
