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
// RFC 6570 expansion, for a client that reads a server's resource templates (the typed
// functions of `mcp-gen client`): the server side's parser, one implementation of both.
export {
  UriTemplate,
  type TemplateOperator,
  type TemplateValue,
  type TemplateVariableUse,
} from "../core/uri-template.js";
