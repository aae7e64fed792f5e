import type { RequestContext } from "./context.js";
import { hasCapability } from "../core/errors.js";
import type { MessageValidators, ProtocolDescriptor, ValidationError } from "../core/protocol.js";

// Extensions the router serves beside the revision's own methods (2026-07-28
// basic/versioning, "Extension Negotiation"): an extension is advertised under
// `capabilities.extensions[id]`, may add requests and `resultType` values (basic/index:
// "Extensions MAY add additional ResultType values"), and a request opts in by declaring the
// extension in its own client capabilities. The router enforces the negotiation for every
// extension alike: an extension's requests need the request to declare it, and an
// extension's results go only to requests that declared it.

/**
 * Marks a result an extension built (a task handle, say) with the extension's id. A symbol
 * key, so it never reaches the wire (JSON.stringify skips symbol keys).
 */
export const EXTENSION_RESULT: unique symbol = Symbol("mcp-gen extension result");

/** `result` without the mark of the extension that built it: what is sent is plain data. */
export function unmarked(result: Record<string, unknown>): Record<string, unknown> {
  const { [EXTENSION_RESULT]: _mark, ...plain } = result as Record<string | symbol, unknown>;
  void _mark;
  return plain as Record<string, unknown>;
}

/** A result an extension answers a revision method with, in place of the method's standard result. */
export interface ExtensionResult {
  readonly resultType: string;
  readonly [EXTENSION_RESULT]: string;
}

/** What the router lends the extensions registered with it. */
export interface ExtensionHost {
  readonly protocol: ProtocolDescriptor;
  readonly validators: MessageValidators;
  /**
   * A result of `method` made ready to show as the router makes its own: `resultType`
   * filled in, checked against the method's result type. Invalid ones are reported
   * (`onError`) and come back as undefined.
   */
  checkResult(method: string, result: unknown): Record<string, unknown> | undefined;
  /** Tells the dispatcher's `onError` about a failure the client only sees as a generic error. */
  report(error: unknown, method: string): void;
}

export type ExtensionRequestHandler = (
  params: Record<string, unknown>,
  ctx: RequestContext,
) => unknown;

export interface RouterExtension {
  /** The extension identifier, e.g. `io.modelcontextprotocol/tasks`. */
  readonly id: string;
  /** Advertised as `capabilities.extensions[id]` by server/discover. */
  readonly settings: object;
  /** Requests the extension serves (methods the revision does not have). */
  readonly requests: { readonly [method: string]: ExtensionRequestHandler };
  /** For its requests acting on a named thing, the param naming it (Streamable HTTP `Mcp-Name`). */
  readonly nameParams: { readonly [method: string]: string };
  /** The revision's methods whose handlers may answer with this extension's results. */
  readonly resultMethods: readonly string[];
  /** Checks a result the extension built, before it is sent: what is wrong, or nothing. */
  validateResult(result: Record<string, unknown>): readonly ValidationError[];
  /** Called once, by the router the extension is registered with. */
  attach(host: ExtensionHost): void;
}

/** The extensions one router serves, indexed. */
export interface ExtensionTable {
  readonly byId: ReadonlyMap<string, RouterExtension>;
  /** Method -> the extension serving it and its handler. */
  readonly requests: ReadonlyMap<
    string,
    { readonly extension: RouterExtension; readonly handler: ExtensionRequestHandler }
  >;
  readonly nameParams: { readonly [method: string]: string };
  /** `capabilities` with every extension added under `extensions` (where not declared already). */
  advertise(capabilities: object): object;
  /**
   * For a result a handler of `method` returned: the extension that built it (undefined for
   * a standard result), or why it may not be sent.
   */
  ownerOf(
    method: string,
    result: object,
    clientCapabilities: unknown,
  ): RouterExtension | { problem: string } | undefined;
}

/** Indexes `list`; throws on an id given twice or a method served twice. */
export function extensionTable(
  revisionMethods: { readonly [method: string]: unknown },
  list: readonly RouterExtension[],
): ExtensionTable {
  const byId = new Map<string, RouterExtension>();
  const requests = new Map<
    string,
    { extension: RouterExtension; handler: ExtensionRequestHandler }
  >();
  const nameParams: Record<string, string> = {};
  for (const extension of list) {
    if (byId.has(extension.id)) throw new TypeError(`extension ${extension.id} given twice`);
    byId.set(extension.id, extension);
    for (const [method, handler] of Object.entries(extension.requests)) {
      if (Object.prototype.hasOwnProperty.call(revisionMethods, method) || requests.has(method))
        throw new TypeError(`extension ${extension.id} would serve ${method}, served already`);
      requests.set(method, { extension, handler });
    }
    Object.assign(nameParams, extension.nameParams);
  }
  return {
    byId,
    requests,
    nameParams,
    advertise(capabilities) {
      if (byId.size === 0) return capabilities;
      const declared = (capabilities as { extensions?: unknown }).extensions;
      const merged: Record<string, unknown> =
        typeof declared === "object" && declared !== null ? { ...declared } : {};
      for (const [id, extension] of byId) merged[id] ??= extension.settings;
      return { ...capabilities, extensions: merged };
    },
    ownerOf(method, result, clientCapabilities) {
      const owner = (result as { [EXTENSION_RESULT]?: unknown })[EXTENSION_RESULT];
      if (owner === undefined) return undefined;
      const extension = typeof owner === "string" ? byId.get(owner) : undefined;
      if (!extension || !extension.resultMethods.includes(method))
        return { problem: `${method} may not answer with a result of ${String(owner)}` };
      // An extension's result goes only to a request that declared the extension (ext-tasks
      // tasks.md, "Capability Negotiation": MUST NOT return CreateTaskResult otherwise).
      if (!hasCapability(clientCapabilities, ["extensions", extension.id]))
        return { problem: `${method} answered with ${extension.id} to a request without it` };
      return extension;
    },
  };
}
