import type { Promisable } from "./context.js";
import { JSONRPC_ERRORS, McpError } from "../core/errors.js";
import { isObject } from "../core/protocol.js";
import {
  complete,
  type Completer,
  type Completion,
  type CompletionRequest,
} from "./completions.js";

// Prompts served from one table: prompts/list lists their definitions, prompts/get checks the
// arguments against the declared ones and runs the entry named, completion/complete
// (ref/prompt) completes its arguments. The arguments a prompt's `get` receives are typed
// from its declarations (PromptArguments); the generated dispatcher binds the revision's types.

/** What this module reads of a prompt argument declaration. */
export interface PromptArgumentShape {
  readonly name: string;
  readonly required?: boolean | undefined;
}

/** What this module reads of a prompt definition (it lists the whole definition as given). */
export interface PromptShape {
  readonly name: string;
  readonly arguments?: readonly PromptArgumentShape[] | undefined;
}

type Simplify<O> = { [K in keyof O]: O[K] };

/**
 * The arguments of a prompt declaring `Declared`, by name: a string for each required one,
 * an optional string for the others (`[{ name: "code", required: true }, { name: "style" }]`
 * gives `{ code: string; style?: string }`).
 */
export type PromptArguments<Declared extends readonly PromptArgumentShape[]> = Simplify<
  {
    readonly [
      A in Declared[number] as A extends { readonly required: true } ? A["name"] : never
    ]: string;
  } & {
    readonly [
      A in Declared[number] as A extends { readonly required: true } ? never : A["name"]
    ]?: string;
  }
>;

/** One prompt: its definition, as prompts/list lists it, what prompts/get runs, its completions. */
export interface PromptDefinition<
  Declared extends readonly PromptArgumentShape[],
  Prompt extends PromptShape,
  Ctx,
  Params,
  Result,
> {
  readonly prompt: Omit<Prompt, "arguments"> & { readonly arguments?: Declared };
  /** Builds the prompt from its arguments, checked first: required ones given, no others. */
  readonly get: (args: PromptArguments<Declared>, ctx: Ctx, params: Params) => Promisable<Result>;
  /** Completions per argument (completion/complete with `ref/prompt`). */
  readonly complete?: {
    readonly [Name in Declared[number]["name"]]?: Completer<
      Ctx,
      { readonly [Other in Declared[number]["name"]]?: string }
    >;
  };
}

/** A prompt with its arguments' types erased (what `prompt` returns), ready for definePrompts. */
export interface PromptEntry<
  Ctx = unknown,
  Prompt extends PromptShape = PromptShape,
  Result = unknown,
> {
  readonly prompt: Prompt;
  readonly get: (args: never, ctx: Ctx, params: never) => Promisable<Result>;
  readonly complete?: { readonly [name: string]: Completer<Ctx, never> | undefined };
}

/** A prompt entry, its arguments typed from `prompt.arguments` (hence a function: the literal is inferred here). */
export function prompt<
  const Declared extends readonly PromptArgumentShape[],
  Prompt extends PromptShape,
  Ctx,
  Params,
  Result,
>(
  entry: PromptDefinition<Declared, Prompt, Ctx, Params, Result>,
): PromptEntry<Ctx, Prompt, Result> {
  // Erases the arguments' type (what `get` gets is typed from Declared, which the table forgets).
  return entry as unknown as PromptEntry<Ctx, Prompt, Result>;
}

export interface DefinePromptsOptions<ListFields extends object = object> {
  /** Put into every prompts/list result (ttlMs and cacheScope where required). */
  readonly list?: ListFields;
}

/** What prompts/get's params are read for. */
export interface PromptGetParams {
  readonly name: string;
  readonly arguments?: { readonly [name: string]: string } | undefined;
}

/**
 * prompts/list and prompts/get as a table serves them, typed with its entries' types (the
 * generated definePrompts binds the revision's), so that they spread into the generated
 * ServerHandlers.
 */
export interface PromptHandlers<
  Ctx = unknown,
  Prompt extends PromptShape = PromptShape,
  Result = unknown,
  ListFields extends object = object,
> {
  readonly "prompts/list": (params: unknown, ctx: Ctx) => ListFields & { prompts: Prompt[] };
  readonly "prompts/get": (params: PromptGetParams, ctx: Ctx) => Promise<Result>;
}

/** What a prompts table serves: spread `handlers` into the server handlers, or give it to defineServer. */
export interface PromptTable<
  Ctx = unknown,
  Prompt extends PromptShape = PromptShape,
  Result = unknown,
  ListFields extends object = object,
> {
  readonly handlers: PromptHandlers<Ctx, Prompt, Result, ListFields>;
  /** Answers completion/complete for `ref/prompt` named `name`; undefined: no such prompt. */
  complete(name: string, request: CompletionRequest, ctx: Ctx): Promise<Completion> | undefined;
  /** Whether any prompt completes an argument (so the server declares `completions`). */
  readonly completes: boolean;
}

/**
 * The handlers serving `entries`. prompts/get answers -32602 for an unknown prompt
 * (`Prompt <name> not found`), a required argument left out (`Prompt <name>: missing
 * required argument <arg>`) and an argument the prompt does not declare (2026-07-28
 * server/prompts, "Error Handling": invalid prompt name and missing required arguments are
 * -32602). Throws a TypeError for a malformed entry or a name given twice.
 */
export function definePrompts<
  Ctx,
  ListFields extends object = object,
  Prompt extends PromptShape = PromptShape,
  Result = unknown,
>(
  entries: readonly PromptEntry<Ctx, Prompt, Result>[],
  options: DefinePromptsOptions<ListFields> = {},
): PromptTable<Ctx, Prompt, Result, ListFields> {
  const byName = new Map<string, PromptEntry<Ctx, Prompt, Result>>();
  for (const entry of entries) {
    const { prompt: definition, get } = entry ?? {};
    if (!isObject(definition) || typeof definition.name !== "string" || definition.name === "")
      throw new TypeError("definePrompts: each entry needs a `prompt` with a non-empty name");
    if (byName.has(definition.name))
      throw new TypeError(`definePrompts: prompt "${definition.name}" is defined twice`);
    if (typeof get !== "function")
      throw new TypeError(`definePrompts: prompt "${definition.name}" needs a \`get\` function`);
    byName.set(definition.name, entry);
  }
  // Without `list`, no fields: the generated definePrompts requires `list` where the
  // revision's prompts/list result requires fields (ttlMs, cacheScope), so ListFields is then empty.
  const listFields = options.list ?? ({} as ListFields);
  const declaredOf = (entry: PromptEntry<Ctx, Prompt, Result>) =>
    (entry.prompt.arguments ?? []).map((a) => a.name);
  const find = (name: string) => {
    const entry = byName.get(name);
    if (entry === undefined)
      throw new McpError(JSONRPC_ERRORS.INVALID_PARAMS, `Prompt ${name} not found`);
    return entry;
  };

  return {
    handlers: {
      "prompts/list": () => ({ ...listFields, prompts: [...byName.values()].map((e) => e.prompt) }),
      "prompts/get": async (params, ctx) => {
        const entry = find(params.name);
        const given = params.arguments ?? {};
        const declared = entry.prompt.arguments ?? [];
        const wrong = (why: string) =>
          new McpError(JSONRPC_ERRORS.INVALID_PARAMS, `Prompt ${params.name}: ${why}`);
        for (const argument of declared)
          if (argument.required === true && typeof given[argument.name] !== "string")
            throw wrong(`missing required argument ${argument.name}`);
        const names = declared.map((a) => a.name);
        const args: Record<string, string> = {};
        for (const [name, value] of Object.entries(given)) {
          if (!names.includes(name)) throw wrong(`unknown argument ${name}`);
          args[name] = value;
        }
        return entry.get(args as never, ctx, params as never);
      },
    },
    complete(name, request, ctx) {
      const entry = byName.get(name);
      if (entry === undefined) return undefined;
      const completers = entry.complete as { [name: string]: Completer<Ctx> } | undefined;
      return complete(`Prompt ${name}`, declaredOf(entry), completers, request, ctx);
    },
    completes: [...byName.values()].some((e) => Object.keys(e.complete ?? {}).length > 0),
  };
}
