import { isObject } from "../core/protocol.js";
import { McpProtocolError, PageLimitError } from "./errors.js";

// Following nextCursor through a list method, with the bounds a misbehaving server needs: a
// cursor the server already gave (it would loop forever) stops the paging with an error, and
// so does a page count above the client's maxPages.

type Json = Record<string, unknown>;

export async function* pages(
  method: string,
  params: unknown,
  maxPages: number,
  call: (params: Json) => Promise<Json>,
): AsyncGenerator<Json, void, undefined> {
  const seen = new Set<unknown>();
  let cursor: unknown = undefined;
  for (let count = 1; ; count++) {
    const page = await call({
      ...(isObject(params) ? params : {}),
      ...(cursor !== undefined ? { cursor } : {}),
    });
    yield page;
    cursor = page["nextCursor"];
    if (cursor === undefined) return;
    // Cursors are opaque (server/utilities/pagination): compared as given, never parsed.
    if (seen.has(cursor) || cursor === (isObject(params) ? params["cursor"] : undefined))
      throw new McpProtocolError(
        `${method} gave nextCursor ${JSON.stringify(cursor)} again; paging stopped`,
      );
    seen.add(cursor);
    if (count >= maxPages) throw new PageLimitError(method, maxPages);
  }
}
