// @mcp-gen/runtime/client: the sending side: the client engine a generated client wraps
// (multi round-trip, era probe, legacy sessions, pages) and its errors.
export * from "./engine.js";
export * from "./errors.js";
export * from "./input.js";
export * from "./legacy-calls.js";
export * from "./legacy-client.js";
export * from "./pages.js";
export * from "./round.js";
export * from "./versions.js";
export * from "./era-probe.js";
export * from "./task-types.js";
