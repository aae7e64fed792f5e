// Listing with pagination: a server may split tools/list, resources/list, prompts/list and
// resources/templates/list into pages, each naming the next one's cursor.
//   node pagination.js [URL]   (default: http://127.0.0.1:3000/mcp)
import { createClient } from "./mcp/client.js";
import { createHttpTransport } from "./mcp/http-client.js";

const url = process.argv[2] ?? "http://127.0.0.1:3000/mcp";
const client = createClient({ transport: createHttpTransport({ url }) });

// #region pages
// Every page, following nextCursor (refusing a cursor seen before, and past maxPages pages).
const names: string[] = [];
let pages = 0;
for await (const page of client.listResourcesPages()) {
  pages++;
  names.push(...page.resources.map((resource) => resource.uri));
}
console.log(`pages: ${pages}, resources: ${names.join(", ")}`);
// #endregion pages

// #region cursor
// One page at a time, when the caller decides whether to read on.
const firstPage = await client.listResources();
const cursor = firstPage.nextCursor;
if (cursor !== undefined) {
  const next = await client.listResources({ cursor });
  console.log(`after the first page: ${next.resources.map((resource) => resource.uri).join(", ")}`);
} else console.log("after the first page: none");
// #endregion cursor

await client.close();
