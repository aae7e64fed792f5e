import type { Promisable } from "./context.js";
import { JSONRPC_ERRORS, McpError } from "../core/errors.js";
import { isObject } from "../core/protocol.js";
import {
  complete,
  type Completer,
  type Completion,
  type CompletionRequest,
} from "./completions.js";
import {
  MAX_MATCHED_URI_LENGTH,
  UriTemplate,
  type TemplateAllowances,
  type TemplateVariables,
} from "../core/uri-template.js";

// Resources served from one table: resources/list names the static resources (and those each
// template lists), resources/templates/list names the templates, resources/read finds the
// entry a URI belongs to, and completion/complete (ref/resource) completes a template's
// variables: all read the same entries, so they cannot disagree. Method names and shapes are
// the same in every revision; the generated dispatcher binds the revision's types.

/** What this module reads of a resource definition (it lists the whole definition as given). */
export interface ResourceShape {
  readonly uri: string;
  readonly name: string;
}

/** What this module reads of a resource template definition. */
export interface ResourceTemplateShape {
  readonly uriTemplate: string;
  readonly name: string;
}

/** One resource at a fixed URI: its definition, as resources/list lists it, and its reader. */
export interface StaticResource<Resource extends ResourceShape, Ctx, Result> {
  readonly resource: Resource;
  /** Reads it: resources/read's result for `uri` (the resource's own). */
  readonly read: (uri: string, ctx: Ctx) => Promisable<Result>;
}

/**
 * Resources under an RFC 6570 URI template (`file:///{+path}`): its definition, as
 * resources/templates/list lists it, and what reads a URI it matches, given the variables
 * read from the URI (typed from the template literal: see TemplateVariables).
 */
export interface TemplateResource<
  Uri extends string,
  Template extends ResourceTemplateShape,
  Resource extends ResourceShape,
  Ctx,
  Result,
> {
  readonly template: Omit<Template, "uriTemplate"> & { readonly uriTemplate: Uri };
  /**
   * Values `read` may get beyond the defaults: `..` segments (`dotSegments`), NUL (`nul`).
   * Both are refused by default: a URI carrying them matches nothing ("not found").
   */
  readonly allow?: TemplateAllowances;
  /** Reads a URI the template matches; throw McpError -32602 where nothing is there. */
  readonly read: (uri: string, variables: TemplateVariables<Uri>, ctx: Ctx) => Promisable<Result>;
  /** The resources of this template that resources/list names now (none if left out). */
  readonly list?: (ctx: Ctx) => Promisable<readonly Resource[]>;
  /** Completions per variable (completion/complete with `ref/resource`). */
  readonly complete?: {
    readonly [Name in keyof TemplateVariables<Uri>]?: Completer<
      Ctx,
      { readonly [Other in keyof TemplateVariables<Uri>]?: string }
    >;
  };
}

/** A static resource or a template, as defineResources takes it (see resourceTemplate). */
export type ResourceEntry<
  Ctx = unknown,
  Resource extends ResourceShape = ResourceShape,
  Template extends ResourceTemplateShape = ResourceTemplateShape,
  Result = unknown,
> = StaticResource<Resource, Ctx, Result> | TemplateEntry<Ctx, Resource, Template, Result>;

/** A template entry with its variables' types erased (what resourceTemplate returns). */
export interface TemplateEntry<
  Ctx = unknown,
  Resource extends ResourceShape = ResourceShape,
  Template extends ResourceTemplateShape = ResourceTemplateShape,
  Result = unknown,
> {
  readonly template: Template;
  readonly allow?: TemplateAllowances;
  readonly read: (uri: string, variables: never, ctx: Ctx) => Promisable<Result>;
  readonly list?: (ctx: Ctx) => Promisable<readonly Resource[]>;
  readonly complete?: { readonly [name: string]: Completer<Ctx, never> | undefined };
}

/**
 * A template entry, its variables typed from `template.uriTemplate` (hence a function: the
 * literal is inferred here), ready for defineResources.
 */
export function resourceTemplate<
  const Uri extends string,
  Template extends ResourceTemplateShape,
  Resource extends ResourceShape,
  Ctx,
  Result,
>(
  entry: TemplateResource<Uri, Template, Resource, Ctx, Result>,
): TemplateEntry<Ctx, Resource, Template, Result> {
  // Erases the variables' type (what `read` gets is typed from Uri, which the table forgets).
  return entry as unknown as TemplateEntry<Ctx, Resource, Template, Result>;
}

export interface DefineResourcesOptions<ListFields extends object = object> {
  /** Put into every resources/list and resources/templates/list result (ttlMs and cacheScope where required). */
  readonly list?: ListFields;
  /**
   * The longest URI resources/read matches against the templates (UTF-16 code units);
   * a longer one is refused with -32602 before any template is tried. Default 8192.
   */
  readonly maxUriLength?: number;
}

/**
 * resources/list, resources/templates/list and resources/read as a table serves them, typed
 * with its entries' types (the generated defineResources binds the revision's), so that they
 * spread into the generated ServerHandlers.
 */
export interface ResourceHandlers<
  Ctx = unknown,
  Resource extends ResourceShape = ResourceShape,
  Template extends ResourceTemplateShape = ResourceTemplateShape,
  Result = unknown,
  ListFields extends object = object,
> {
  readonly "resources/list": (
    params: unknown,
    ctx: Ctx,
  ) => Promise<ListFields & { resources: Resource[] }>;
  readonly "resources/templates/list": (
    params: unknown,
    ctx: Ctx,
  ) => ListFields & { resourceTemplates: Template[] };
  readonly "resources/read": (params: { readonly uri: string }, ctx: Ctx) => Promise<Result>;
}

/** What a resources table serves: spread `handlers` into the server handlers, or give it to defineServer. */
export interface ResourceTable<
  Ctx = unknown,
  Resource extends ResourceShape = ResourceShape,
  Template extends ResourceTemplateShape = ResourceTemplateShape,
  Result = unknown,
  ListFields extends object = object,
> {
  readonly handlers: ResourceHandlers<Ctx, Resource, Template, Result, ListFields>;
  /** Answers completion/complete for `ref/resource` with `uri` (a template); undefined: not a template of this table. */
  complete(uri: string, request: CompletionRequest, ctx: Ctx): Promise<Completion> | undefined;
  /** Whether any template completes a variable (so the server declares `completions`). */
  readonly completes: boolean;
}

type Compiled<Ctx, R extends ResourceShape, T extends ResourceTemplateShape, Result> = {
  entry: TemplateEntry<Ctx, R, T, Result>;
  matcher: UriTemplate;
};

/**
 * The handlers serving `entries`. resources/read looks a URI up among the static resources,
 * then tries the templates in order (the first that matches reads it); a URI nothing serves
 * is answered -32602 `Resource <uri> not found` with `data: { uri }` (2026-07-28
 * server/resources, "Error Handling": never an empty `contents`), and so is a URI whose values
 * its template does not allow (see UriTemplate). A URI longer than `maxUriLength` that is no
 * static resource is refused with -32602 before any template is tried. Throws a TypeError for
 * a malformed entry, a malformed template, a bad option, or a URI or template given twice.
 */
export function defineResources<
  Ctx,
  ListFields extends object = object,
  Resource extends ResourceShape = ResourceShape,
  Template extends ResourceTemplateShape = ResourceTemplateShape,
  Result = unknown,
>(
  entries: readonly ResourceEntry<Ctx, Resource, Template, Result>[],
  options: DefineResourcesOptions<ListFields> = {},
): ResourceTable<Ctx, Resource, Template, Result, ListFields> {
  const { maxUriLength = MAX_MATCHED_URI_LENGTH } = options;
  if (!Number.isSafeInteger(maxUriLength) || maxUriLength < 1)
    throw new TypeError("defineResources: maxUriLength must be a positive integer");
  const statics = new Map<string, StaticResource<Resource, Ctx, Result>>();
  const templates = new Map<string, Compiled<Ctx, Resource, Template, Result>>();
  for (const entry of entries) {
    if (!isObject(entry) || typeof entry["read"] !== "function")
      throw new TypeError("defineResources: each entry needs a `read` function");
  }
  for (const entry of entries) {
    if ("template" in entry) {
      const { uriTemplate } = isObject(entry.template) ? entry.template : ({} as never);
      if (typeof uriTemplate !== "string" || templates.has(uriTemplate))
        throw new TypeError(
          `defineResources: template ${JSON.stringify(uriTemplate)} is missing or given twice`,
        );
      const matcher = new UriTemplate(uriTemplate, { maxUriLength, allow: entry.allow });
      templates.set(uriTemplate, { entry, matcher });
    } else {
      const { uri } = isObject(entry.resource) ? entry.resource : ({} as never);
      if (typeof uri !== "string" || statics.has(uri))
        throw new TypeError(
          `defineResources: resource ${JSON.stringify(uri)} is missing or given twice`,
        );
      statics.set(uri, entry);
    }
  }
  // Without `list`, no fields: the generated defineResources requires `list` where the
  // revision's list results require fields (ttlMs, cacheScope), so ListFields is then empty.
  const listFields = options.list ?? ({} as ListFields);
  const compiled = [...templates.values()];

  return {
    handlers: {
      "resources/list": async (_params, ctx) => {
        const listed = await Promise.all(compiled.map(({ entry }) => entry.list?.(ctx) ?? []));
        const resources = [...[...statics.values()].map((s) => s.resource), ...listed.flat()];
        return { ...listFields, resources };
      },
      "resources/templates/list": () => ({
        ...listFields,
        resourceTemplates: compiled.map(({ entry }) => entry.template),
      }),
      "resources/read": async (params, ctx) => {
        const { uri } = params;
        const fixed = statics.get(uri);
        if (fixed !== undefined) return fixed.read(uri, ctx);
        if (uri.length > maxUriLength)
          throw new McpError(
            JSONRPC_ERRORS.INVALID_PARAMS,
            `Resource URI too long: ${uri.length} characters, at most ${maxUriLength} (maxUriLength)`,
            { maxUriLength },
          );
        for (const { entry, matcher } of compiled) {
          const variables = matcher.match(uri);
          if (variables !== undefined) return entry.read(uri, variables as never, ctx);
        }
        throw new McpError(JSONRPC_ERRORS.INVALID_PARAMS, `Resource ${uri} not found`, { uri });
      },
    },
    complete(uri, request, ctx) {
      const found = templates.get(uri);
      if (found === undefined) return undefined;
      const { entry, matcher } = found;
      const completers = entry.complete as { [name: string]: Completer<Ctx> } | undefined;
      return complete(`Resource template ${uri}`, matcher.variableNames, completers, request, ctx);
    },
    completes: compiled.some(({ entry }) => Object.keys(entry.complete ?? {}).length > 0),
  };
}
