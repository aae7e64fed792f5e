// A host application calling the docs-search server (server.ts) through typed functions:
// search-tools.ts, written by `mcp-gen client` from the server's listing, over the client
// mcp-gen generates (./mcp, from mcp-gen.config.json).
//   node app.js [URL]   (default: http://127.0.0.1:3000/mcp)
// #region app
import { Ajv2020 } from "ajv/dist/2020.js";
import { createClient } from "./mcp/client.js";
import { createHttpTransport } from "./mcp/http-client.js";
import {
  createServerResourceCompletions,
  createServerResourceTemplates,
  createServerTools,
  type SchemaValidator,
} from "./search-tools.js";

// Results are checked against each tool's outputSchema (optional: any JSON Schema validator).
const ajv = new Ajv2020({ strict: false });
const validate: SchemaValidator = (schema, value) => {
  const check = ajv.compile(schema);
  return check(value) ? [] : (check.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
};

const url = process.argv[2] ?? "http://127.0.0.1:3000/mcp";
const client = createClient({ transport: createHttpTransport({ url }) });
const tools = createServerTools(client, { validate });

// `query` is a string, `limit` an optional number; `hits` is typed from the outputSchema.
const { structuredContent } = await tools.search({ query: "client", limit: 2 });
for (const hit of structuredContent.hits) console.log(`${hit.title}: ${hit.url}`);
// #endregion app

// #region templates
// The template docs://pages/{slug}: `slug` is required, and expanded into the URI read.
const pages = createServerResourceTemplates(client);
const { contents } = await pages.page({ slug: "eras" });
for (const content of contents) if ("text" in content) console.log(content.text.split("\n")[0]);

// The server's suggestions for `slug`, given what is typed so far.
const completions = createServerResourceCompletions(client);
const { completion } = await completions.page("slug", "t");
console.log(`slugs starting with t: ${completion.values.join(", ")}`);
// #endregion templates
await client.close();
