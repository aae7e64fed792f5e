import type { ResourceServer } from "../../../auth/resource-server.js";
import type { HttpExchange } from "./exchange.js";

// The OAuth protected resource metadata (RFC 9728) on any host: the resource server writes
// it to a node:http-shaped response, which this records for the core to send.

export interface RecordedReply {
  status: number;
  headers: Record<string, string>;
  body?: string;
}

/** The metadata document's answer when the request is for one of its paths, else undefined. */
export function metadataReply(
  auth: ResourceServer,
  exchange: HttpExchange,
): RecordedReply | undefined {
  const recorded: RecordedReply = { status: 200, headers: {} };
  const recorder = {
    writeHead(status: number, headers: Record<string, string> = {}) {
      recorded.status = status;
      recorded.headers = headers;
      return recorder;
    },
    end(body?: string) {
      if (body !== undefined) recorded.body = body;
      return recorder;
    },
  };
  const served = auth.serveMetadata(
    exchange.pathname,
    exchange.authView() as never,
    recorder as never,
  );
  return served ? recorded : undefined;
}
