import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { json } from "./auth-common.js";

// Hostile peers of the OAuth client (issue 27): an MCP server and authorization server on
// 127.0.0.1 whose every route a test can replace, recording what the client sent. The
// default routes are an honest MCP server with its own authorization server, so a test
// changes only the part that misbehaves.

export interface Seen {
  method: string;
  url: URL;
  authorization: string | undefined;
  body: string;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => unknown;

export interface Peer {
  base: string;
  /** The MCP endpoint: base + "/mcp". */
  url: string;
  seen: Seen[];
  /** Replaces (or adds) the route for "METHOD /path". */
  route(key: string, handler: Handler): void;
  close(): Promise<void>;
}

export const challenge = (res: ServerResponse, status: number, params: Record<string, string>) =>
  json(
    res,
    status,
    { error: params["error"] ?? "invalid_token" },
    {
      "www-authenticate": `Bearer ${Object.entries(params)
        .map(([k, v]) => `${k}="${v}"`)
        .join(", ")}`,
    },
  );

/** The paths of the Protected Resource Metadata and authorization server metadata. */
export const PRM_PATH = "/.well-known/oauth-protected-resource/mcp";
export const AS_PATH = "/.well-known/oauth-authorization-server";

export function asMetadata(issuer: string, extra: Record<string, unknown> = {}) {
  return {
    issuer,
    authorization_endpoint: `${issuer}/authorize`,
    token_endpoint: `${issuer}/token`,
    registration_endpoint: `${issuer}/register`,
    response_types_supported: ["code"],
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: ["none"],
    ...extra,
  };
}

/** A peer on 127.0.0.1: an MCP server with its own authorization server, all routes replaceable. */
export async function startPeer(): Promise<Peer> {
  const routes = new Map<string, Handler>();
  const seen: Seen[] = [];
  let tokens = 0;
  // Large headers are let in, so an oversized token the client sends is seen, not cut off.
  const server = createServer({ maxHeaderSize: 1 << 20 }, (req, res) => {
    void (async () => {
      let body = "";
      for await (const chunk of req) body += chunk;
      const url = new URL(req.url!, peer.base);
      seen.push({ method: req.method!, url, authorization: req.headers.authorization, body });
      const handler = routes.get(`${req.method} ${url.pathname}`);
      if (handler) await handler(req, res, body);
      else json(res, 404, { error: "not_found" });
    })().catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const peer: Peer = {
    base,
    url: `${base}/mcp`,
    seen,
    route: (key, handler) => void routes.set(key, handler),
    close: () =>
      new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
  peer.route("POST /mcp", (req, res, body) => {
    if (req.headers.authorization === undefined)
      return challenge(res, 401, { resource_metadata: `${base}${PRM_PATH}` });
    const { id } = JSON.parse(body) as { id: number };
    json(res, 200, { jsonrpc: "2.0", id, result: {} });
  });
  peer.route(`GET ${PRM_PATH}`, (_req, res) =>
    json(res, 200, { resource: peer.url, authorization_servers: [base] }),
  );
  peer.route(`GET ${AS_PATH}`, (_req, res) => json(res, 200, asMetadata(base)));
  peer.route("POST /register", (_req, res, body) =>
    json(res, 201, { ...(JSON.parse(body) as object), client_id: "registered" }),
  );
  peer.route("GET /authorize", (req, res) => {
    const query = new URL(req.url!, base).searchParams;
    const back = new URL(query.get("redirect_uri")!);
    back.searchParams.set("code", "code");
    back.searchParams.set("state", query.get("state")!);
    res.writeHead(302, { location: back.href }).end();
  });
  peer.route("POST /token", (_req, res, body) => {
    const scope = new URLSearchParams(body).get("scope");
    json(res, 200, {
      access_token: `tok-${++tokens}`,
      token_type: "Bearer",
      expires_in: 3600,
      ...(scope !== null ? { scope } : {}),
    });
  });
  return peer;
}

/**
 * Writes a JSON object of about `bytes` bytes (a padding member), chunk by chunk as the client
 * takes them, with or without a Content-Length; resolves to whether all of it was sent before
 * the client closed the connection.
 */
export async function hugeJson(
  res: ServerResponse,
  fields: Record<string, unknown>,
  bytes: number,
  status = 200,
  declareLength = false,
): Promise<boolean> {
  const head = `${JSON.stringify(fields).slice(0, -1)},"padding":"`;
  const tail = `"}`;
  const chunk = "x".repeat(64 * 1024);
  const pad = Math.ceil((bytes - head.length - tail.length) / chunk.length) * chunk.length;
  const length = head.length + pad + tail.length;
  res.writeHead(status, {
    "content-type": "application/json",
    ...(declareLength ? { "content-length": String(length) } : {}),
  });
  res.write(head);
  for (let sent = 0; sent < pad; sent += chunk.length) {
    if (res.destroyed) return false;
    if (!res.write(chunk))
      await new Promise((resolve) => (res.once("drain", resolve), res.once("close", resolve)));
  }
  if (res.destroyed) return false;
  res.end(tail);
  return new Promise((resolve) => {
    res.once("finish", () => resolve(true));
    res.once("close", () => resolve(res.writableFinished));
  });
}
