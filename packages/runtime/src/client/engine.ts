import { McpError, withCapabilities } from "../core/errors.js";
import {
  isObject,
  own,
  type MessageValidators,
  type ProtocolDescriptor,
} from "../core/protocol.js";
import { headerPlan, toolHeaders, type HeaderPlan } from "../core/tool-headers.js";
import { McpProtocolError, RoundLimitError, SessionExpiredError } from "./errors.js";
import { fulfilInputRequests, type InputHandlers } from "./input.js";
import { addLegacyCalls } from "./legacy-calls.js";
import { pages } from "./pages.js";
import { createRoundSender } from "./round.js";
import { positiveInteger, timeoutOption } from "../core/options.js";
import { inNewestShape, olderRevisions } from "./versions.js";
import { eraOf, eraSettings, forgetEra, looksLegacy, probeEra, type EraName } from "./era-probe.js";
import { LegacyClient, type LegacyClientOptions } from "./legacy-client.js";
import type { AdaptedEra, Era, LegacyEra } from "../core/era.js";
import type { CallOptions, SenderOptions, Transport } from "../transport/transport.js";

// The sending side of MCP: one function per request method, doing the multi round-trip
// (input_required) dance where the revision has it: fulfil every input request, retry the
// same request under a new id with the answers and the server's requestState, within a bound.
// Given legacy eras, it also reaches initialize-based servers (legacy-client.ts), after
// finding out once per transport which era the server speaks (era-detect.ts).

type Json = Record<string, unknown>;

/** The names of the functions a sender has: method -> function name, per kind. */
export interface SenderShape {
  readonly functions: { readonly [method: string]: string };
  readonly notifications: { readonly [method: string]: string };
  readonly paginated: readonly string[];
  /** Calls only legacy eras have (client-legacy-calls.ts), per kind. */
  readonly legacy?: {
    readonly functions: { readonly [method: string]: string };
    readonly notifications: { readonly [method: string]: string };
  };
}

/** The revisions a client speaks: the newest (its typed API) and older ones, newest first. */
export interface ClientEras {
  readonly modern: Era;
  readonly previous?: readonly AdaptedEra[];
  readonly legacy: readonly LegacyEra[];
}

export function createSender(
  protocol: ProtocolDescriptor,
  validators: MessageValidators,
  shape: SenderShape,
  options: SenderOptions,
  eras?: ClientEras,
): Json {
  const transport: Transport = options.transport;
  const validateResults = options.validateResults ?? true;
  const maxRounds = positiveInteger(options.maxRounds, "maxRounds", 10);
  const maxPages = positiveInteger(options.maxPages, "maxPages", 1_000);
  const defaultTimeout = timeoutOption(options.requestTimeoutMs, "requestTimeoutMs", 60_000);
  const maxTimeout = timeoutOption(options.maxRequestTimeoutMs, "maxRequestTimeoutMs", 600_000);
  const keys = protocol.requestMeta;
  const { wellKnown } = protocol;
  // The version goes wherever the revision has the key, even without an unsupported-version
  // code (a draft may add the key first): the key is required, so leaving it out gets -32602.
  const versionKey = keys.protocolVersion;
  let version =
    options.protocolVersion ??
    options.supportedVersions?.[0] ??
    protocol.protocolVersion ??
    undefined;
  const older = olderRevisions(eras?.previous ?? []);
  const offered = version === undefined ? [] : [version, ...older.versions];
  const versions = options.supportedVersions ?? offered.filter((v, i) => offered.indexOf(v) === i);
  // What tools/list said about each tool's x-mcp-header annotations, for tools/call.
  const toolHeaderPlans = new Map<string, HeaderPlan>();
  const inputHandlers = (options.inputHandlers ?? {}) as InputHandlers;
  // Capabilities: what the caller declares, plus what each registered input handler implies.
  const implied = Object.entries(inputHandlers).flatMap(([method, handler]) => {
    const capability = own(protocol.inputRequests, method)?.capability;
    return handler && capability ? [capability] : [];
  });
  const capabilities = withCapabilities((options.capabilities ?? {}) as Json, implied);
  const legacyEras = eras?.legacy ?? [];
  const { mode, legacyVersions } = eraSettings(options, legacyEras);
  const probeTimeoutMs = timeoutOption(options.probeTimeoutMs, "probeTimeoutMs", 10_000);
  let legacy: LegacyClient | undefined;

  /** The `_meta` of one request: protocol fields, then the caller's (never dropped). */
  function metaFor(
    params: Json,
    opts: CallOptions,
    progressToken: string | undefined,
    keys: ProtocolDescriptor["requestMeta"] = protocol.requestMeta,
  ): Json | undefined {
    const meta: Json = {};
    const versionKey = keys.protocolVersion;
    if (versionKey !== null && version !== undefined) meta[versionKey] = version;
    if (keys.clientCapabilities !== null) meta[keys.clientCapabilities] = capabilities;
    if (keys.clientInfo !== null && options.clientInfo) meta[keys.clientInfo] = options.clientInfo;
    if (keys.logLevel !== null && opts.logLevel) meta[keys.logLevel] = opts.logLevel;
    if (keys.progressToken !== null && progressToken !== undefined)
      meta[keys.progressToken] = progressToken;
    const merged = {
      ...meta,
      ...(isObject(params["_meta"]) ? params["_meta"] : {}),
      ...(opts.meta ?? {}),
    };
    return Object.keys(merged).length > 0 ? merged : undefined;
  }

  /** One round: a new id, the request, its response; cancellation on abort or timeout. */
  const round = createRoundSender(protocol, transport, defaultTimeout, maxTimeout);

  /** One round; on the modern wire, tools/call carries the Mcp-Param headers tools/list announced. */
  function send(
    method: string,
    params: Json,
    opts: CallOptions,
    progressToken: string | undefined,
    modernWire = true,
  ): Promise<Json> {
    let headers: Record<string, string> | undefined;
    if (modernWire && protocol.features.toolHeaders && method === wellKnown.toolsCall) {
      const planned = toolHeaders(toolHeaderPlans.get(params["name"] as string), params);
      if (planned && "invalid" in planned) {
        throw new McpProtocolError(
          `tool "${String(params["name"])}" has an invalid header annotation (${String(planned.invalid)}); it is not called`,
        );
      }
      headers = planned;
    }
    return round.send(method, params, opts, progressToken, {
      headers,
      // Modern Streamable HTTP cancels by closing the stream; legacy sessions and stdio notify.
      cancelNotice: !(modernWire && transport.closesStreamOnAbort === true),
      longLived: method === wellKnown.subscriptionsListen,
    });
  }

  /** send(), retrying once with a version both sides speak when the server refuses ours. */
  async function sendNegotiated(
    method: string,
    params: Json,
    opts: CallOptions,
    progressToken: string | undefined,
  ): Promise<Json> {
    try {
      return await send(method, params, opts, progressToken);
    } catch (error) {
      const code = protocol.errorCodes.unsupportedProtocolVersion;
      const data = error instanceof McpError && isObject(error.data) ? error.data : undefined;
      if (
        versionKey === null ||
        code === null ||
        !(error instanceof McpError) ||
        error.code !== code ||
        !Array.isArray(data?.["supported"])
      )
        throw error;
      const offered = data["supported"] as unknown[];
      const pick = versions.find((v) => offered.includes(v));
      if (pick === undefined) throw error;
      version = pick;
      const meta = { ...(isObject(params["_meta"]) ? params["_meta"] : {}), [versionKey]: version };
      return send(method, { ...params, _meta: meta }, opts, progressToken);
    }
  }

  /**
   * Why a result without resultType fails, when the likely reason is an initialize-based server
   * spoken to as a modern one: it lacks every field only the newest revision has (`ttlMs`...),
   * which alone would not say what to do.
   */
  function legacyHint(raw: Json): string {
    if (!protocol.resultTypeRequired || raw["resultType"] !== undefined) return "";
    const remedy =
      legacyEras.length === 0
        ? ", which this client was generated without (list them in --revisions)"
        : mode === "modern"
          ? `, and the client's era is pinned to "modern"`
          : "";
    return ` (it has no resultType: the server may speak only initialize-based revisions${remedy})`;
  }

  /**
   * A result checked and in the newest revision's shape. One of an older revision (`era`) is
   * checked at that revision, as it was sent, then given the fields only the newest has where
   * they have a default: a field a draft adds with none stays out (typed optional for it).
   */
  function checkResult(method: string, raw: Json, era?: AdaptedEra): Json {
    let result: Json;
    if (era) {
      if (validateResults) {
        const checked = era.validators.validateMethodResult(method, raw);
        if (!checked.ok) throw new McpProtocolError(`invalid ${method} result`, checked.errors);
      }
      result = inNewestShape(era, method, raw);
    } else {
      // A result without resultType comes from an older server: it is complete.
      result =
        protocol.resultTypeRequired && raw["resultType"] === undefined
          ? { ...raw, resultType: "complete" }
          : raw;
      if (validateResults) {
        const checked = validators.validateMethodResult(method, result);
        if (!checked.ok)
          throw new McpProtocolError(`invalid ${method} result${legacyHint(raw)}`, checked.errors);
      }
    }
    if (
      protocol.features.toolHeaders &&
      method === wellKnown.toolsList &&
      Array.isArray(result["tools"])
    ) {
      for (const tool of result["tools"])
        if (isObject(tool) && typeof tool["name"] === "string")
          toolHeaderPlans.set(tool["name"], headerPlan(tool));
    }
    return result;
  }

  /** Which era the server speaks; the legacy session, opened, when it is legacy. */
  async function connection(signal: AbortSignal | undefined): Promise<LegacyClient | undefined> {
    if (legacyVersions.length === 0 || mode === "modern") return undefined;
    // A transport that cannot carry a session (in-process) reaches modern servers only.
    if (mode === "auto" && !transport.legacy) return undefined;
    const era = mode === "legacy" ? "legacy" : await eraOf(transport, probe);
    if (era === "modern") return undefined;
    legacy ??= new LegacyClient({
      modern: eras!.modern,
      eras: legacyEras,
      versions: legacyVersions,
      transport,
      capabilities,
      clientInfo: options.clientInfo,
      onNotification: options.onNotification as LegacyClientOptions["onNotification"],
      send: (method, params, signal) =>
        send(method, params, signal ? { signal } : {}, undefined, false),
      answerInput: (method, params, key, signal) => {
        const handler = own(inputHandlers, method);
        return handler ? Promise.resolve(handler(params, { key, method, signal })) : undefined;
      },
    });
    // A failed initialize may contradict the probe's verdict (silence; on HTTP, a modern server
    // still starting): the next call probes again instead of keeping it.
    await legacy.open(signal).catch((error: unknown) => {
      if (mode === "auto") forgetEra(transport);
      throw error;
    });
    return legacy;
  }

  /** The era probe: server/discover, answered validly or with a modern error by modern servers only. */
  function probe(): Promise<EraName> {
    const params: Json = {};
    const meta = metaFor(params, {}, undefined);
    if (meta) params["_meta"] = meta;
    return probeEra(
      protocol,
      () => older.eraOf(version)?.validators ?? validators,
      (method) => sendNegotiated(method, params, { timeoutMs: probeTimeoutMs }, undefined),
      (offered) => {
        if (version !== undefined && !offered.includes(version))
          version = versions.find((v) => offered.includes(v)) ?? version;
      },
    );
  }

  async function call(
    method: string,
    rawParams: unknown,
    opts: CallOptions & { manual?: boolean } = {},
  ): Promise<Json> {
    const session = await connection(opts.signal);
    if (session) return legacyCall(session, method, rawParams, opts);
    try {
      return await modernCall(method, rawParams, opts);
    } catch (error) {
      // The era was a cached assumption and the server now answers like a legacy one: probe again.
      if (
        mode !== "auto" ||
        legacyVersions.length === 0 ||
        !transport.legacy ||
        !looksLegacy(error)
      )
        throw error;
      forgetEra(transport);
      const again = await connection(opts.signal);
      if (!again) throw error;
      return legacyCall(again, method, rawParams, opts);
    }
  }

  /** A call on a legacy session: the legacy wire shape out, the newest revision's shape back. */
  async function legacyCall(
    session: LegacyClient,
    method: string,
    rawParams: unknown,
    opts: CallOptions,
  ): Promise<Json> {
    if (!session.has(method)) {
      if (method === wellKnown.discover) return checkResult(method, session.discoverResult());
      throw session.unsupported(method);
    }
    const params: Json = isObject(rawParams) ? { ...rawParams } : {};
    delete params["inputResponses"];
    delete params["requestState"];
    const keys = session.era!.protocol.requestMeta;
    const progressToken =
      opts.onProgress && keys.progressToken !== null ? round.progressToken() : undefined;
    const meta = metaFor(params, opts, progressToken, keys);
    delete params["_meta"];
    if (meta) params["_meta"] = meta;
    if (opts.logLevel) await session.setLevel(opts.logLevel, opts.signal);
    let raw: Json;
    try {
      raw = await send(method, params, opts, progressToken, false);
    } catch (error) {
      if (!(error instanceof SessionExpiredError)) throw error;
      await session.reopen(opts.signal);
      raw = await send(method, params, opts, progressToken, false);
    }
    return checkResult(method, raw, session.era);
  }

  async function modernCall(
    method: string,
    rawParams: unknown,
    opts: CallOptions & { manual?: boolean } = {},
  ): Promise<Json> {
    older.check(version, method);
    const params: Json = isObject(rawParams) ? { ...rawParams } : {};
    const progressToken =
      opts.onProgress && keys.progressToken !== null ? round.progressToken() : undefined;
    const meta = metaFor(params, opts, progressToken);
    const base: Json = { ...params };
    delete base["_meta"];
    if (meta) base["_meta"] = meta;
    const adapted = (result: Json) => checkResult(method, result, older.eraOf(version));
    if (!protocol.features.mrtr)
      return adapted(await sendNegotiated(method, base, opts, progressToken));
    // Manual mode: the caller answers input_required itself, retrying with its own
    // inputResponses and requestState; the automatic mode owns both fields.
    if (!opts.manual) {
      delete base["inputResponses"];
      delete base["requestState"];
    }
    const mayAskInput = own(protocol.methods, method)?.inputRequired === true;
    let retry: Json = base;
    for (let round = 0; ; round++) {
      const result = await sendNegotiated(method, retry, opts, progressToken);
      if (result["resultType"] !== "input_required") return adapted(result);
      if (!mayAskInput) throw new McpProtocolError(`${method} may not answer input_required`);
      const interim = validators.validateInputRequiredResult?.(result);
      if (interim && !interim.ok)
        throw new McpProtocolError(`invalid input_required answer to ${method}`, interim.errors);
      if (opts.manual) return result;
      if (round + 1 >= maxRounds) throw new RoundLimitError(round + 1);
      const inputResponses = await fulfilInputRequests(
        protocol,
        validators,
        capabilities,
        inputHandlers,
        isObject(result["inputRequests"]) ? result["inputRequests"] : {},
        opts.signal,
      );
      // The same request again, under a new id: answers at the same keys, requestState as given.
      retry = { ...base };
      if (Object.keys(inputResponses).length > 0) retry["inputResponses"] = inputResponses;
      if (result["requestState"] !== undefined) retry["requestState"] = result["requestState"];
    }
  }

  const api: Json = {
    request: (method: string, params: unknown, callOptions?: CallOptions) =>
      call(method, params, callOptions),
    era: async () => ((await connection(undefined)) ? "legacy" : "modern"),
    close: async () => {
      await legacy?.close();
      await transport.close?.();
    },
  };
  for (const [method, fn] of Object.entries(shape.functions))
    api[fn] = (params: unknown, callOptions?: CallOptions) => call(method, params, callOptions);
  for (const method of shape.paginated) {
    api[`${shape.functions[method]}Pages`] = (params: unknown, callOptions?: CallOptions) =>
      pages(method, params, maxPages, (page) => call(method, page, callOptions));
  }
  for (const [method, fn] of Object.entries(shape.notifications)) {
    api[fn] = (params?: unknown) =>
      transport.notify({ jsonrpc: "2.0", method, ...(params !== undefined ? { params } : {}) });
  }
  addLegacyCalls(api, shape.legacy, {
    ...{ protocol, legacyEras, transport, capabilities, connection, legacyCall, call },
    openedSession: () => legacy,
    version: () => version,
  });
  return api;
}
