// Where a request a legacy session sent its client came from. Behind a balancer without
// sticky routing, the client's answer to such a request (an elicitation, say) may reach
// another instance than the one whose handler waits for it; the request id tells that
// instance where to forward it (transport/http/server/session-relay.ts). An id reads
// `mcp-gen-<origin>-<n>`: <origin> random per process, made on first use (a Cloudflare
// Worker may not make random values at start-up), <n> counting in the process, so that ids
// are unique across every instance of a deployment. JSON-RPC ids are opaque to the client
// (basic, "Requests"): it only sends the id back.

let origin: string | undefined;
let counter = 0;

/** This process's mark in the ids of the requests its legacy sessions send. */
export function requestOrigin(): string {
  if (origin === undefined) {
    const bytes = crypto.getRandomValues(new Uint8Array(8));
    origin = [...bytes].map((b) => b.toString(36).padStart(2, "0")).join("");
  }
  return origin;
}

/** A new id for a request a legacy session sends its client. */
export function newRequestId(): string {
  return `mcp-gen-${requestOrigin()}-${++counter}`;
}

const ID = /^mcp-gen-([0-9a-z]{16})-[1-9][0-9]{0,15}$/;

/** The origin of a request id this runtime made (see newRequestId), else undefined. */
export function originOfRequestId(id: unknown): string | undefined {
  return typeof id === "string" ? ID.exec(id)?.[1] : undefined;
}
