// The seam of message-channel transports (src/transport/channel.ts) on its own: a client and a
// serve loop joined in memory, each text handed across as a transport's connection would.
import { describe, expect, it } from "vitest";
import { channelClient, serveChannel, type TextHandler } from "../src/transport/channel.js";
import { TransportError } from "../src/core/transport-error.js";

type Json = Record<string, unknown>;

/** A dispatcher that echoes `params`, sending one progress notification first. */
function echo(ended: object[]): TextHandler {
  return {
    async handleText(text, { notify }) {
      const request = JSON.parse(text) as Json;
      if (request.id === undefined) return undefined;
      notify({ jsonrpc: "2.0", method: "notifications/progress", params: { progress: 1 } });
      return { jsonrpc: "2.0", id: request.id, result: request.params };
    },
    endSession: (channel) => void ended.push(channel),
  };
}

function joined(dispatcher: TextHandler) {
  const gone = new AbortController();
  const closed: string[] = [];
  // Each side hands the other the JSON text of what it sends, as a connection carries it.
  // eslint-disable-next-line prefer-const -- the client and the server refer to each other
  let server: ReturnType<typeof serveChannel>;
  const client = channelClient(
    {
      send: async (message) => server.receive(JSON.stringify(message)),
      close: async () => void closed.push("client"),
    },
    {},
  );
  server = serveChannel(dispatcher, {
    send: (message) => client.receive(JSON.stringify(message)),
    gone: gone.signal,
  });
  return { client, server, closed };
}

describe("the channel seam", () => {
  it("settles a request with its response, and gives the call its notifications", async () => {
    const ended: object[] = [];
    const { client } = joined(echo(ended));
    const heard: Json[] = [];
    const response = await client.transport.request(
      { jsonrpc: "2.0", id: 7, method: "echo", params: { said: "hi" } },
      {
        onNotification: (n) => void heard.push(n),
        callNotifications: { progress: "notifications/progress", log: null },
      },
    );
    expect(response).toEqual({ jsonrpc: "2.0", id: 7, result: { said: "hi" } });
    expect(heard).toEqual([
      { jsonrpc: "2.0", method: "notifications/progress", params: { progress: 1 } },
    ]);
  });

  it("ends the channel's session when the client sends no more, after what is in flight", async () => {
    const ended: object[] = [];
    const { server } = joined(echo(ended));
    await server.end();
    expect(ended).toHaveLength(1);
  });

  it("fails the calls in flight on close(), then closes the connection", async () => {
    const never: TextHandler = { handleText: () => new Promise(() => undefined) };
    const { client, closed } = joined(never);
    const call = client.transport.request({ jsonrpc: "2.0", id: 1, method: "slow" });
    await client.transport.close!();
    await expect(call).rejects.toBeInstanceOf(TransportError);
    await expect(call).rejects.toMatchObject({ kind: "closed" });
    expect(closed).toEqual(["client"]);
  });
});
