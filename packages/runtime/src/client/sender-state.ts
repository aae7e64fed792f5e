import { isObject, type MessageValidators, type ProtocolDescriptor } from "../core/protocol.js";
import { headerPlan, toolHeaders, type HeaderPlan } from "../core/tool-headers.js";
import { McpProtocolError } from "./errors.js";
import type { RoundSender } from "./round.js";
import type { SenderSettings } from "./sender-settings.js";
import type { ToolTaskSupport } from "./task-settings.js";

// What a sender learns from servers as it goes (the version both sides speak, the tools'
// header annotations), and the context the engine's parts share: one per sender.

type Json = Record<string, unknown>;

/**
 * The protocol version sent to modern servers. It starts as the caller's (or the schema's)
 * and moves to another this client speaks when a server says it speaks others.
 */
export class NegotiatedVersion {
  current: string | undefined;
  private readonly speakable: readonly string[];

  /** `speakable`: the versions this client speaks, preferred first. */
  constructor(initial: string | undefined, speakable: readonly string[]) {
    this.current = initial;
    this.speakable = speakable;
  }

  /** A refusal named the versions the server supports: the first of ours among them, adopted (none: undefined, unchanged). */
  switchTo(supported: readonly unknown[]): string | undefined {
    const pick = this.speakable.find((v) => supported.includes(v));
    if (pick !== undefined) this.current = pick;
    return pick;
  }

  /** server/discover listed the versions the server speaks: ours stays when listed, else the first of ours listed. */
  adoptDiscovered(supported: readonly unknown[]): void {
    if (this.current !== undefined && !supported.includes(this.current)) this.switchTo(supported);
  }
}

/** What tools/list said about each tool's x-mcp-header annotations, for tools/call. */
export class ToolHeaderPlans {
  private readonly plans = new Map<string, HeaderPlan>();
  private readonly protocol: ProtocolDescriptor;

  constructor(protocol: ProtocolDescriptor) {
    this.protocol = protocol;
  }

  /** Remembers the header annotations of each tool a tools/list result lists. */
  learn(method: string, result: Json): void {
    if (
      this.protocol.features.toolHeaders &&
      method === this.protocol.wellKnown.toolsList &&
      Array.isArray(result["tools"])
    ) {
      for (const tool of result["tools"])
        if (isObject(tool) && typeof tool["name"] === "string")
          this.plans.set(tool["name"], headerPlan(tool));
    }
  }

  /** The Mcp-Param headers of a modern-wire request: tools/call's, as tools/list announced them. */
  headersFor(method: string, params: Json): Record<string, string> | undefined {
    if (!this.protocol.features.toolHeaders || method !== this.protocol.wellKnown.toolsCall)
      return undefined;
    const planned = toolHeaders(this.plans.get(params["name"] as string), params);
    if (planned && "invalid" in planned) {
      throw new McpProtocolError(
        `tool "${String(params["name"])}" has an invalid header annotation (${String(planned.invalid)}); it is not called`,
      );
    }
    return planned;
  }
}

/** What the client engine's parts share: made once per sender by createSender. */
export interface EngineContext {
  readonly protocol: ProtocolDescriptor;
  /** The newest revision's validators (an older revision's come with its era). */
  readonly validators: MessageValidators;
  readonly settings: SenderSettings;
  /** One round: a new id, the request, its response; cancellation on abort or timeout. */
  readonly round: RoundSender;
  readonly version: NegotiatedVersion;
  readonly toolHeaderPlans: ToolHeaderPlans;
  readonly toolTaskSupport: ToolTaskSupport;
}
