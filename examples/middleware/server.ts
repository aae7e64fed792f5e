// A server whose tools are wrapped by middleware: an audit line per tool call (who, which
// tool, how it ended, how long it took) and a scope the `deploy` tool needs beyond the one
// every request needs, checked against the caller's access token. Both eras: 2026-07-28
// clients and 2025-11-25 sessions go through the same hooks.
import type { IncomingMessage, ServerResponse } from "node:http";
import { Ajv2020 } from "ajv/dist/2020.js";
import { createJwtVerifier } from "@mcp-gen/runtime/auth/verify";
import { forTools, requireScopes, type Middleware } from "@mcp-gen/runtime/server";
import { createHttpHandler } from "./mcp/http-server.js";
import {
  createServerDispatcher,
  defineTool,
  defineTools,
  type Dispatcher,
  type SchemaValidator,
} from "./mcp/dispatcher.js";

const ajv = new Ajv2020({ strict: false });
const validate: SchemaValidator = (schema, value) => {
  const check = ajv.compile(schema);
  if (check(value)) return undefined;
  return (check.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? "is invalid"}`);
};

const tools = defineTools(
  [
    defineTool({
      tool: { name: "status", inputSchema: { type: "object" } },
      call: () => ({ content: [{ type: "text", text: "all green" }] }),
    }),
    defineTool({
      tool: {
        name: "deploy",
        inputSchema: {
          type: "object",
          properties: { service: { type: "string" } },
          required: ["service"],
        },
      },
      call: ({ service }) => ({ content: [{ type: "text", text: `deployed ${service}` }] }),
    }),
  ],
  { validate, list: { ttlMs: 0, cacheScope: "private" } },
);

// #region audit
/** One line per tool call, after it ended: refused calls too, when this layer is outermost. */
function auditLog(write: (line: string) => void): Middleware {
  return forTools({
    name: "audit",
    after(call, outcome) {
      const who = call.authInfo?.subject ?? "anonymous";
      const how = outcome.ok ? "ok" : `refused (${String(outcome.error)})`;
      write(`${who} called ${call.tool.name}: ${how} in ${Math.round(outcome.durationMs)} ms`);
    },
  });
}
// #endregion audit

// #region dispatcher
/** The dispatcher; `write` takes the audit lines. */
export function createDispatcher(write: (line: string) => void): Dispatcher {
  return createServerDispatcher(tools, {
    serverInfo: { name: "middleware-example", version: "1.0.0" },
    // First outermost: the audit log sees what requireScopes refuses.
    middleware: [auditLog(write), requireScopes({ deploy: ["mcp:deploy"] })],
  });
}
// #endregion dispatcher

// #region http
/** Where the server checks tokens: its own URL (the resource) and its authorization server. */
export interface TokenSettings {
  resource: string;
  issuer: string;
  jwksUrl: string;
}

/**
 * The Streamable HTTP handler, as an OAuth resource server: every request needs `mcp:tools`;
 * a `deploy` call without `mcp:deploy` gets 403 insufficient_scope naming both.
 */
export function protectedHandler(
  dispatcher: Dispatcher,
  { resource, issuer, jwksUrl }: TokenSettings,
): (request: IncomingMessage, response: ServerResponse) => Promise<void> {
  return createHttpHandler(dispatcher, {
    auth: {
      resource,
      authorizationServers: [issuer],
      verifyToken: createJwtVerifier({ jwksUrl, issuer, resource }),
      requiredScopes: ["mcp:tools"],
    },
  });
}
// #endregion http
