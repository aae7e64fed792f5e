import { JSONRPC_ERRORS, McpError } from "../core/errors.js";
import { mergeCapabilities } from "../core/protocol.js";
import type { Completion, CompletionRequest } from "./completions.js";
import type { PromptTable } from "./prompts.js";
import type { ResourceTable } from "./resources.js";
import type { Handler } from "./router-types.js";

// One entry point for a server: its tables (tools, resources, prompts) become the handlers
// of the generated dispatcher, with completion/complete routed to the table that owns the
// prompt or template, the capabilities they imply, and one call per change that reaches
// every client: legacy sessions (through the era dispatcher's notifySessions and
// resourceUpdated) and modern clients on a subscriptions/listen stream (served here unless the
// author serves it). Handlers of other methods are mixed in as they are.

/** A list whose changes clients may follow (`notifications/<list>/list_changed`). */
export type ListName = "tools" | "resources" | "prompts";

/** What defineServer assembles. */
export interface ServerParts<Ctx = unknown> {
  /** tools/list and tools/call, as defineTools returns them. */
  readonly tools?: { readonly "tools/list": Handler; readonly "tools/call": Handler };
  /** A table from defineResources. */
  readonly resources?: ResourceTable<Ctx>;
  /** A table from definePrompts. */
  readonly prompts?: PromptTable<Ctx>;
  /** Handlers of other methods, mixed in as they are (a method a table serves is refused). */
  readonly handlers?: object;
  /** The lists this server tells clients about (`listChanged` calls); declared as `<list>.listChanged`. Default none. */
  readonly listChanged?: readonly ListName[];
  /** Whether this server tells clients about resource updates (`resourceUpdated`); declared as `resources.subscribe`. Default false. */
  readonly subscribe?: boolean;
}

/** What a dispatcher of several eras adds (the generated Dispatcher has them as optional). */
interface SessionNotices {
  notifySessions?(notification: object): number;
  resourceUpdated?(uri: string): number;
}

/** How defineServer reaches the generated dispatcher. */
export interface ServerFactory<D, Options> {
  /** The generated createServerDispatcher. */
  readonly create: (handlers: never, options: Options) => D;
  /** The revision's subscriptions/listen method, or null where it has none. */
  readonly listen: string | null;
}

/** A server: its dispatcher, and one call per change it tells clients about. */
export interface Server<D, L extends ListName = ListName> {
  readonly dispatcher: D;
  /** Sends `notifications/<list>/list_changed` to every client following that list; returns how many got it. */
  listChanged(list: L): number;
  /** Sends `notifications/resources/updated` to every client subscribed to `uri`; returns how many got it. */
  resourceUpdated(uri: string): number;
}

const SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";
/** URIs one listen request may follow (a peer sends them). */
export const MAX_RESOURCE_SUBSCRIPTIONS = 1000;

interface ListenFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
}
interface ListenContext {
  readonly id: unknown;
  readonly signal: AbortSignal;
  notify(notification: object): Promise<void>;
}
type Listener = { filter: ListenFilter; send: (method: string, fields?: object) => void };

/** completion/complete, routed to the table that owns the prompt or template. */
function completionHandler<Ctx>(parts: ServerParts<Ctx>) {
  return (
    params: CompletionRequest & { ref: { type: string; name?: string; uri?: string } },
    ctx: Ctx,
  ): Promise<Completion> => {
    const { ref } = params;
    const answer =
      ref.type === "ref/prompt"
        ? parts.prompts?.complete(String(ref.name), params, ctx)
        : parts.resources?.complete(String(ref.uri), params, ctx);
    if (answer !== undefined) return answer;
    const what = ref.type === "ref/prompt" ? `Prompt ${ref.name}` : `Resource template ${ref.uri}`;
    throw new McpError(JSONRPC_ERRORS.INVALID_PARAMS, `${what} not found`);
  };
}

/**
 * subscriptions/listen: acknowledges the part of the filter this server honors (what it
 * declared), then keeps the stream open until the client ends it, sending each change the
 * filter asks for (2026-07-28 basic/patterns/subscriptions: the acknowledgment first, only
 * notification types requested, each carrying the subscription id).
 */
function listenHandler(listeners: Set<Listener>, lists: ReadonlySet<ListName>, subscribe: boolean) {
  return async (params: { notifications?: ListenFilter }, ctx: ListenContext) => {
    const asked = params.notifications ?? {};
    const uris = asked.resourceSubscriptions ?? [];
    if (uris.length > MAX_RESOURCE_SUBSCRIPTIONS)
      throw new McpError(
        JSONRPC_ERRORS.INVALID_PARAMS,
        `resourceSubscriptions: at most ${MAX_RESOURCE_SUBSCRIPTIONS} URIs`,
      );
    const honored: ListenFilter = {};
    for (const list of lists)
      if (asked[`${list}ListChanged`] === true) honored[`${list}ListChanged`] = true;
    if (subscribe && uris.length > 0) honored.resourceSubscriptions = [...new Set(uris)];
    const _meta = { [SUBSCRIPTION_ID]: ctx.id };
    // A stream that broke: nothing to tell; its listener goes once the signal aborts.
    const send = (method: string, fields?: object) =>
      void ctx.notify({ jsonrpc: "2.0", method, params: { ...fields, _meta } }).catch(() => {});
    await ctx.notify({
      jsonrpc: "2.0",
      method: "notifications/subscriptions/acknowledged",
      params: { notifications: honored, _meta },
    });
    const listener: Listener = { filter: honored, send };
    listeners.add(listener);
    try {
      if (!ctx.signal.aborted)
        await new Promise((resolve) =>
          ctx.signal.addEventListener("abort", resolve, { once: true }),
        );
    } finally {
      listeners.delete(listener);
    }
    return { _meta };
  };
}

/** The handlers of `parts`, each method once. */
function assembleHandlers<Ctx>(parts: ServerParts<Ctx>): Record<string, unknown> {
  const handlers: Record<string, unknown> = {
    ...parts.tools,
    ...parts.resources?.handlers,
    ...parts.prompts?.handlers,
  };
  if (parts.resources?.completes || parts.prompts?.completes)
    handlers["completion/complete"] = completionHandler(parts);
  for (const [method, handler] of Object.entries(parts.handlers ?? {})) {
    if (method in handlers)
      throw new TypeError(
        `defineServer: "${method}" is served by the server's tables; leave it out of \`handlers\``,
      );
    handlers[method] = handler;
  }
  return handlers;
}

/**
 * The dispatcher serving `parts`, made by `factory.create` with `options`, its capabilities
 * laid over those `parts` imply (`listChanged`, `subscribe`; the handlers imply `tools`,
 * `resources`, `prompts` and `completions` by themselves), and the calls that tell clients
 * of changes. Throws a TypeError for a method served twice.
 */
export function defineServer<
  D extends object,
  Options extends { capabilities?: object },
  Ctx,
  const L extends ListName = never,
>(
  factory: ServerFactory<D, Options>,
  parts: ServerParts<Ctx> & { readonly listChanged?: readonly L[] },
  options: Options,
): Server<D, L> {
  const lists = new Set<ListName>(parts.listChanged ?? []);
  const subscribe = parts.subscribe === true;
  const handlers = assembleHandlers(parts);
  const listeners = new Set<Listener>();
  const { listen } = factory;
  if (listen !== null && !(listen in handlers) && (lists.size > 0 || subscribe))
    handlers[listen] = listenHandler(listeners, lists, subscribe);
  let implied: Record<string, unknown> = {};
  for (const list of lists) implied = mergeCapabilities(implied, { [list]: { listChanged: true } });
  if (subscribe) implied = mergeCapabilities(implied, { resources: { subscribe: true } });
  const capabilities = mergeCapabilities(implied, { ...options.capabilities });
  const dispatcher = factory.create(handlers as never, { ...options, capabilities });
  const sessions = dispatcher as SessionNotices;

  return {
    dispatcher,
    listChanged(list) {
      if (!lists.has(list))
        throw new TypeError(`listChanged("${list}"): declare it in defineServer's listChanged`);
      const method = `notifications/${list}/list_changed`;
      const following = [...listeners].filter((l) => l.filter[`${list}ListChanged`] === true);
      for (const { send } of following) send(method);
      return (sessions.notifySessions?.({ jsonrpc: "2.0", method }) ?? 0) + following.length;
    },
    resourceUpdated(uri) {
      if (!subscribe) throw new TypeError("resourceUpdated: set defineServer's `subscribe: true`");
      const following = [...listeners].filter((l) => l.filter.resourceSubscriptions?.includes(uri));
      for (const { send } of following) send("notifications/resources/updated", { uri });
      return (sessions.resourceUpdated?.(uri) ?? 0) + following.length;
    },
  };
}
