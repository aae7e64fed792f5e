// Progress, cancellation and timeouts. A call with onProgress sends a progress token and hears
// each notifications/progress; aborting its signal cancels it (notifications/cancelled on a
// legacy session, the response stream closed on a modern one); a call past its timeout is
// cancelled the same way and fails with RequestTimeoutError.
//   node progress.js [URL]   (default: http://127.0.0.1:3000/mcp)
import { createClient, RequestTimeoutError } from "./mcp/client.js";
import { createHttpTransport } from "./mcp/http-client.js";

const url = process.argv[2] ?? "http://127.0.0.1:3000/mcp";
const client = createClient({ transport: createHttpTransport({ url }) });

// #region progress
const steps: string[] = [];
const counted = await client.callTool(
  { name: "count", arguments: { to: 3 } },
  { onProgress: ({ progress, total, message }) => steps.push(`${progress}/${total} ${message}`) },
);
const [done] = counted.content;
console.log(`progress: ${steps.join(", ")}; ${done?.type === "text" ? done.text : ""}`);
// #endregion progress

// #region cancel
// Cancelled after the first progress: the call rejects with the abort's reason.
const stop = new AbortController();
const cancelled = await client
  .callTool(
    { name: "count", arguments: { to: 50 } },
    { signal: stop.signal, onProgress: () => stop.abort(new Error("enough")) },
  )
  .catch((error: Error) => error.message);
console.log(`cancelled: ${String(cancelled)}`);
// #endregion cancel

// #region timeout
// No answer within timeoutMs (progress restarts it, up to maxRequestTimeoutMs): cancelled too.
try {
  await client.callTool({ name: "count", arguments: { to: 50 } }, { timeoutMs: 250 });
} catch (error) {
  if (!(error instanceof RequestTimeoutError)) throw error;
  console.log(`timeout: ${error.name}`);
}
// #endregion timeout

await client.close();
