// OAuth: a server that answers 401 names its authorization server; the OAuth client finds
// it, registers, has the user sign in (authorization code with PKCE), and sends the token on
// every request, refreshing it and stepping up its scopes as the server asks.
//   node oauth.js [URL]   (default: http://127.0.0.1:3000/mcp)
// Needs oauth4webapi (npm i oauth4webapi); jose too, for servers that bind tokens (DPoP).
import { createClient } from "./mcp/client.js";
import { createHttpTransport } from "./mcp/http-client.js";
import { createOAuthClient, headlessRedirect, memoryTokenStore } from "./mcp/auth.js";

const url = process.argv[2] ?? "http://127.0.0.1:3000/mcp";

// #region oauth
const auth = createOAuthClient({
  serverUrl: url,
  // A real app opens the authorization URL in the browser and resolves with the URL its
  // redirect URI receives. headlessRedirect follows it without a browser: for servers that
  // approve without a user, and tests.
  redirect: headlessRedirect("http://127.0.0.1:8976/callback"),
  // Where tokens and the registration are kept (memory is the default: one process).
  store: memoryTokenStore(),
  // Plain http to a loopback server: for this example only.
  insecureLoopback: true,
});
const client = createClient({ transport: createHttpTransport({ url, auth }) });
// #endregion oauth

// #region calls
// The first call meets the 401: the client authorizes, then sends it again with the token.
const { content } = await client.callTool({ name: "whoami", arguments: {} });
const [me] = content;
console.log(`whoami: ${me?.type === "text" ? me.text : ""}`);
// #endregion calls

// #region sign-out
await auth.signOut(); // forgets this server's tokens; the next call authorizes again
await client.close();
// #endregion sign-out
