import { GeneratedFile } from "../../print/generated-file.js";
import { runtimeImports } from "../../emit/runtime.js";
import { RT } from "../../emit/runtime-symbols.js";
import { comment, writeOrExit, type Scaffold } from "./view.js";

/** src/auth.ts (`--auth`): the resource server's options, from the environment. */
export const authScaffold: Scaffold = {
  path: "src/auth.ts",
  authOnly: true,
  print: () => {
    const w = new GeneratedFile("src/auth.ts", runtimeImports("package"));
    w.import("./mcp/http-server.js", "ServeHttpOptions", true);
    const jwtVerifier = w.use(RT["auth/verify"].createJwtVerifier);
    const dpopVerifier = w.use(RT["auth/verify"].createDPoPProofVerifier);
    comment(w, [
      "OAuth for the HTTP entry point: this server is an OAuth resource server (MCP 2026-07-28",
      "basic/authorization). Clients get access tokens from your authorization server (Keycloak,",
      "Auth0, ...) and send them as `Authorization: Bearer`; the server checks them with the",
      "runtime's JWT verifier (jose: signature against the JWKS, issuer, expiry, audience = this",
      "server's resource URL), serves its protected resource metadata, and answers 401 / 403",
      "challenges that tell clients where to get a token and which scopes they need.",
      "",
      "Configured from the environment (see README.md):",
      "  OAUTH_ISSUER      the authorization server's issuer URL (required)",
      "  OAUTH_JWKS_URL    its JWKS URL (default: `jwks_uri` from its metadata)",
      "  OAUTH_TOKEN_TYPES the access tokens' `typ` headers accepted, space-separated (default",
      '                    "at+jwt", RFC 9068; "at+jwt JWT" for authorization servers that type',
      "                    them plain JWT, such as Keycloak)",
      "  MCP_RESOURCE_URL  this server's public URL, which tokens must name as audience",
      "                    (default http://127.0.0.1:PORT/mcp)",
      '  MCP_SCOPES        space-separated scopes every request needs (default "mcp:tools")',
      "  HOST              the interface to listen on (default 127.0.0.1)",
      '  MCP_DPOP          DPoP-bound tokens (RFC 9449): "accept" (default; bearer tokens too),',
      '                    "require" (bearer tokens refused) or "off"',
    ]);
    w.importsHere();
    w.line();
    w.line(
      "/** Tools that need more than MCP_SCOPES: a client without the scope gets 403 insufficient_scope and steps up. */",
    );
    w.line('export const TOOL_SCOPES: Record<string, string[]> = { whoami: ["mcp:profile"] };');
    w.line();
    w.line("function env(name: string, fallback?: string): string {");
    w.indented(() => {
      w.line("const value = process.env[name] || fallback;");
      w.line("if (value === undefined) throw new Error(`${name} is not set (see src/auth.ts)`);");
      w.line("return value;");
    });
    w.line("}");
    w.line();
    w.line(
      "/** The authorization server's `jwks_uri`, from its metadata (RFC 8414, then OpenID Connect discovery). */",
    );
    w.line("async function discoverJwks(issuer: string): Promise<string> {");
    w.indented(() => {
      w.line("const { origin, pathname } = new URL(issuer);");
      w.line('const path = pathname === "/" ? "" : pathname;');
      w.line("const candidates = [");
      w.indented(() => {
        w.line("`${origin}/.well-known/oauth-authorization-server${path}`,");
        w.line("`${origin}/.well-known/openid-configuration${path}`,");
        w.line("`${origin}${path}/.well-known/openid-configuration`,");
      });
      w.line("];");
      w.line("for (const url of candidates) {");
      w.indented(() => {
        w.line("const response = await fetch(url).catch(() => undefined);");
        w.line("if (!response?.ok) continue;");
        w.line("const metadata: { issuer?: unknown; jwks_uri?: unknown } = await response.json();");
        w.line('if (metadata.issuer === issuer && typeof metadata.jwks_uri === "string")');
        w.indented(() => {
          w.line("return metadata.jwks_uri;");
        });
      });
      w.line("}");
      w.line("throw new Error(");
      w.indented(() => {
        w.line(
          "`no metadata with a jwks_uri found for issuer ${issuer} (unreachable, or not an authorization server?); set OAUTH_JWKS_URL`,",
        );
      });
      w.line(");");
    });
    w.line("}");
    w.line();
    writeProtectedServing(w, jwtVerifier, dpopVerifier);
    w.line();
    w.line(
      "/** protectedServing, or one line on stderr and exit 1 (a variable unset, the issuer unreachable). */",
    );
    writeOrExit(
      w,
      "export async function protectedServingOrExit(port: number): Promise<ServeHttpOptions> {",
      "await protectedServing(port)",
    );
    return w.emit("", { kind: "scaffold" });
  },
};

/** protectedServing: the resource server's options (verifiers named as the file imports them). */
function writeProtectedServing(w: GeneratedFile, jwtVerifier: string, dpopVerifier: string): void {
  w.line("/** The serveHttp options of a protected server listening on `port`. */");
  w.line("export async function protectedServing(port: number): Promise<ServeHttpOptions> {");
  w.indented(() => {
    w.line('const issuer = env("OAUTH_ISSUER");');
    w.line('const resource = env("MCP_RESOURCE_URL", `http://127.0.0.1:${port}/mcp`);');
    w.line('const scopes = env("MCP_SCOPES", "mcp:tools").split(" ").filter(Boolean);');
    w.line('const dpop = env("MCP_DPOP", "accept");');
    w.line('if (!["accept", "require", "off"].includes(dpop))');
    w.indented(() => {
      w.line(
        "throw new Error(`MCP_DPOP must be accept, require or off, not ${JSON.stringify(dpop)}`);",
      );
    });
    w.line('const typ = env("OAUTH_TOKEN_TYPES", "at+jwt").split(" ").filter(Boolean);');
    w.line('if (typ.length === 0) throw new Error("OAUTH_TOKEN_TYPES names no token type");');
    w.line('const jwksUrl = process.env["OAUTH_JWKS_URL"] || (await discoverJwks(issuer));');
    w.line("return {");
    w.indented(() => {
      w.line('host: env("HOST", "127.0.0.1"),');
      w.line("// Requests name the public host (behind a proxy that keeps the Host header).");
      w.line("allowedHosts: [new URL(resource).hostname],");
      w.line("auth: {");
      w.indented(() => {
        w.line("resource,");
        w.line("authorizationServers: [issuer],");
        w.line("requiredScopes: scopes,");
        w.line("toolScopes: TOOL_SCOPES,");
        w.line(`verifyToken: ${jwtVerifier}({ jwksUrl, issuer, resource, typ }),`);
        w.line('...(dpop === "off"');
        w.indented(() => {
          w.line("? {}");
          w.line(`: { dpop: { verifyProof: ${dpopVerifier}(), required: dpop === "require" } }),`);
        });
      });
      w.line("},");
    });
    w.line("};");
  });
  w.line("}");
}
