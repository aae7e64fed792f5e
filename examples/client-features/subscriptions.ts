// Resource subscriptions and list changes, in both eras. A legacy server (2025-xx) is asked
// with resources/subscribe, and tells the session; a 2026-07-28 server is asked on a
// subscriptions/listen stream, which stays open until the client ends it.
//   node subscriptions.js [URL]   (default: http://127.0.0.1:3000/mcp)
import { createClient } from "./mcp/client.js";
import { createHttpTransport } from "./mcp/http-client.js";
import type { JSONRPCNotification } from "./mcp/types.js";

const url = process.argv[2] ?? "http://127.0.0.1:3000/mcp";
const WELCOME = "note://welcome";

/** The first notification of `method` that `heard` is given. */
function first(method: string) {
  let heard: (n: JSONRPCNotification) => void = () => {};
  const seen = new Promise<JSONRPCNotification>((resolve) => {
    heard = (n) => void (n.method === method && resolve(n));
  });
  return { heard, seen };
}
const updated = first("notifications/resources/updated");
const listChanged = first("notifications/resources/list_changed");
const heard = (n: JSONRPCNotification) => (updated.heard(n), listChanged.heard(n));

// #region legacy
// Legacy sessions: notifications that no call receives go to the client's onNotification.
const client = createClient({ transport: createHttpTransport({ url }), onNotification: heard });

async function subscribe(): Promise<undefined> {
  await client.subscribeResource({ uri: WELCOME });
  return undefined;
}
// #endregion legacy

// #region modern
// 2026-07-28: one long-lived request; what it asked for comes on its own stream.
const stop = new AbortController();

/** The stream's call, in an object: awaiting the call itself would wait for the stream's end. */
async function listen(): Promise<{ call: Promise<unknown> }> {
  const acknowledged = first("notifications/subscriptions/acknowledged");
  const call = client.listenSubscription(
    { notifications: { resourceSubscriptions: [WELCOME], resourcesListChanged: true } },
    { signal: stop.signal, onNotification: (n) => (acknowledged.heard(n), heard(n)) },
  );
  // The server says what it honors before it sends anything.
  await acknowledged.seen;
  return { call };
}
// #endregion modern

// #region changes
const listening = (await client.era()) === "legacy" ? await subscribe() : await listen();
await client.callTool({ name: "write_note", arguments: { name: "welcome", text: "Hi again" } });
console.log(`updated: ${String((await updated.seen).params?.["uri"])}`);
await client.callTool({ name: "write_note", arguments: { name: "todo", text: "Buy milk" } });
console.log(`list changed: ${(await listChanged.seen).method}`);
// #endregion changes

// #region stop
if (listening) {
  stop.abort(new Error("done listening"));
  // The call rejects with the abort's reason; the client closed the stream.
  console.log(`listen: ${await listening.call.catch((error: Error) => error.message)}`);
} else {
  await client.unsubscribeResource({ uri: WELCOME });
  console.log("unsubscribed");
}
// #endregion stop
await client.close();
