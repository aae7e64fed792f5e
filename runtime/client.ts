import { capabilityObject, hasCapability, JSONRPC_ERRORS, McpError } from "./errors.js";
import { isObject, own, type MessageValidators, type ProtocolDescriptor } from "./protocol.js";
import { headerPlan, toolHeaders, type HeaderPlan } from "./tool-headers.js";
import {
  DECLINE,
  InputDeclinedError,
  McpProtocolError,
  RequestTimeoutError,
  RoundLimitError,
} from "./client-errors.js";
import type { CallOptions, SenderOptions, Transport } from "./transport.js";

// The sending side of MCP: one function per request method, doing the multi round-trip
// (input_required) dance where the revision has it: fulfil every input request, retry the
// same request under a new id with the answers and the server's requestState, within a bound.

export { DECLINE, InputDeclinedError, McpProtocolError, RequestTimeoutError, RoundLimitError };

type Json = Record<string, unknown>;
type InputHandler = (
  params: unknown,
  context: { key: string; method: string; signal: AbortSignal | undefined },
) => unknown;

function merge(a: Json, b: Json): Json {
  const out: Json = { ...a };
  for (const [k, v] of Object.entries(b)) {
    const current = out[k];
    out[k] = isObject(current) && isObject(v) ? merge(current, v) : v;
  }
  return out;
}

const abortError = (signal: AbortSignal): unknown => signal.reason ?? new Error("aborted");

function positiveInteger(value: number | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1)
    throw new TypeError(`${name} must be a positive integer, got ${String(value)}`);
  return value;
}

/** The names of the functions a sender has: method -> function name, per kind. */
export interface SenderShape {
  readonly functions: { readonly [method: string]: string };
  readonly notifications: { readonly [method: string]: string };
  readonly paginated: readonly string[];
}

export function createSender(
  protocol: ProtocolDescriptor,
  validators: MessageValidators,
  shape: SenderShape,
  options: SenderOptions,
): Json {
  const transport: Transport = options.transport;
  const validateResults = options.validateResults ?? true;
  const maxRounds = positiveInteger(options.maxRounds, "maxRounds", 10);
  const defaultTimeout = positiveInteger(options.requestTimeoutMs, "requestTimeoutMs", 60_000);
  const maxTimeout = positiveInteger(options.maxRequestTimeoutMs, "maxRequestTimeoutMs", 600_000);
  const keys = protocol.requestMeta;
  const { wellKnown } = protocol;
  // The version goes wherever the revision has the key, even without an unsupported-version
  // code (a draft may add the key first): the key is required, so leaving it out gets -32602.
  const versionKey = keys.protocolVersion;
  let nextId = 0;
  let version =
    options.protocolVersion ??
    options.supportedVersions?.[0] ??
    protocol.protocolVersion ??
    undefined;
  const versions = options.supportedVersions ?? (version === undefined ? [] : [version]);
  // What tools/list said about each tool's x-mcp-header annotations, for tools/call.
  const toolHeaderPlans = new Map<string, HeaderPlan>();
  const inputHandlers = (options.inputHandlers ?? {}) as {
    readonly [method: string]: InputHandler | undefined;
  };
  // Capabilities: what the caller declares, plus what each registered input handler implies.
  let capabilities: Json = {};
  for (const [method, handler] of Object.entries(inputHandlers)) {
    const path = own(protocol.inputRequests, method)?.capability;
    if (handler && path) capabilities = merge(capabilities, capabilityObject(path));
  }
  capabilities = merge(capabilities, (options.capabilities ?? {}) as Json);

  /** The `_meta` of one request: protocol fields, then the caller's (never dropped). */
  function metaFor(
    params: Json,
    opts: CallOptions,
    progressToken: string | undefined,
  ): Json | undefined {
    const meta: Json = {};
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
  async function send(
    method: string,
    params: Json,
    opts: CallOptions,
    progressToken: string | undefined,
  ): Promise<Json> {
    const signal = opts.signal;
    if (signal?.aborted) throw abortError(signal);
    const id = ++nextId;
    const message = { jsonrpc: "2.0", id, method, params };
    let headers: Record<string, string> | undefined;
    if (protocol.features.toolHeaders && method === wellKnown.toolsCall) {
      const planned = toolHeaders(toolHeaderPlans.get(params["name"] as string), params);
      if (planned && "invalid" in planned) {
        throw new McpProtocolError(
          `tool "${String(params["name"])}" has an invalid header annotation (${String(planned.invalid)}); it is not called`,
        );
      }
      headers = planned;
    }
    const timeoutMs = Math.min(
      positiveInteger(opts.timeoutMs, "timeoutMs", defaultTimeout),
      maxTimeout,
    );
    const started = Date.now();
    const local = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const arm = () => {
      if (timer !== undefined) clearTimeout(timer);
      // Progress restarts the clock, never past the maximum (basic/patterns/timeouts).
      const left = Math.min(timeoutMs, maxTimeout - (Date.now() - started));
      timer = setTimeout(
        () => local.abort(new RequestTimeoutError(method, Date.now() - started)),
        Math.max(left, 0),
      );
    };
    arm();
    const onNotification = (notification: Json) => {
      const params = isObject(notification["params"]) ? notification["params"] : {};
      if (
        notification["method"] === wellKnown.progress &&
        progressToken !== undefined &&
        params["progressToken"] === progressToken
      ) {
        if (opts.resetTimeoutOnProgress !== false) arm();
        return opts.onProgress?.(params as never);
      }
      if (notification["method"] === wellKnown.log && opts.onLog)
        return opts.onLog(params as never);
      opts.onNotification?.(notification as never);
    };
    const onAbort = () => local.abort(signal ? abortError(signal) : undefined);
    signal?.addEventListener("abort", onAbort, { once: true });
    const aborted = new Promise<never>((_, reject) => {
      local.signal.addEventListener(
        "abort",
        () => {
          // Tell the server to stop the request in flight; the reply no longer matters.
          if (wellKnown.cancelled !== null) {
            const reason =
              local.signal.reason instanceof Error
                ? local.signal.reason.message
                : String(local.signal.reason ?? "cancelled");
            const cancel = {
              jsonrpc: "2.0",
              method: wellKnown.cancelled,
              params: { requestId: id, reason },
            };
            transport.notify(cancel).catch(() => undefined);
          }
          reject(local.signal.reason);
        },
        { once: true },
      );
    });
    aborted.catch(() => undefined);
    try {
      const request = transport.request(message, {
        signal: local.signal,
        ...(headers ? { headers } : {}),
        onNotification,
      });
      const response = (await Promise.race([request, aborted])) as Json;
      if (response["id"] !== id)
        throw new McpProtocolError(
          `response id ${JSON.stringify(response["id"])} does not match request id ${id}`,
        );
      const error = response["error"];
      if (isObject(error))
        throw new McpError(Number(error["code"]), String(error["message"]), error["data"]);
      const result = response["result"];
      if (!isObject(result))
        throw new McpProtocolError(`the ${method} response has no result object`);
      return result;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    }
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

  function checkResult(method: string, raw: Json): Json {
    // A result without resultType comes from an older server: it is complete.
    const result =
      protocol.resultTypeRequired && raw["resultType"] === undefined
        ? { ...raw, resultType: "complete" }
        : raw;
    if (validateResults) {
      const checked = validators.validateMethodResult(method, result);
      if (!checked.ok) throw new McpProtocolError(`invalid ${method} result`, checked.errors);
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

  async function call(
    method: string,
    rawParams: unknown,
    opts: CallOptions & { manual?: boolean } = {},
  ): Promise<Json> {
    const params: Json = isObject(rawParams) ? { ...rawParams } : {};
    const progressToken =
      opts.onProgress && keys.progressToken !== null
        ? `p${nextId + 1}-${Math.random().toString(36).slice(2, 10)}`
        : undefined;
    const meta = metaFor(params, opts, progressToken);
    const base: Json = { ...params };
    delete base["_meta"];
    if (meta) base["_meta"] = meta;
    if (!protocol.features.mrtr)
      return checkResult(method, await sendNegotiated(method, base, opts, progressToken));
    delete base["inputResponses"];
    delete base["requestState"];
    const mayAskInput = own(protocol.methods, method)?.inputRequired === true;
    let retry: Json = base;
    for (let round = 0; ; round++) {
      const result = await sendNegotiated(method, retry, opts, progressToken);
      if (result["resultType"] !== "input_required") return checkResult(method, result);
      if (!mayAskInput) throw new McpProtocolError(`${method} may not answer input_required`);
      const interim = validators.validateInputRequiredResult?.(result);
      if (interim && !interim.ok)
        throw new McpProtocolError(`invalid input_required answer to ${method}`, interim.errors);
      if (opts.manual) return result;
      if (round + 1 >= maxRounds) throw new RoundLimitError(round + 1);
      const inputResponses = await fulfil(
        isObject(result["inputRequests"]) ? result["inputRequests"] : {},
        opts.signal,
      );
      // The same request again, under a new id: answers at the same keys, requestState as given.
      retry = { ...base };
      if (Object.keys(inputResponses).length > 0) retry["inputResponses"] = inputResponses;
      if (result["requestState"] !== undefined) retry["requestState"] = result["requestState"];
    }
  }

  /** Fulfils every input request concurrently; any decline ends the call without a retry. */
  async function fulfil(requests: Json, signal: AbortSignal | undefined): Promise<Json> {
    const entries = Object.entries(requests).map(([key, request]) => {
      const method =
        isObject(request) && typeof request["method"] === "string" ? request["method"] : "";
      const path = own(protocol.inputRequests, method)?.capability;
      if (path === undefined)
        throw new McpProtocolError(
          `input request "${key}" has unknown method ${JSON.stringify(method)}`,
        );
      if (path !== null && !hasCapability(capabilities, path)) {
        throw new McpProtocolError(
          `the server asked for ${method} ("${key}") but this request did not declare the ${path.join(".")} capability`,
        );
      }
      const handler = own(inputHandlers, method);
      if (!handler) throw new McpProtocolError(`no input handler for ${method} ("${key}")`);
      return { key, method, handler, params: (request as Json)["params"] };
    });
    const answers = await Promise.all(
      entries.map(async ({ key, method, handler, params }) => {
        const answer = await handler(params, { key, method, signal });
        if (answer === DECLINE) return { key, method, answer };
        const checked = validators.validateInputResult?.(method, answer);
        if (checked && !checked.ok)
          throw new McpProtocolError(
            `the ${method} input handler returned an invalid answer for "${key}"`,
            checked.errors,
          );
        return { key, method, answer };
      }),
    );
    const declined = answers.find((a) => a.answer === DECLINE);
    if (declined) throw new InputDeclinedError(declined.method, declined.key);
    return Object.fromEntries(answers.map((a) => [a.key, a.answer]));
  }

  const api: Json = {
    request: (method: string, params: unknown, callOptions?: CallOptions) =>
      call(method, params, callOptions),
    close: async () => transport.close?.(),
  };
  for (const [method, fn] of Object.entries(shape.functions))
    api[fn] = (params: unknown, callOptions?: CallOptions) => call(method, params, callOptions);
  for (const method of shape.paginated) {
    api[`${shape.functions[method]}Pages`] = async function* (
      params: unknown,
      callOptions?: CallOptions,
    ) {
      let cursor: unknown = undefined;
      do {
        const page = await call(
          method,
          { ...(isObject(params) ? params : {}), ...(cursor !== undefined ? { cursor } : {}) },
          callOptions,
        );
        yield page;
        cursor = page["nextCursor"];
      } while (cursor !== undefined);
    };
  }
  for (const [method, fn] of Object.entries(shape.notifications)) {
    api[fn] = (params?: unknown) =>
      transport.notify({ jsonrpc: "2.0", method, ...(params !== undefined ? { params } : {}) });
  }
  return api;
}

export { JSONRPC_ERRORS };
