import { warnDeprecatedAll } from "../core/deprecation.js";
import { withCapabilities } from "../core/errors.js";
import { own, type ProtocolDescriptor } from "../core/protocol.js";
import { positiveInteger, timeoutOption } from "../core/options.js";
import { eraSettings, type EraName } from "./era-probe.js";
import { olderRevisions } from "./versions.js";
import { metaCapabilities, taskBounds, type TaskBounds } from "./task-settings.js";
import type { InputHandlers } from "./input.js";
import type { LegacyClientOptions } from "./legacy-client.js";
import type { AdaptedEra, Era, LegacyEra } from "../core/era.js";
import type { SenderOptions, Transport } from "../core/transport.js";

// The client engine's options, checked once when a sender is made (an option that would
// disable a bound fails there, not on the first call), with what follows from them: the
// versions offered, the capabilities declared and the era settings.

type Json = Record<string, unknown>;

/** The revisions a client speaks: the newest (its typed API) and older ones, newest first. */
export interface ClientEras {
  readonly modern: Era;
  readonly previous?: readonly AdaptedEra[];
  readonly legacy: readonly LegacyEra[];
}

/** A sender's options, checked and with their defaults. */
export interface SenderSettings {
  readonly transport: Transport;
  readonly validateResults: boolean;
  readonly maxRounds: number;
  readonly maxPages: number;
  readonly defaultTimeout: number;
  readonly maxTimeout: number;
  readonly probeTimeoutMs: number;
  readonly clientInfo: object | undefined;
  readonly onNotification: LegacyClientOptions["onNotification"];
  readonly inputHandlers: InputHandlers;
  /** What the caller declares, plus what each registered input handler implies. */
  readonly capabilities: Json;
  /** The capabilities in a modern request's `_meta`: with tasks, the Tasks extension too. */
  readonly metaCapabilities: Json;
  /** Task polling bounds (undefined: `tasks: false`). */
  readonly tasks: TaskBounds | undefined;
  /** The version sent first (undefined: the revision has none). */
  readonly initialVersion: string | undefined;
  /** The versions this client speaks, preferred first: a server's refusal picks from these. */
  readonly versions: readonly string[];
  /** The older stateless revisions the client speaks. */
  readonly older: ReturnType<typeof olderRevisions>;
  /** The revision of the typed API (only with legacy eras: a legacy session adapts to it). */
  readonly modernEra: Era | undefined;
  readonly legacyEras: readonly LegacyEra[];
  readonly mode: "auto" | EraName;
  /** The legacy versions offered at initialize; none: legacy servers are not spoken to. */
  readonly legacyVersions: readonly string[];
}

/** `options` checked (a TypeError for a bad one) and completed. */
export function senderSettings(
  protocol: ProtocolDescriptor,
  options: SenderOptions,
  eras: ClientEras | undefined,
): SenderSettings {
  const maxRounds = positiveInteger(options.maxRounds, "maxRounds", 10);
  const maxPages = positiveInteger(options.maxPages, "maxPages", 1_000);
  const defaultTimeout = timeoutOption(options.requestTimeoutMs, "requestTimeoutMs", 60_000);
  const maxTimeout = timeoutOption(options.maxRequestTimeoutMs, "maxRequestTimeoutMs", 600_000);
  const initialVersion =
    options.protocolVersion ??
    options.supportedVersions?.[0] ??
    protocol.protocolVersion ??
    undefined;
  const older = olderRevisions(eras?.previous ?? []);
  const offered = initialVersion === undefined ? [] : [initialVersion, ...older.versions];
  const versions = options.supportedVersions ?? offered.filter((v, i) => offered.indexOf(v) === i);
  const inputHandlers = (options.inputHandlers ?? {}) as InputHandlers;
  warnDeprecatedAll(
    protocol,
    Object.keys(inputHandlers).filter((method) => own(inputHandlers, method) !== undefined),
    "a client input handler",
  );
  // Capabilities: what the caller declares, plus what each registered input handler implies.
  const implied = Object.entries(inputHandlers).flatMap(([method, handler]) => {
    const capability = own(protocol.inputRequests, method)?.capability;
    return handler && capability ? [capability] : [];
  });
  const capabilities = withCapabilities((options.capabilities ?? {}) as Json, implied);
  const legacyEras = eras?.legacy ?? [];
  const { mode, legacyVersions } = eraSettings(options, legacyEras);
  const probeTimeoutMs = timeoutOption(options.probeTimeoutMs, "probeTimeoutMs", 10_000);
  const tasks = taskBounds(options.tasks);
  return {
    transport: options.transport,
    validateResults: options.validateResults ?? true,
    maxRounds,
    maxPages,
    defaultTimeout,
    maxTimeout,
    probeTimeoutMs,
    clientInfo: options.clientInfo,
    onNotification: options.onNotification as LegacyClientOptions["onNotification"],
    inputHandlers,
    capabilities,
    metaCapabilities: metaCapabilities(protocol, capabilities, tasks),
    tasks,
    initialVersion,
    versions,
    older,
    modernEra: eras?.modern,
    legacyEras,
    mode,
    legacyVersions,
  };
}
