import { McpError } from "../core/errors.js";
import type { MessageValidators, ProtocolDescriptor } from "../core/protocol.js";
import type { LegacyEra } from "../core/era.js";
import type { SenderOptions, Transport } from "../core/transport.js";

// Which era a server speaks (2026-07-28 basic/versioning, "Backward Compatibility with
// Initialization-Based Versions"): a modern request is sent first; a valid answer or a
// recognized modern JSON-RPC error identifies a modern server, anything else (another error,
// a non-MCP HTTP answer, silence) a legacy one. The probe is server/discover on every
// transport: on stdio the spec asks for it, and on HTTP the answer to an era-ambiguous
// method (tools/list, ...) cannot tell the eras apart, since a legacy server may process it.

export type EraName = "modern" | "legacy";

/** The era of the server behind each transport: a property of the server, probed once. */
const detected = new WeakMap<Transport, Promise<EraName>>();

/** The transport's era, probing with `probe` the first time (concurrent callers share it). */
export function eraOf(transport: Transport, probe: () => Promise<EraName>): Promise<EraName> {
  let era = detected.get(transport);
  if (era === undefined) {
    era = probe();
    detected.set(transport, era);
    // A probe that could not decide (network down, aborted) is not remembered.
    era.catch(() => detected.delete(transport));
  }
  return era;
}

/** Forgets what was detected, so the next call probes again (the cached assumption failed). */
export function forgetEra(transport: Transport): void {
  detected.delete(transport);
}

/** JSON-RPC error codes only a modern server answers with. */
export function modernErrorCodes(protocol: ProtocolDescriptor): number[] {
  const { unsupportedProtocolVersion, missingClientCapability, headerMismatch } =
    protocol.errorCodes;
  return [unsupportedProtocolVersion, missingClientCapability, headerMismatch].filter(
    (code): code is number => code !== null,
  );
}

/**
 * What a failed probe says: modern for a recognized modern error, legacy for any other
 * answer from the server (an MCP error, an HTTP error without one, a timeout, an invalid
 * response). Failures that are not answers (the network, the process) are thrown.
 */
export function eraOfProbeError(protocol: ProtocolDescriptor, error: unknown): EraName {
  if (error instanceof McpError)
    return modernErrorCodes(protocol).includes(error.code) ? "modern" : "legacy";
  const name = error instanceof Error ? error.name : "";
  if (["HttpTransportError", "RequestTimeoutError", "McpProtocolError"].includes(name))
    return "legacy";
  throw error;
}

/** A modern call failed in a way that says the server is not (or no longer) modern. */
export function looksLegacy(error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  return (
    error instanceof Error &&
    error.name === "HttpTransportError" &&
    typeof status === "number" &&
    status >= 400 &&
    status < 500
  );
}

/** The era options, checked: the mode and the legacy versions offered at initialize. */
export function eraSettings(
  options: SenderOptions,
  legacyEras: readonly LegacyEra[],
): { mode: "auto" | EraName; legacyVersions: readonly string[] } {
  const mode = options.era ?? "auto";
  if (!["auto", "modern", "legacy"].includes(mode))
    throw new TypeError(`era must be "auto", "modern" or "legacy", got ${String(mode)}`);
  const known = legacyEras.flatMap((e) => e.protocol.protocolVersion ?? []);
  const legacyVersions = options.legacyVersions ?? known;
  for (const v of legacyVersions)
    if (!known.includes(v))
      throw new TypeError(`legacyVersions: ${v} is not a legacy revision this client speaks`);
  if (mode === "legacy" && legacyVersions.length === 0)
    throw new TypeError('era "legacy" needs an output generated with legacy revisions');
  return { mode, legacyVersions };
}

/**
 * Probes with server/discover (sent by `send`, which retries once with an advertised version
 * when ours is refused): a valid DiscoverResult is modern, and names the versions it speaks
 * to `adopt`; a result that is not one (a legacy server answering any method with `{}`) is
 * legacy; an error is judged by eraOfProbeError. `validators()` are those of the version the
 * answer came at (after a retry, an older stateless revision's, whose result may lack what
 * the newest requires).
 */
export async function probeEra(
  protocol: ProtocolDescriptor,
  validators: () => MessageValidators,
  send: (method: string) => Promise<Record<string, unknown>>,
  adopt: (supportedVersions: unknown[]) => void,
): Promise<EraName> {
  const discover = protocol.wellKnown.discover;
  if (discover === null) return "modern";
  try {
    const result = await send(discover);
    if (!validators().validateMethodResult(discover, result).ok) return "legacy";
    adopt(Array.isArray(result["supportedVersions"]) ? result["supportedVersions"] : []);
    return "modern";
  } catch (error) {
    return eraOfProbeError(protocol, error);
  }
}
