// @mcp-gen/runtime/core: what both sides share: a revision's facts as data (protocol.ts),
// JSON-RPC errors, the helpers generated validators are built on, and option checks.
export * from "./protocol.js";
export * from "./errors.js";
export * from "./era.js";
export * from "./options.js";
export * from "./validation.js";
export * from "./tool-headers.js";
export * from "./elicitation-content.js";
export * from "./cancellation.js";
export type * from "./tracing.js";
export { describeDeprecation } from "./deprecation.js";
