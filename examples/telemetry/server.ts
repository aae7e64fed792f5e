// A server whose every request is a span (SERVER kind, named "tools/call lookup" and so on),
// its parent the client's span sent in `_meta`. The tool's own work is a span inside it.
// #region server
import { trace } from "@opentelemetry/api";
import { serverTracing } from "@mcp-gen/runtime/otel";
import { createServerDispatcher, defineTool, defineTools, McpError } from "./mcp/dispatcher.js";

const tracer = trace.getTracer("weather-service");

const tools = defineTools(
  [
    defineTool({
      tool: {
        name: "lookup",
        description: "Today's forecast for a city",
        inputSchema: { type: "object", properties: { city: { type: "string" } } },
      },
      call: async ({ city }) => {
        if (typeof city !== "string") throw new McpError(-32602, "lookup needs a city");
        // A child of this request's span: the handler runs inside it.
        const forecast = await tracer.startActiveSpan("forecast query", async (span) => {
          span.setAttribute("weather.city", city);
          span.end();
          return `sunny in ${city}`;
        });
        return { content: [{ type: "text", text: forecast }] };
      },
    }),
  ],
  { validate: "handler", list: { ttlMs: 0, cacheScope: "private" } },
);

export const dispatcher = createServerDispatcher(tools, {
  serverInfo: { name: "weather", version: "1.0.0" },
  ...serverTracing(),
});
// #endregion server
