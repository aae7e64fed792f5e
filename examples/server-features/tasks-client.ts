// The Tasks extension (io.modelcontextprotocol/tasks) as a client sees it. Neither SDK client
// speaks it yet (the v2 SDK 2.4.0 refuses a `resultType: "task"` answer), so this one is
// plain fetch: 2026-07-28 requests whose _meta declares the extension.
//   node tasks-client.js [URL]   (default: http://127.0.0.1:3000/mcp)
const url = process.argv[2] ?? "http://127.0.0.1:3000/mcp";

// #region rpc
const TASKS = "io.modelcontextprotocol/tasks";
let nextId = 1;

/** What tools/call (with a task handle) and tasks/get answer here. */
interface Task {
  resultType: string;
  taskId: string;
  status: "working" | "input_required" | "completed" | "failed" | "cancelled";
  statusMessage?: string;
  pollIntervalMs?: number;
  result?: { content: { text?: string }[] };
}

/** One 2026-07-28 request; `name` is what its Mcp-Name header names (a tool, a task). */
async function rpc(method: string, name: string, params: object): Promise<Task> {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": method,
      "mcp-name": name,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: nextId++,
      method,
      params: {
        ...params,
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientInfo": { name: "tasks-client", version: "1.0.0" },
          // Declaring the extension is what lets the server answer with a task.
          "io.modelcontextprotocol/clientCapabilities": { extensions: { [TASKS]: {} } },
        },
      },
    }),
  });
  const answer = (await response.json()) as { result?: Task; error?: unknown };
  if (!answer.result) throw new Error(`${method}: ${JSON.stringify(answer.error)}`);
  return answer.result;
}
// #endregion rpc

// #region poll
// tools/call answers at once with a task handle; tasks/get tells how the task is doing.
const handle = await rpc("tools/call", "build_report", { name: "build_report", arguments: {} });
console.log(
  `handle: ${handle.resultType} ${handle.status}, poll every ${handle.pollIntervalMs} ms`,
);
let task = handle;
while (task.status === "working" || task.status === "input_required") {
  await new Promise((resolve) => setTimeout(resolve, task.pollIntervalMs ?? 1000));
  task = await rpc("tasks/get", handle.taskId, { taskId: handle.taskId });
}
console.log(`task: ${task.status}: ${task.result?.content.map((block) => block.text).join(" ")}`);
// #endregion poll

// #region cancel
const second = await rpc("tools/call", "build_report", { name: "build_report", arguments: {} });
await rpc("tasks/cancel", second.taskId, { taskId: second.taskId });
const cancelled = await rpc("tasks/get", second.taskId, { taskId: second.taskId });
console.log(`cancelled: ${cancelled.status} (${cancelled.statusMessage})`);
// #endregion cancel
