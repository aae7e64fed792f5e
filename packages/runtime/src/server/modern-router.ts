import type { HandleContext } from "./context.js";
import { isObject, own } from "../core/protocol.js";
import { createRouter, type Dispatcher, type DispatcherOptions, type Handlers } from "./router.js";
import type { AdaptedEra, Era } from "../core/era.js";

// Stateless revisions older than the newest (2026-07-28 once a newer one is out) are still
// modern (2026-07-28 basic/versioning, "Terminology": version, identity and capabilities as
// per-request metadata). There is no handshake: every request names its version and the
// server accepts or refuses each one on its own ("Protocol Version Negotiation"). So after a
// spec bump the server keeps serving clients of the previous stateless revisions: a request
// goes to the router of the revision its `_meta` names (that revision's method table,
// validators and facts), reaching the same handlers, written once against the newest, and
// its result is adapted to that revision. Versions no revision speaks reach the newest
// router, which refuses them with every version served.

// Handlers are typed per method; `any` parameters let every one of them sit in one table.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
type Handler = (params: any, ctx: any) => unknown;

/** A result in an older revision's shape: the fields it lacks (and `resultType`, where it has none) dropped. */
export function adaptResult(era: AdaptedEra, method: string, result: unknown): unknown {
  if (!isObject(result)) return result;
  const drop = new Set(own(era.adapters, method)?.dropResultFields ?? []);
  if (!era.protocol.resultType) drop.add("resultType");
  if (drop.size === 0) return result;
  return Object.fromEntries(Object.entries(result).filter(([key]) => !drop.has(key)));
}

/** Whether a modern request names `era`'s protocol version in its `_meta`. */
function names(era: Era, message: unknown): boolean {
  const key = era.protocol.requestMeta.protocolVersion;
  if (key === null || era.protocol.protocolVersion === null || !isObject(message)) return false;
  const params = message["params"];
  const meta = isObject(params) ? params["_meta"] : undefined;
  return isObject(meta) && own(meta, key) === era.protocol.protocolVersion;
}

/**
 * The router of every stateless revision served: the newest (`modern`) and `previous` ones,
 * newest first. server/discover and the unsupported-version error of each list them all
 * (`options.supportedVersions` overrides that list, e.g. to stop serving one).
 */
export function createModernRouter(
  modern: Era,
  previous: readonly AdaptedEra[],
  handlers: Handlers,
  options: DispatcherOptions = {},
): Dispatcher {
  const spoken = [modern, ...previous].flatMap((e) => e.protocol.protocolVersion ?? []);
  const supportedVersions = options.supportedVersions ?? spoken;
  const newest = createRouter(modern.protocol, modern.validators, "client->server", handlers, {
    ...options,
    supportedVersions,
  });
  if (previous.length === 0) return newest;
  // Extensions speak the newest revision's wire and a store serves one router: an older
  // revision's requests get the core protocol (basic/versioning, "Extension Negotiation":
  // the supporting party reverts to core behavior).
  const { extensions, ...routerOptions } = options;
  const extensionIds = (extensions ?? []).map((e) => e.id);
  const routers = previous.map((era) => ({
    era,
    router: createRouter(era.protocol, era.validators, "client->server", handlersFor(era), {
      ...routerOptions,
      supportedVersions,
    }),
  }));
  const cancelled = modern.protocol.wellKnown.cancelled;

  /** The handlers as `era` serves them: its requests only, results in its shape. */
  function handlersFor(era: AdaptedEra): Handlers {
    const served: Record<string, Handler> = {};
    for (const [method, entry] of Object.entries(era.protocol.methods)) {
      const handler = own(handlers, method);
      if (!handler || entry.kind !== "request" || !entry.directions.includes("client->server"))
        continue;
      served[method] = async (params, ctx) => adaptResult(era, method, await handler(params, ctx));
    }
    return served;
  }

  /** The request without the served extensions among the capabilities it declares. */
  function withoutExtensions(era: Era, message: Record<string, unknown>): Record<string, unknown> {
    const key = era.protocol.requestMeta.clientCapabilities;
    const params = isObject(message["params"]) ? message["params"] : {};
    const meta = isObject(params["_meta"]) ? params["_meta"] : {};
    const found = key === null ? undefined : own(meta, key);
    const capabilities = isObject(found) ? found : {};
    const declared = capabilities["extensions"];
    if (key === null || !isObject(declared) || !extensionIds.some((id) => own(declared, id)))
      return message;
    const kept = { ...declared };
    for (const id of extensionIds) delete kept[id];
    const narrowed = { ...meta, [key]: { ...capabilities, extensions: kept } };
    return { ...message, params: { ...params, _meta: narrowed } };
  }

  async function handle(message: unknown, context: HandleContext = {}) {
    // A cancellation names a request id, not a version (NotificationParams' `_meta` is
    // optional): each router aborts its own request with that id. Notification handlers run
    // once, on the newest router.
    if (isObject(message) && message["method"] === cancelled && message["id"] === undefined) {
      await Promise.all(routers.map(({ router }) => router.handle(message, context)));
      return newest.handle(message, context);
    }
    const older = routers.find(({ era }) => names(era, message));
    if (!older || !isObject(message) || message["id"] === undefined)
      return newest.handle(message, context);
    return older.router.handle(withoutExtensions(older.era, message), context);
  }

  const dispatcher: Dispatcher = {
    ...(newest.nameParams ? { nameParams: newest.nameParams } : {}),
    handle,
    async handleText(text, context = {}) {
      let message: unknown;
      try {
        message = JSON.parse(text);
      } catch {
        return newest.handleText(text, context);
      }
      return handle(message, context);
    },
  };
  return dispatcher;
}
