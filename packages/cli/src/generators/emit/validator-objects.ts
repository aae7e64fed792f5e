import type { ObjectProperty, VSchema } from "../../schema/validation.js";
import { quote, type Statement } from "../print/printer.js";
import { expectedCall, HERE, missingCall, type BodyWriter } from "./validator-bodies.js";
import {
  and,
  call,
  checkOrder,
  cmp,
  depthArg,
  lines,
  not,
  NOT_OBJECT,
  notObject,
  ownProperties,
  pointerEscape,
  read,
  skipDeclared,
  stop,
} from "./validator-expr.js";

// The bodies of an object type's check (`$is`) and error collector (`$va`).
//
// Both write the checks of the small object types the type uses (the interfaces it extends,
// the objects its properties hold, those objects' own) in place of calls to theirs, as typia
// does: each property read then sees the values of its own place only. Through one shared
// `$is_ClientCapabilities`, the capabilities in every request's `_meta` and those of every
// other caller were read at the same sites, which went megamorphic (5 shapes in the
// benchmark's mix: ClientRequest ran 2.5x slower). The errors are the same, in the same
// order: an inlined collector pushes at the full relative path what the call's `$at` would
// have prefixed, and stops where the call's caller would have.

type ObjectSchema = Extract<VSchema, { kind: "object" }>;

/**
 * How much of the types it uses one function may write in: properties, and levels below its
 * value (indentation). A check is two lines a property, so `$is` takes in the whole of a
 * request's params (e.g. tools/call: params, its `_meta`, the client's info and capabilities:
 * 23 properties, 3 levels). A collector is about ten (paths grow with depth), so it takes in
 * params and `_meta` only: validators.ts for 2026-07-28 is 639 kB (467 kB with no collector
 * inlined, 760 kB inlining as much as `$is` does for about the same speed).
 */
const CHECK_INLINING = { budget: 24, depth: 3 };
const COLLECTOR_INLINING = { budget: 12, depth: 2 };

/** An object checked in the body being written: its local, depth and path from `v`. */
interface Site {
  v: string;
  depth: number;
  /** The JSON pointer from the function's value ("" for the value itself). */
  path: string;
  /** Shared by every site of one function: what it may still inline, its locals so far. */
  fn: { budget: number; depth: number; locals: number };
}

const top = (inlining: { budget: number; depth: number }): Site => ({
  v: "v",
  depth: 0,
  path: "",
  fn: { ...inlining, locals: 0 },
});

/**
 * The locals of a site's properties: at the function's value `p<i>` (own properties, by
 * declaration index) and `b<i>` (inherited ones); below it, `c<n>` in writing order.
 */
function namer(site: Site, prefix: string, first: number): (index: number) => string {
  return site.v === "v" ? (i) => `${prefix}${first + i}` : () => `c${site.fn.locals++}`;
}

/** The small object type a property holds, if its checks may be written in at `site`. */
function inlinable(w: BodyWriter, p: ObjectProperty, site: Site): ObjectSchema | undefined {
  if (p.schema.kind !== "ref" || site.depth >= site.fn.depth) return undefined;
  const target = w.smallObject(p.schema.name);
  return target && target.properties.length <= site.fn.budget ? target : undefined;
}

/** A base interface whose checks may be written in at `site`. */
function inlinableBase(w: BodyWriter, name: string, site: Site): ObjectSchema | undefined {
  const base = w.smallObject(name);
  return base && base.properties.length <= site.fn.budget ? base : undefined;
}

/** A nested site: the object held by the property `p` of `site`, in the local `x`. */
const below = (site: Site, p: ObjectProperty, x: string): Site => ({
  v: x,
  depth: site.depth + 1,
  path: `${site.path}/${pointerEscape(p.name)}`,
  fn: site.fn,
});

/**
 * What one kind of body writes as it walks an object type: the call of a base interface
 * not written in, and the checks (or collectors) of a list of properties.
 */
interface ObjectWriter {
  baseCall(w: BodyWriter, name: string, site: Site, out: Statement[]): void;
  properties(
    w: BodyWriter,
    properties: ObjectProperty[],
    site: Site,
    local: (index: number) => string,
    out: Statement[],
  ): void;
}

/** What `kind` writes for the properties of `s` on `site.v` (an object already), inherited first. */
function writeObject(
  kind: ObjectWriter,
  w: BodyWriter,
  s: ObjectSchema,
  site: Site,
  out: Statement[],
): void {
  writeBases(kind, w, s, site, { count: 0 }, out);
  const own = ownProperties(s);
  site.fn.budget -= own.length;
  kind.properties(w, own, site, namer(site, "p", 0), out);
}

/** The bases of `s`, each written in (its own bases first) or called. */
function writeBases(
  kind: ObjectWriter,
  w: BodyWriter,
  s: ObjectSchema,
  site: Site,
  inherited: { count: number },
  out: Statement[],
): void {
  for (const name of s.bases ?? []) {
    const base = inlinableBase(w, name, site);
    if (!base) {
      kind.baseCall(w, name, site, out);
      continue;
    }
    writeBases(kind, w, base, site, inherited, out);
    const own = ownProperties(base);
    const local = namer(site, "b", inherited.count);
    inherited.count += own.length;
    site.fn.budget -= own.length;
    kind.properties(w, own, site, local, out);
  }
}

// ---- the boolean fast path -------------------------------------------------------

const CHECKS: ObjectWriter = {
  baseCall: (_w, name, site, out) =>
    void out.push(`if (!$is_${name}(${site.v}, ${depthArg(site.depth)})) return false;`),
  properties: propertyChecks,
};

export function objectCheckBody(w: BodyWriter, s: ObjectSchema): Statement[] {
  const out: Statement[] = [`if (${NOT_OBJECT}) return false;`];
  writeObject(CHECKS, w, s, top(CHECK_INLINING), out);
  if (s.additional) {
    const check = w.isExpr(s.additional, "x");
    if (check.code !== "true") {
      out.push(
        "for (const k in v) {",
        ...skipDeclared(w.rt, s.properties),
        "const x = v[k];",
        { if: not(check).code, then: "return false;" },
        "}",
      );
    }
  }
  out.push("return true;");
  return out;
}

/** `const <local> = <object>.<name>;` and its check, for each property in checking order. */
function propertyChecks(
  w: BodyWriter,
  properties: ObjectProperty[],
  site: Site,
  local: (index: number) => string,
  out: Statement[],
): void {
  checkOrder(properties, (name) => w.schemaNamed(name)).forEach(([p, i]) => {
    const x = local(i);
    out.push(`const ${x} = ${read(w.rt, site.v, p.name)};`);
    const target = inlinable(w, p, site);
    if (target) {
      const nested: Statement[] = [{ if: notObject(x), then: "return false;" }];
      writeObject(CHECKS, w, target, below(site, p, x), nested);
      if (p.required) out.push(...nested);
      else out.push(`if (${x} !== undefined) {`, ...nested, "}");
      return;
    }
    const check = w.isExpr(p.schema, x, site.depth);
    if (p.required)
      out.push({
        if: check.code === "true" ? `${x} === undefined` : not(check).code,
        then: "return false;",
      });
    else if (check.code !== "true")
      out.push({ if: and([cmp(`${x} !== undefined`), not(check)]).code, then: "return false;" });
  });
}

// ---- the error collector -----------------------------------------------------------

const COLLECTORS: ObjectWriter = {
  baseCall(w, name, site, out) {
    const collect = call(`$va_${name}`, [site.v, "e", depthArg(site.depth)]);
    if (site.path === "") out.push(collect, stop(w.rt));
    else out.push(...lines(w.rt, w.descend(collect, quote(site.path))));
  },
  properties: propertyCollectors,
};

export function objectCollectorBody(w: BodyWriter, s: ObjectSchema): Statement[] {
  const out: Statement[] = [
    `if (${NOT_OBJECT}) {`,
    expectedCall(w.rt, HERE, "object", "v"),
    "return;",
    "}",
  ];
  writeObject(COLLECTORS, w, s, top(COLLECTOR_INLINING), out);
  if (s.additional) {
    const checks = w.vaStatements(s.additional, "x", `"/" + ${w.rt.$escape}(k)`);
    if (checks.length > 0) {
      out.push(
        "for (const k in v) {",
        ...skipDeclared(w.rt, s.properties),
        "const x = v[k];",
        ...lines(w.rt, checks),
        "}",
      );
    }
  }
  return out;
}

/** `const <local> = <object>.<name>;` and its collector, for each property in checking order. */
function propertyCollectors(
  w: BodyWriter,
  properties: ObjectProperty[],
  site: Site,
  local: (index: number) => string,
  out: Statement[],
): void {
  checkOrder(properties, (name) => w.schemaNamed(name)).forEach(([p, i]) => {
    const x = local(i);
    const path = quote(`${site.path}/${pointerEscape(p.name)}`);
    out.push(`const ${x} = ${read(w.rt, site.v, p.name)};`);
    const missing = missingCall(w.rt, path, p.name);
    const target = inlinable(w, p, site);
    if (target) {
      const nested: Statement[] = [];
      writeObject(COLLECTORS, w, target, below(site, p, x), nested);
      const notAnObject = expectedCall(w.rt, path, "object", x);
      const rest = nested.length > 0 ? ["} else {", ...nested, "}"] : ["}"];
      if (p.required)
        out.push(`if (${x} === undefined) {`, missing, stop(w.rt), `} else if (${notObject(x)}) {`);
      else out.push(`if (${x} !== undefined) {`, `if (${notObject(x)}) {`);
      out.push(notAnObject, stop(w.rt), ...rest);
      if (!p.required) out.push("}");
      return;
    }
    const checks = w.vaStatements(p.schema, x, path, site.depth);
    const single = checks.length === 1 && "cond" in checks[0]! ? checks[0] : undefined;
    if (p.required) {
      out.push(`if (${x} === undefined) {`, missing, stop(w.rt));
      if (single) out.push(`} else if (${single.cond.code}) {`, single.action, stop(w.rt), "}");
      else if (checks.length > 0) out.push("} else {", ...lines(w.rt, checks), "}");
      else out.push("}");
    } else if (single) {
      out.push(
        ...lines(w.rt, [
          { cond: and([cmp(`${x} !== undefined`), single.cond]), action: single.action },
        ]),
      );
    } else if (checks.length > 0) {
      out.push(`if (${x} !== undefined) {`, ...lines(w.rt, checks), "}");
    }
  });
}
