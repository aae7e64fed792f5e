// Resources: read one by its URI, and find the URI templates a server serves.
//   node resources.js [URL]   (default: http://127.0.0.1:3000/mcp)
import { createClient } from "./mcp/client.js";
import { createHttpTransport } from "./mcp/http-client.js";

const url = process.argv[2] ?? "http://127.0.0.1:3000/mcp";
const client = createClient({ transport: createHttpTransport({ url }) });

// #region read
const { contents } = await client.readResource({ uri: "note://welcome" });
for (const content of contents)
  console.log(
    `${content.uri}: ${"text" in content ? content.text : `${content.blob.length} base64 characters`}`,
  );
// #endregion read

// #region templates
// A template's URI is an RFC 6570 template: fill it in, then read the URI as any other.
const { resourceTemplates } = await client.listResourceTemplates();
console.log(`templates: ${resourceTemplates.map((template) => template.uriTemplate).join(", ")}`);
const forecast = await client.readResource({ uri: "weather://Oslo" });
const [text] = forecast.contents;
console.log(`weather://Oslo: ${text && "text" in text ? text.text : ""}`);
// #endregion templates

await client.close();
