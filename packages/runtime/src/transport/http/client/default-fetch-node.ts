// The HTTP client transport's fetch when its options name none, on Node.js (package.json
// "imports": the "node" condition of #default-fetch): node:http, much cheaper per request
// than the built-in fetch (node-fetch.ts says why and what it hands to globalThis.fetch).
export { nodeFetch as defaultFetch } from "./node-fetch.js";
