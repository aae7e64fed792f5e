import { DECLINE, EraUnsupportedError, McpProtocolError } from "./errors.js";
import { MODERN_RESULT_DEFAULTS } from "./versions.js";
import {
  errorText,
  hasCapability,
  jsonRpcErrorOf,
  JSONRPC_ERRORS,
  McpError,
} from "../core/errors.js";
import { isObject, own } from "../core/protocol.js";
import { checkInputAnswer, withElicitationDefaults } from "../core/elicitation-content.js";

// Moved to core (both sides check elicitation content there); still exported from here.
export { withElicitationDefaults };
import type { Era, LegacyEra } from "../core/era.js";
import type { Transport } from "../core/transport.js";

// The client's side of a legacy (initialize-based) session, 2025-11-25 basic/lifecycle:
// initialize with the client's capabilities, notifications/initialized, then requests in the
// negotiated revision's shape. Results come back in the newest revision's shape, and the
// server's own requests (elicitation, sampling, roots, ping) are answered by the same input
// handlers that fulfil multi round-trip input requests on modern servers.

type Json = Record<string, unknown>;

const INITIALIZE = "initialize";
const INITIALIZED = "notifications/initialized";
const PING = "ping";
const SET_LEVEL = "logging/setLevel";

export interface LegacyClientOptions {
  /** The revision the typed API speaks. */
  modern: Era;
  /** Legacy revisions the output speaks, newest first. */
  eras: readonly LegacyEra[];
  /** Versions offered at initialize, preferred first. */
  versions: readonly string[];
  transport: Transport;
  capabilities: Json;
  clientInfo: object | undefined;
  /** One request round through the sender (ids, timeout, cancellation, notifications). */
  send(method: string, params: Json, signal: AbortSignal | undefined): Promise<Json>;
  /** The server's notifications that no call receives. */
  onNotification: ((notification: Record<string, unknown>) => void) | undefined;
  /**
   * Runs the input handler for `method` (DECLINE when it declines); undefined: none registered.
   * `signal` aborts when the server cancels the request or the session ends (undefined when the
   * transport passes none).
   */
  answerInput(
    method: string,
    params: unknown,
    key: string,
    signal: AbortSignal | undefined,
  ): Promise<unknown> | undefined;
}

export class LegacyClient {
  era: LegacyEra | undefined = undefined;
  /** The version initialize negotiated. */
  version = "";
  /** What the initialize result said. */
  initializeResult: Json = {};
  private logLevel: string | undefined = undefined;
  private opening: Promise<void> | undefined = undefined;
  private reopening: Promise<void> | undefined = undefined;
  private readonly options: LegacyClientOptions;

  constructor(options: LegacyClientOptions) {
    this.options = options;
  }

  /** Opens the session once; concurrent callers share the handshake, a failed one is retried. */
  open(signal?: AbortSignal): Promise<void> {
    this.opening ??= this.initialize(signal).catch(async (error: unknown) => {
      this.opening = undefined;
      // No session began: the transport goes back to speaking without one (HTTP: the modern
      // headers again, for a server a later probe finds modern).
      await this.options.transport.legacy?.end().catch(() => undefined);
      throw error;
    });
    return this.opening;
  }

  /** Whether the session is open or opening (not before the first call, nor after close()). */
  get isOpen(): boolean {
    return this.opening !== undefined;
  }

  /**
   * The server forgot the session (HTTP 404): initialize again. Those who find out at once
   * (calls in flight, the standalone stream) share one new initialize.
   */
  reopen(signal?: AbortSignal): Promise<void> {
    if (this.reopening) return this.reopening;
    this.opening = undefined;
    const reopening = this.open(signal).finally(() => {
      if (this.reopening === reopening) this.reopening = undefined;
    });
    this.reopening = reopening;
    return reopening;
  }

  /**
   * The transport found the session gone outside a call (its standalone stream got 404):
   * initialize again now, as a call would (a client that only listens would otherwise hear
   * nothing more). Not after close(); a failure is left for the next call to meet.
   */
  private lost(): void {
    const opened = this.opening;
    if (opened === undefined) return;
    void opened
      .then(() => (this.opening === opened ? this.reopen() : undefined))
      .catch(() => undefined);
  }

  private async initialize(signal: AbortSignal | undefined): Promise<void> {
    const { transport, versions, eras } = this.options;
    const support = transport.legacy;
    if (!support)
      throw new McpProtocolError("this transport cannot carry an initialize-based session");
    support.reset();
    support.onServerRequest((request, context) => this.answer(request, context?.signal));
    support.onNotification(this.options.onNotification);
    support.onSessionLost?.(() => this.lost());
    const params = {
      protocolVersion: versions[0],
      capabilities: this.options.capabilities,
      clientInfo: this.options.clientInfo ?? { name: "mcp-gen-client", version: "0.0.0" },
    };
    const result = await this.options.send(INITIALIZE, params, signal).catch((error: unknown) => {
      // A server may refuse a version it does not speak with an error naming those it does
      // (2025-11-25 basic/lifecycle, "Error Handling": -32602 with data.supported) rather than
      // answer with one of them: offer the best of those this client speaks, once.
      const fallback = versions.find((v) => v !== params.protocolVersion && offers(error, v));
      if (fallback === undefined) throw refusal(error, versions);
      const retry = { ...params, protocolVersion: fallback };
      return this.options.send(INITIALIZE, retry, signal).catch((again: unknown) => {
        throw refusal(again, versions);
      });
    });
    const version = result["protocolVersion"];
    const era = eras.find((e) => e.protocol.protocolVersion === version);
    if (!era || typeof version !== "string" || !versions.includes(version)) {
      await support.end();
      throw new McpProtocolError(
        `the server answered initialize with version ${JSON.stringify(version)}; this client speaks ${versions.join(", ")}`,
      );
    }
    const checked = era.validators.validateMethodResult(INITIALIZE, result);
    if (!checked.ok) throw new McpProtocolError("invalid initialize result", checked.errors);
    this.era = era;
    this.version = version;
    this.initializeResult = result;
    this.logLevel = undefined;
    support.begin(version);
    await transport.notify({ jsonrpc: "2.0", method: INITIALIZED });
    await support.listen();
  }

  /** Whether the negotiated revision has `method` as a client request. */
  has(method: string): boolean {
    const entry = this.era ? own(this.era.protocol.methods, method) : undefined;
    return entry?.kind === "request" && entry.directions.includes("client->server");
  }

  /** Refuses a method the legacy revision lacks, naming it and the version. */
  unsupported(method: string): EraUnsupportedError {
    return new EraUnsupportedError(method, this.version);
  }

  /** logging/setLevel, when the call asks for a level the session does not have yet. */
  async setLevel(level: string, signal: AbortSignal | undefined): Promise<void> {
    const capabilities = this.initializeResult["capabilities"];
    if (level === this.logLevel || !isObject(capabilities) || !capabilities["logging"]) return;
    await this.options.send(SET_LEVEL, { level }, signal);
    this.logLevel = level;
  }

  /** Notes a call the caller made itself: an explicit logging/setLevel sets the session's level. */
  called(method: string, params: unknown): void {
    if (method === SET_LEVEL && isObject(params) && typeof params["level"] === "string")
      this.logLevel = params["level"];
  }

  /** server/discover on a legacy server: what initialize said, in a DiscoverResult. */
  discoverResult(): Json {
    const result = this.initializeResult;
    const key = this.options.modern.protocol.serverInfoKey;
    return {
      ...MODERN_RESULT_DEFAULTS,
      supportedVersions: [this.version],
      capabilities: isObject(result["capabilities"]) ? result["capabilities"] : {},
      ...(typeof result["instructions"] === "string"
        ? { instructions: result["instructions"] }
        : {}),
      ...(key !== null && isObject(result["serverInfo"])
        ? { _meta: { [key]: result["serverInfo"] } }
        : {}),
    };
  }

  /** The response to a request the server sent on the session (none is sent once `signal` aborts). */
  private async answer(request: Json, signal: AbortSignal | undefined): Promise<Json> {
    const id = request["id"];
    const method = String(request["method"]);
    const fail = (code: number, message: string) => ({
      jsonrpc: "2.0",
      id,
      error: { code, message },
    });
    if (method === PING) return { jsonrpc: "2.0", id, result: {} };
    const era = this.era ?? this.options.eras[0];
    const gate = own(this.options.modern.protocol.inputRequests, method);
    if (!era || gate === undefined)
      return fail(JSONRPC_ERRORS.METHOD_NOT_FOUND, "Method not found");
    if (gate.capability !== null && !hasCapability(this.options.capabilities, gate.capability.path))
      return fail(
        JSONRPC_ERRORS.INVALID_REQUEST,
        `the client did not declare the ${gate.capability.path.join(".")} capability`,
      );
    const valid = era.validators.validateRequestMessage(request, "server->client");
    if (!valid.ok) return fail(JSONRPC_ERRORS.INVALID_PARAMS, `Invalid params for ${method}`);
    try {
      const pending = this.options.answerInput(method, request["params"], String(id), signal);
      if (pending === undefined)
        return fail(JSONRPC_ERRORS.METHOD_NOT_FOUND, `no input handler for ${method}`);
      const answer = await pending;
      if (answer === DECLINE) {
        // Elicitation has a decline answer; the others decline with an error.
        if (method === "elicitation/create")
          return { jsonrpc: "2.0", id, result: { action: "decline" } };
        return fail(JSONRPC_ERRORS.INVALID_REQUEST, `the client declined ${method}`);
      }
      const result = isObject(answer) ? { ...answer } : answer;
      if (isObject(result)) delete result["resultType"];
      const completed = withElicitationDefaults(method, request["params"], result);
      const validate = era.validators.validateMethodResult;
      const checked = checkInputAnswer(validate, method, request["params"], completed);
      if (!checked.ok)
        return fail(
          JSONRPC_ERRORS.INTERNAL_ERROR,
          `the client's ${method} answer is invalid: ${checked.errors
            .map((e) => `${e.path} ${e.message}`)
            .join("; ")}`,
        );
      return { jsonrpc: "2.0", id, result: completed as Json };
    } catch (error) {
      const raised = jsonRpcErrorOf(error);
      return raised
        ? fail(raised.code, raised.message)
        : fail(JSONRPC_ERRORS.INTERNAL_ERROR, errorText(error, "Internal error"));
    }
  }

  /** Ends the session (HTTP: DELETE). */
  async close(): Promise<void> {
    if (this.opening === undefined) return;
    this.opening = undefined;
    await this.options.transport.legacy?.end();
  }
}

/** Whether a refused initialize names `version` among those the server supports. */
function offers(error: unknown, version: string): boolean {
  const data = error instanceof McpError ? error.data : undefined;
  const supported = isObject(data) ? data["supported"] : undefined;
  return Array.isArray(supported) && supported.includes(version);
}

/**
 * A JSON-RPC error answering initialize, said to be one: the caller of `listTools()` that opened
 * the session would otherwise see a bare "Method not found" (its code and data are kept).
 * Other failures (transport, timeout) already say what they are.
 */
function refusal(error: unknown, versions: readonly string[]): unknown {
  if (!(error instanceof McpError)) return error;
  const data = isObject(error.data) ? error.data : undefined;
  const supported = Array.isArray(data?.["supported"]) ? data["supported"].map(String) : [];
  const speaks = supported.length
    ? ` (it speaks ${supported.join(", ")}; this client speaks ${versions.join(", ")})`
    : "";
  return new McpError(
    error.code,
    `the server refused initialize: ${error.message}${speaks}`,
    error.data,
  );
}
