import { afterEach, describe, expect, it } from "vitest";
import { isPrivateHost } from "../src/auth/addresses.js";
import {
  AS_PATH,
  PRM_PATH,
  asMetadata,
  challenge,
  startPeer,
  type Peer,
} from "./auth-hostile-fixture.js";
import { clientOf, failure, json } from "./auth-common.js";

// Issue 27, findings 2 and 3: what a hostile MCP server can make the OAuth client send, and
// to whom: a pre-registered secret to the authorization server it names, and discovery
// requests to other origins and to private addresses.

const peers: Peer[] = [];
afterEach(async () => {
  await Promise.all(peers.splice(0).map((p) => p.close()));
});
async function peer(): Promise<Peer> {
  const started = await startPeer();
  peers.push(started);
  return started;
}

const SECRET = "pre-registered-s3cret";

describe("pre-registered credentials (finding 2)", () => {
  it("refuses a secret without its issuer, and never sends it to the server an MCP server names", async () => {
    const hostile = await peer();
    // The hostile MCP server names its own authorization server, which takes Basic credentials.
    hostile.route(`GET ${AS_PATH}`, (_req, res) =>
      json(
        res,
        200,
        asMetadata(hostile.base, {
          token_endpoint_auth_methods_supported: ["client_secret_basic"],
        }),
      ),
    );
    hostile.route("POST /register", (_req, res) =>
      json(res, 201, { client_id: "hostile-issued", client_secret: "hostile-secret" }),
    );
    const credentials = { clientId: "app", clientSecret: SECRET };
    expect(() =>
      clientOf(hostile.url, { grant: "client_credentials", preRegistered: credentials }),
    ).toThrow(/preRegistered: a clientSecret needs the issuer/);
    expect(hostile.seen).toEqual([]);

    // Bound to the real issuer, the credentials stay away from the hostile one, which gets a
    // registration of its own instead.
    const bound = { ...credentials, issuer: "https://as.example" };
    const { call } = clientOf(hostile.url, { grant: "client_credentials", preRegistered: bound });
    await call();
    const basic = `Basic ${btoa(`app:${SECRET}`)}`;
    expect(hostile.seen.some((s) => s.authorization === basic || s.body.includes(SECRET))).toBe(
      false,
    );
    const token = hostile.seen.find((s) => s.url.pathname === "/token");
    expect(token?.authorization).toBe(`Basic ${btoa("hostile-issued:hostile-secret")}`);
  });

  it("refuses an issuer that is not a URL, and lets a public client or a key go unbound", async () => {
    const hostile = await peer();
    expect(() =>
      clientOf(hostile.url, { preRegistered: { clientId: "a", clientSecret: "s", issuer: "as" } }),
    ).toThrow(/issuer must be a URL/);
    // No secret to lose: a client_id alone (public client) binds to the first issuer used.
    const { call } = clientOf(hostile.url, { preRegistered: { clientId: "public-app" } });
    await call();
    const authorize = hostile.seen.find((s) => s.url.pathname === "/authorize");
    expect(authorize?.url.searchParams.get("client_id")).toBe("public-app");
  });
});

describe("the challenge's resource_metadata URL (finding 3)", () => {
  it("is fetched only on the MCP server's origin: another origin gets no request", async () => {
    const [server, target] = [await peer(), await peer()];
    const elsewhere = `${target.base}/internal/admin?action=delete`;
    server.route("POST /mcp", (_req, res) => challenge(res, 401, { resource_metadata: elsewhere }));
    const { call } = clientOf(server.url);
    expect((await failure(call())).message).toMatch(
      /resource_metadata URL is not on the MCP server's origin/,
    );
    expect(target.seen).toEqual([]);
    expect(server.seen.map((s) => s.url.pathname)).toEqual(["/mcp"]);
  });

  it("may name any path on the server's own origin", async () => {
    const server = await peer();
    const custom = "/custom/metadata.json";
    server.route("POST /mcp", (req, res, body) =>
      req.headers.authorization === undefined
        ? challenge(res, 401, { resource_metadata: `${server.base}${custom}` })
        : json(res, 200, {
            jsonrpc: "2.0",
            id: (JSON.parse(body) as { id: number }).id,
            result: {},
          }),
    );
    server.route(`GET ${custom}`, (_req, res) =>
      json(res, 200, { resource: server.url, authorization_servers: [server.base] }),
    );
    await clientOf(server.url).call();
    expect(server.seen.map((s) => s.url.pathname)).toContain(custom);
    expect(server.seen.map((s) => s.url.pathname)).not.toContain(PRM_PATH);
  });
});

describe("private and loopback addresses (finding 3)", () => {
  it("are recognized in the forms a URL's host takes", () => {
    const host = (url: string) => isPrivateHost(new URL(url).hostname);
    const private_ = [
      "http://127.0.0.1",
      "http://2130706433", // 127.0.0.1 as one number
      "http://0x7f.1",
      "http://10.255.0.1",
      "http://172.16.0.1",
      "http://172.31.255.255",
      "http://192.168.1.1",
      "http://169.254.169.254",
      "http://100.64.0.1",
      "http://0.0.0.0",
      "http://[::1]",
      "http://[::]",
      "http://[fd12::1]",
      "http://[fe80::1]",
      "http://[::ffff:10.0.0.1]",
      "http://[64:ff9b::a9fe:a9fe]", // NAT64 of 169.254.169.254
      "http://[2002:c0a8:101::]", // 6to4 of 192.168.1.1
      "http://localhost",
      "http://LOCALHOST.",
      "http://app.localhost",
    ];
    for (const url of private_) expect(host(url), url).toBe(true);
    const public_ = [
      "https://8.8.8.8",
      "https://172.32.0.1",
      "https://100.128.0.1",
      "https://[2001:db8::1]",
      "https://[::ffff:8.8.8.8]",
      "https://as.example",
      "https://localhost.example",
    ];
    for (const url of public_) expect(host(url), url).toBe(false);
  });

  /**
   * The hostile server as a public host (https://mcp.example) whose metadata names `issuer`:
   * the client's fetch carries mcp.example to the peer on 127.0.0.1 and records every other
   * URL it is asked for, answering those with a 404 without any network.
   */
  async function publicServer(issuer: string) {
    const server = await peer();
    const asked: string[] = [];
    const publicUrl = "https://mcp.example/mcp";
    server.route("POST /mcp", (_req, res) =>
      challenge(res, 401, {
        resource_metadata: `https://mcp.example${PRM_PATH}`,
      }),
    );
    server.route(`GET ${PRM_PATH}`, (_req, res) =>
      json(res, 200, { resource: publicUrl, authorization_servers: [issuer] }),
    );
    const fetchVia: typeof fetch = (input, init) => {
      const url = new URL(input instanceof Request ? input.url : input);
      if (url.host === "mcp.example")
        return fetch(`${server.base}${url.pathname}${url.search}`, init);
      asked.push(url.href);
      return Promise.resolve(new Response(null, { status: 404 }));
    };
    return { server, asked, publicUrl, fetchVia };
  }

  it("refuses an authorization server on a private address named by a public MCP server", async () => {
    for (const issuer of [
      "https://169.254.169.254",
      "https://10.0.0.7/tenant",
      "https://[::ffff:127.0.0.1]",
      "https://localhost:8443",
    ]) {
      const { asked, publicUrl, fetchVia } = await publicServer(issuer);
      const { call } = clientOf(publicUrl, { fetch: fetchVia });
      expect((await failure(call())).message).toMatch(
        /private or loopback address .*allowPrivateNetwork/,
      );
      expect(asked).toEqual([]);
    }
  });

  it("allows them with allowPrivateNetwork (development)", async () => {
    const { asked, publicUrl, fetchVia } = await publicServer("https://10.0.0.7");
    const { call } = clientOf(publicUrl, { fetch: fetchVia, allowPrivateNetwork: true });
    await failure(call());
    expect(asked).toEqual([
      "https://10.0.0.7/.well-known/oauth-authorization-server",
      "https://10.0.0.7/.well-known/openid-configuration",
    ]);
  });
});
