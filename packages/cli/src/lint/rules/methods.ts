import type { SourceLocation } from "../../schema/model.js";
import type { LintContext, RawFinding, Rule } from "../finding.js";

// The generator derives a request's result and its client function's name from conventions
// (architecture.md, "How the protocol is derived"): a request that breaks them still
// generates, but by a fallback a reader of the schema does not see.

interface RequestType {
  method: string;
  type: string;
  loc: SourceLocation;
}

/** Every request the revision declares: the message unions' and the input requests (2026-07-28). */
function requests({ loaded, resolver }: LintContext): RequestType[] {
  const { protocol } = loaded;
  const all = [...protocol.methods.filter((m) => m.kind === "request"), ...protocol.inputRequests];
  const seen = new Set<string>();
  const out: RequestType[] = [];
  for (const { method, type } of all) {
    if (seen.has(type)) continue;
    seen.add(type);
    const loc = resolver.declaration(type)?.loc;
    if (loc) out.push({ method, type, loc });
  }
  return out;
}

export const requestWithoutResult: Rule = {
  id: "request-without-result",
  severity: "warning",
  summary:
    "a request type has no result type of the matching name (XRequest, XResult): its result is EmptyResult by convention only",
  check: (ctx) =>
    requests(ctx).flatMap(({ method, type, loc }): RawFinding[] => {
      const named = type.replace(/Request$/, "Result");
      if (named !== type && ctx.resolver.declaration(named)) return [];
      const expected = named === type ? "a type name ending in Request" : `a type ${named}`;
      const fallback = ctx.resolver.declaration("EmptyResult") ? "EmptyResult" : "Result";
      return [
        {
          loc,
          message: `request ${method} (${type}) has no result type (expected ${expected}); mcp-gen assumes ${fallback}`,
        },
      ];
    }),
};

/** `segment/segment`, each segment camelCase: `tools/call`, `resources/templates/list`, `ping`. */
export const REGULAR_METHOD = /^[a-z][a-zA-Z0-9]*(?:\/[a-z][a-zA-Z0-9]*)*$/;

export const irregularMethodName: Rule = {
  id: "irregular-method-name",
  severity: "warning",
  summary: "a request's method is not slash-separated camelCase segments like the others",
  check: (ctx) =>
    requests(ctx)
      .filter(({ method }) => !REGULAR_METHOD.test(method))
      .map(({ method, type, loc }) => ({
        loc,
        message: `request ${type} has the irregular method name ${JSON.stringify(method)} (expected camelCase segments separated by '/', as in "resources/templates/list")`,
      })),
};
