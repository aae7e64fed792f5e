// The runtime's one way to warn: Node's warning channel (process.emitWarning), so users can
// silence, trace or redirect warnings (--no-warnings, --no-deprecation, process.on("warning"))
// as they do Node's own; elsewhere (Workers, Deno without process, browsers) console.warn,
// prefixed with the type as Node prints it.

/** Emits `message` as a warning of `type` with `code` (an MCP_* name). */
export function emitWarning(message: string, type: string, code: string): void {
  const node = (globalThis as { process?: { emitWarning?: (m: string, o: object) => void } })
    .process;
  if (typeof node?.emitWarning === "function") node.emitWarning(message, { type, code });
  else console.warn(`${type}: ${message}`);
}
