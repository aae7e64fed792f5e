import { GeneratedFile } from "../../print/generated-file.js";
import { comment, type Scaffold } from "./view.js";

/** src/dev-auth.ts (`--auth`): a stand-in authorization server for trying the server locally. */
export const devAuthScaffold: Scaffold = {
  path: "src/dev-auth.ts",
  authOnly: true,
  print: () => {
    const w = new GeneratedFile("src/dev-auth.ts");
    w.import("node:http", "createServer");
    w.import("jose", "exportJWK");
    w.import("jose", "generateKeyPair");
    w.import("jose", "SignJWT");
    comment(w, [
      "`npm run dev:auth`: a stand-in authorization server for trying this server on your machine,",
      "never for deployment. It publishes RFC 8414 metadata and a JWKS at http://127.0.0.1:9000",
      "(DEV_AUTH_PORT to change) and prints access tokens signed by a key made at start, for",
      "MCP_RESOURCE_URL (default http://127.0.0.1:3000/mcp), valid one hour:",
      "",
      "  npm run dev:auth                                 # prints OAUTH_ISSUER and two tokens",
      "  OAUTH_ISSUER=http://127.0.0.1:9000 npm start     # in another terminal",
      '  curl -H "Authorization: Bearer <token>" ...      # or the Inspector\'s --header',
      "",
      "It has no authorization endpoint: clients get tokens from its output, not by logging in.",
    ]);
    w.importsHere();
    w.line();
    w.line('const port = Number(process.env["DEV_AUTH_PORT"] ?? 9000);');
    w.line('const resource = process.env["MCP_RESOURCE_URL"] || "http://127.0.0.1:3000/mcp";');
    w.line('const { publicKey, privateKey } = await generateKeyPair("ES256");');
    w.line(
      'const jwk = { ...(await exportJWK(publicKey)), kid: "dev", alg: "ES256", use: "sig" };',
    );
    w.line();
    w.line("const server = createServer((request, response) => {");
    w.indented(() => {
      w.line('const path = new URL(request.url ?? "/", "http://localhost").pathname;');
      w.line("const body =");
      w.indented(() => {
        w.line('path === "/.well-known/oauth-authorization-server" ||');
        w.line('path === "/.well-known/openid-configuration"');
        w.indented(() => {
          w.line("? {");
          w.indented(() => {
            w.indented(() => {
              w.line("issuer,");
              w.line("jwks_uri: `${issuer}/jwks`,");
              w.line('response_types_supported: ["code"],');
              w.line('code_challenge_methods_supported: ["S256"],');
            });
            w.line("}");
          });
          w.line(': path === "/jwks"');
          w.indented(() => {
            w.line("? { keys: [jwk] }");
            w.line(": undefined;");
          });
        });
      });
      w.line('response.writeHead(body ? 200 : 404, { "content-type": "application/json" });');
      w.line('response.end(JSON.stringify(body ?? { error: "not_found" }));');
    });
    w.line("});");
    w.line('await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));');
    w.line("const address = server.address();");
    w.line(
      "// Listening on TCP (not a pipe), so the address is an object with the port bound (DEV_AUTH_PORT=0 picks one).",
    );
    w.line('if (address === null || typeof address === "string")');
    w.indented(() => {
      w.line('throw new Error("the dev authorization server is not listening on a port");');
    });
    w.line("const issuer = `http://127.0.0.1:${address.port}`;");
    w.line();
    w.line("async function token(scope: string): Promise<string> {");
    w.indented(() => {
      w.line('return new SignJWT({ scope, client_id: "dev-client" })');
      w.indented(() => {
        w.line('.setProtectedHeader({ alg: "ES256", kid: "dev", typ: "at+jwt" })');
        w.line(".setIssuer(issuer)");
        w.line('.setSubject("developer")');
        w.line(".setAudience(resource)");
        w.line(".setIssuedAt()");
        w.line('.setExpirationTime("1h")');
        w.line(".sign(privateKey);");
      });
    });
    w.line("}");
    w.line();
    w.line("console.log(`OAUTH_ISSUER=${issuer}`);");
    w.line('console.log(`token (mcp:tools):             ${await token("mcp:tools")}`);');
    w.line(
      'console.log(`token (mcp:tools mcp:profile): ${await token("mcp:tools mcp:profile")}`);',
    );
    w.line("console.log(`for ${resource}; Ctrl-C to stop`);");
    return w.emit("", { kind: "scaffold" });
  },
};
