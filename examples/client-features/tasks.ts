// Tasks: a server may run a tools/call as a task and answer with a handle at once (the Tasks
// extension of 2026-07-28; on 2025-11-25, tools whose taskSupport says so). callTool polls it
// to its result; callToolTask hands over the task itself.
//   node tasks.js [URL]   (default: http://127.0.0.1:3000/mcp)
import { createClient, TaskCancelledError } from "./mcp/client.js";
import { createHttpTransport } from "./mcp/http-client.js";

const url = process.argv[2] ?? "http://127.0.0.1:3000/mcp";
const client = createClient({
  transport: createHttpTransport({ url }),
  // Polls follow the server's interval within these bounds (defaults 100 ms and 30 s).
  tasks: { minPollIntervalMs: 100, maxPollIntervalMs: 5_000 },
});

// #region auto
// The tool's result, whether or not the server made a task of the call.
const report = await client.callTool({ name: "build_report", arguments: {} });
const [line] = report.content;
console.log(`callTool: ${line?.type === "text" ? line.text : ""}`);
// #endregion auto

// #region handle
const task = await client.callToolTask({ name: "build_report", arguments: {} });
const statuses: string[] = [];
// Each status the polls saw, from created to the end; the same status twice is shown once.
for await (const { status } of task) if (statuses.at(-1) !== status) statuses.push(status);
const result = await task.result();
const [text] = result.content;
console.log(`task: ${statuses.join(" -> ")}; ${text?.type === "text" ? text.text : ""}`);
// #endregion handle

// #region cancel
const doomed = await client.callToolTask({ name: "build_report", arguments: {} });
await doomed.cancel();
try {
  await doomed.result();
} catch (error) {
  if (!(error instanceof TaskCancelledError)) throw error;
  console.log(`cancelled: ${error.name}`);
}
// #endregion cancel

await client.close();
