import { createServer } from "node:http";
import { createJwtVerifier } from "../../../runtime/src/auth/jwt.js";
import { createHttpHandler } from "../../../runtime/src/transport/http/server/server.js";
import type { ProtocolDescriptor } from "../../../runtime/src/core/protocol.js";
import type { ResourceServerOptions } from "../../../runtime/src/auth/resource-server.js";
import type { TestAuthorizationServer } from "./oauth-server.js";

/**
 * The HTTP server as a protected resource of the test authorization server, with the jose
 * JWT verifier against its JWKS. The resource identifier names the port, so it listens first
 * and serves after. `auth` adds options (scopes, metadata) beside resource, issuer and verifier.
 */
export async function serveProtected(
  protocol: ProtocolDescriptor,
  dispatcher: Parameters<typeof createHttpHandler>[1],
  as: TestAuthorizationServer,
  auth: Omit<ResourceServerOptions, "resource" | "authorizationServers" | "verifyToken">,
): Promise<{ url: string; close(): Promise<void> }> {
  const http = createServer((req, res) => void handler(req, res));
  await new Promise<void>((r) => http.listen(0, "127.0.0.1", r));
  const resource = `http://127.0.0.1:${(http.address() as { port: number }).port}/mcp`;
  const handler = createHttpHandler(protocol, dispatcher, {
    auth: {
      resource,
      authorizationServers: [as.issuer],
      verifyToken: createJwtVerifier({ jwksUrl: as.jwksUri, issuer: as.issuer, resource }),
      ...auth,
    },
  });
  return {
    url: resource,
    close: () => new Promise((r) => (http.closeAllConnections(), http.close(() => r()))),
  };
}
