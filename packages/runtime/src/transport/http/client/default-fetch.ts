// The HTTP client transport's fetch when its options name none, outside Node.js (package.json
// "imports": #default-fetch): the runtime's own. On Node.js, default-fetch-node.ts.

/** globalThis.fetch, looked up at each request (a fetch installed later is the one used). */
export const defaultFetch: typeof fetch = (input, init) => globalThis.fetch(input, init);
