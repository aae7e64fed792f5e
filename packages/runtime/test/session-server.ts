import type { IncomingMessage } from "node:http";
import {
  serveHttp,
  type MessageHandler,
  type ServeHttpOptions,
} from "../src/transport/http/server/server.js";
import { PROTOCOL } from "./fixture.js";

// The HTTP server the session tests start (http-sessions.test.ts, session-limits.test.ts):
// the fixture's protocol on loopback, its sessions owned by a principal the test names.

/** The principal: whoever the Authorization header names (none: anonymous), a stand-in for token checks. */
export const principalFromHeader = (req: IncomingMessage) => req.headers.authorization;

/** Serves `dispatcher` (an era dispatcher, for sessions) with `options`, the principal from the header. */
export function serveSessions(dispatcher: MessageHandler, options: ServeHttpOptions = {}) {
  return serveHttp(PROTOCOL, dispatcher, { authenticate: principalFromHeader, ...options });
}
