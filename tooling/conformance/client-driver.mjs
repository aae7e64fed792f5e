// The conformance suite's client driver: a small MCP client built on mcp-gen's generated
// client (2026-07-28, with the legacy revisions reached through initialize). ONE driver for
// both requirement sets: it is told only the server URL, and finds out the server's era by
// itself (the client's era detection). Usage (the suite appends the server URL):
//   node client-driver.mjs <folder of generated JavaScript> <server url>
// The scenario comes in MCP_CONFORMANCE_SCENARIO, its parameters in MCP_CONFORMANCE_CONTEXT;
// MCP_CONFORMANCE_PROTOCOL_VERSION, when set, is only a preference among the versions offered.

import { readFileSync } from "node:fs";

// The client names itself with mcp-gen's version, so a server's log tells which release ran.
const { version } = JSON.parse(
  readFileSync(new URL("../../packages/cli/package.json", import.meta.url), "utf8"),
);
const [generated, url] = process.argv.slice(2);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}");

const { createClient, DECLINE } = await import(`${generated}/client.js`);
const { createHttpTransport } = await import(`${generated}/http-client.js`);
const { ERAS } = await import(`${generated}/eras.js`);
const { createOAuthClient, headlessRedirect } = await import(`${generated}/auth.js`);

// The auth/* scenarios: the generated OAuth client, as an app would set it up, with the suite's
// parameters (pre-registered credentials) and a redirect followed headlessly (the suite's
// authorization server approves without a user). The client metadata document URL is the one
// the suite expects (it is never fetched: the suite's server only compares it).
const CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";
const REDIRECT_URI = "http://localhost:3333/callback";

async function authFor(name) {
  if (!name.startsWith("auth/")) return undefined;
  const clientCredentials = name.startsWith("auth/client-credentials-");
  const preRegistered = context.client_id
    ? {
        clientId: context.client_id,
        ...(context.client_secret ? { clientSecret: context.client_secret } : {}),
        ...(context.issuer
          ? { issuer: context.issuer }
          : context.client_secret
            ? { issuer: await issuerOf(url) }
            : {}),
        ...(context.private_key_pem
          ? {
              privateKey: await importPem(context.private_key_pem),
              tokenEndpointAuthMethod: "private_key_jwt",
            }
          : {}),
      }
    : undefined;
  return createOAuthClient({
    serverUrl: url,
    ...(clientCredentials
      ? { grant: "client_credentials" }
      : (assertionGrant(name) ?? { redirect: headlessRedirect(REDIRECT_URI) })),
    clientMetadataUrl: CLIENT_METADATA_URL,
    ...(preRegistered ? { preRegistered } : {}),
    insecureLoopback: true,
  });
}

/**
 * The JWT bearer grant's scenarios: workload identity (the suite's valid workload JWT; it also
 * hands wrong-audience and expired ones, which only a client that sends them would be refused
 * for), and enterprise-managed authorization (the user's ID token exchanged at the suite's IdP).
 */
function assertionGrant(name) {
  if (name === "auth/wif-jwt-bearer")
    return { grant: "jwt_bearer", assertion: () => context.valid_jwt };
  if (name !== "auth/enterprise-managed-authorization") return undefined;
  const idp = {
    issuer: context.idp_issuer,
    tokenEndpoint: context.idp_token_endpoint,
    clientId: context.idp_client_id,
  };
  return { grant: "jwt_bearer", enterprise: { idp, idToken: () => context.idp_id_token } };
}

/**
 * The issuer of the suite's pre-registered secret, for the scenarios that hand one without it
 * (auth/client-credentials-basic, auth/enterprise-managed-authorization). The OAuth client
 * refuses a secret without its issuer, as an app's configuration would name it; the driver,
 * standing in for that configuration, reads it from the suite's own resource metadata (the
 * suite's servers are trusted here, as an app trusts its configuration).
 */
async function issuerOf(serverUrl) {
  const server = new URL(serverUrl);
  const path = server.pathname.replace(/\/+$/, "");
  for (const where of [
    `/.well-known/oauth-protected-resource${path}`,
    "/.well-known/oauth-protected-resource",
  ]) {
    const response = await fetch(new URL(where, server));
    if (response.ok) return (await response.json()).authorization_servers?.[0];
    await response.body?.cancel();
  }
  return undefined;
}

/** An ES256 private key from PKCS#8 PEM (the suite's client_credentials-jwt key). */
async function importPem(pem) {
  const der = Buffer.from(pem.replace(/-----[^-]+-----|\s/g, ""), "base64");
  return crypto.subtle.importKey("pkcs8", der, { name: "ECDSA", namedCurve: "P-256" }, false, [
    "sign",
  ]);
}

const auth = await authFor(scenario);

// A preferred version, if the suite names one: first among the legacy versions offered at
// initialize when it is legacy, the per-request version when it is modern.
const preferred = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION;
const legacyVersions = ERAS.legacy.map((era) => era.protocol.protocolVersion);
const modernVersion = ERAS.modern.protocol.protocolVersion;

const client = createClient({
  transport: createHttpTransport({ url, ...(auth ? { auth } : {}) }),
  clientInfo: { name: "mcp-gen-conformance-client", version },
  ...(legacyVersions.includes(preferred)
    ? { legacyVersions: [preferred, ...legacyVersions.filter((v) => v !== preferred)] }
    : {}),
  ...(preferred === modernVersion ? { protocolVersion: preferred } : {}),
  inputHandlers: {
    // Accept every form: a value for each field without a default (the client fills the defaults).
    "elicitation/create": (params) => ({
      action: "accept",
      content: defaults(params.requestedSchema),
    }),
    "sampling/createMessage": () => ({
      role: "assistant",
      content: { type: "text", text: "sampled" },
      model: "driver",
    }),
    "roots/list": () => ({ roots: [] }),
  },
});

function defaults(schema) {
  const content = {};
  for (const [name, property] of Object.entries(schema?.properties ?? {})) {
    if (property.default !== undefined) continue;
    if (property.type === "boolean") content[name] = true;
    else if (property.type === "number" || property.type === "integer")
      content[name] = property.minimum ?? 1;
    else content[name] = Array.isArray(property.enum) ? property.enum[0] : "yes";
  }
  return content;
}

/** Calls every tool; the client itself refuses tools with invalid header annotations. */
async function callEveryTool(args = {}) {
  const { tools } = await client.listTools();
  for (const tool of tools) {
    try {
      await client.callTool({ name: tool.name, arguments: args });
    } catch (error) {
      console.error(`${tool.name}: ${error.message}`);
    }
  }
}

const scenarios = {
  async tools_call() {
    await client.listTools();
    const result = await client.callTool({ name: "add_numbers", arguments: { a: 5, b: 3 } });
    console.log(JSON.stringify(result));
  },
  async "request-metadata"() {
    // The first request is refused as an unsupported version: the client retries by itself.
    await client.discover();
    await client.listTools();
  },
  async "sep-2322-client-request-state"() {
    for (const name of [
      "test_mrtr_echo_state",
      "test_mrtr_no_state",
      "test_mrtr_unrelated",
      "test_mrtr_no_result_type",
    ]) {
      console.log(name, JSON.stringify(await client.callTool({ name, arguments: {} })));
    }
  },
  async "http-standard-headers"() {
    const { tools } = await client.listTools();
    for (const tool of tools) await client.callTool({ name: tool.name, arguments: {} });
    const { resources } = await client.listResources();
    for (const resource of resources) await client.readResource({ uri: resource.uri });
    const { prompts } = await client.listPrompts();
    for (const prompt of prompts) await client.getPrompt({ name: prompt.name });
  },
  async "http-custom-headers"() {
    await client.listTools();
    for (const call of context.toolCalls ?? [])
      await client.callTool({ name: call.name, arguments: call.arguments });
  },
  async "http-invalid-tool-headers"() {
    await callEveryTool({ region: "us-west1" });
  },
  async "json-schema-ref-no-deref"() {
    await client.listTools();
  },
  async initialize() {
    // Any request opens the session: the era probe, then initialize on a legacy server.
    await client.listTools();
  },
  async "elicitation-sep1034-client-defaults"() {
    const { tools } = await client.listTools();
    for (const tool of tools)
      console.log(
        tool.name,
        JSON.stringify(await client.callTool({ name: tool.name, arguments: {} })),
      );
  },
  async "sse-retry"() {
    // The server closes the tool's stream before the result: the client resumes it.
    const { tools } = await client.listTools();
    for (const tool of tools)
      console.log(
        tool.name,
        JSON.stringify(await client.callTool({ name: tool.name, arguments: {} })),
      );
  },
  async "json-schema-2020-12-preservation"() {
    const { tools } = await client.listTools();
    const source = tools.find((t) => t.name === "json_schema_2020_12_tool");
    await client.callTool({
      name: "json_schema_echo",
      arguments: { schema: source?.inputSchema ?? {} },
    });
  },
};

/** Every auth/* scenario: reach the server's tools through the authorization it asks for. */
async function authorizedCalls() {
  const { tools } = await client.listTools();
  for (const tool of tools)
    console.log(
      tool.name,
      JSON.stringify(await client.callTool({ name: tool.name, arguments: {} })),
    );
}

const run = scenario.startsWith("auth/") ? authorizedCalls : scenarios[scenario];
if (!run) {
  console.error(`mcp-gen's driver does not implement scenario "${scenario}"`);
  process.exit(2);
}
try {
  await run();
  console.error(`era: ${await client.era()}`);
  await client.close();
} catch (error) {
  console.error(error);
  process.exit(1);
}
void DECLINE;
