import type { SchemaModel, TypeExpr } from "./model.js";
import type { ResolvedProperty, Resolver } from "./resolve.js";

/**
 * Protocol facts carried by well-known fields of the schema rather than by message
 * types: the `_meta` keys of requests and results, log levels, `resultType`. Each is
 * looked up in the schema (by the field's name, or the last segment of a reserved key
 * such as `io.modelcontextprotocol/protocolVersion`), so absent fields mean the revision
 * does not have the feature.
 */
export interface Conventions {
  /** Keys of a request's `params._meta`, by role. */
  requestMeta: Partial<Record<RequestMetaRole, string>>;
  /** Keys of a result's `_meta`, by role. */
  resultMeta: Partial<Record<"serverInfo", string>>;
  /** `LoggingLevel` in schema order, least severe first (as RFC 5424 lists them, reversed). */
  loggingLevels: string[];
  /** Whether results carry `resultType` (complete / input_required). */
  resultType: boolean;
  /** Whether `resultType` is required on results. */
  resultTypeRequired: boolean;
}

export type RequestMetaRole =
  "progressToken" | "protocolVersion" | "clientCapabilities" | "clientInfo" | "logLevel";
const REQUEST_META_ROLES: RequestMetaRole[] = [
  "progressToken",
  "protocolVersion",
  "clientCapabilities",
  "clientInfo",
  "logLevel",
];

/** The keys declared for `_meta` in a type, or in its `params` (`["params", "_meta"]`). */
function metaKeys(r: Resolver, typeName: string, path: string[] = ["_meta"]): string[] {
  const [first, ...rest] = path;
  let type: TypeExpr | undefined = r.propertyOf(typeName, first!)?.type;
  for (const name of rest) type = type && r.property(type, name)?.type;
  return type ? [...(r.object(type)?.properties.keys() ?? [])] : [];
}

/** The properties of a request's `_meta` (declared in `RequestParams`, or inline in `Request.params` in older revisions). */
export function requestMetaProperties(r: Resolver): ResolvedProperty[] {
  const inline = r.propertyOf("Request", "params");
  const params = r.declaration("RequestParams")
    ? r.objectOf("RequestParams")
    : inline && r.object(inline.type);
  const meta = params?.properties.get("_meta");
  const object = meta && r.object(meta.type);
  return object ? [...object.properties.values()] : [];
}

const byRole = (keys: string[], role: string) =>
  keys.find((k) => k === role || k.endsWith(`/${role}`));

export function findConventions(model: SchemaModel, r: Resolver): Conventions {
  // Older revisions declare request `_meta` inline in `Request.params`.
  const requestKeys = r.declaration("RequestParams")
    ? metaKeys(r, "RequestParams")
    : metaKeys(r, "Request", ["params", "_meta"]);
  const requestMeta: Conventions["requestMeta"] = {};
  for (const role of REQUEST_META_ROLES) {
    const key = byRole(requestKeys, role);
    if (key) requestMeta[role] = key;
  }
  const serverInfo = byRole(metaKeys(r, "Result"), "serverInfo");
  const levels = model.byName.get("LoggingLevel");
  const loggingLevels =
    levels?.kind === "alias"
      ? r
          .unionMembers(levels.type)
          .flatMap((m: TypeExpr) =>
            m.kind === "literal" && typeof m.value === "string" ? [m.value] : [],
          )
      : [];
  const resultTypeProp = r.propertyOf("Result", "resultType");
  return {
    requestMeta,
    resultMeta: serverInfo ? { serverInfo } : {},
    loggingLevels,
    resultType: resultTypeProp !== undefined,
    resultTypeRequired: resultTypeProp !== undefined && !resultTypeProp.optional,
  };
}
