// @mcp-gen/runtime/server: the receiving side: the JSON-RPC router a generated dispatcher
// wraps, request contexts, multi round-trip helpers, sealed request state, the tables of tools,
// resources and prompts (and defineServer, which assembles them), and the
// era dispatcher that serves legacy (initialize-based) sessions beside modern requests.
export * from "./router.js";
export * from "./router-types.js";
export * from "./context.js";
export {
  forTools,
  type Middleware,
  type Outcome,
  type RequestCall,
  type ToolCall,
  type ToolMiddleware,
} from "./middleware.js";
export {
  InsufficientScopeError,
  requireScopes,
  type RequireScopesOptions,
} from "./require-scopes.js";
export type { CancellationWatch } from "../core/cancellation.js";
export type { BackChannelUse, HandlerBackChannel } from "./back-channel-uses.js";
export * from "./extensions.js";
export * from "./input-required.js";
export * from "./request-state.js";
export { withInput, type Ask, type StraightLineOptions } from "./straight-line.js";
export * from "./result-rules.js";
export * from "./tools.js";
export * from "./typed-tools.js";
export type {
  StandardIssue,
  StandardInput,
  StandardJSONSchemaOptions,
  StandardJSONSchemaV1,
  StandardOutput,
  StandardResult,
  StandardSchemaV1,
  StandardToolSchema,
  StandardTypes,
} from "./standard-schema.js";
export * from "./json-schema-types.js";

export * from "../core/uri-template.js";
export * from "./completions.js";
export * from "./resources.js";
export * from "./prompts.js";
export * from "./define-server.js";
export * from "./era-dispatcher.js";
export * from "./message-bus.js";
export * from "./modern-router.js";
export * from "./legacy-session.js";
