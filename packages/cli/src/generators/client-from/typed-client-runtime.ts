// The fixed part of a typed client file (typed-client.ts): the types and the one function
// every tool's function calls through. Emitted into the file rather than imported from the
// runtime package, so the file needs nothing beyond the generated client it sits on. None
// of this text comes from a server.

const RUNTIME = `/** Checks a value against a JSON Schema: the problems found, each one line (none or undefined: it conforms). */
export type SchemaValidator = (schema: object, value: unknown) => readonly string[] | undefined;

export interface ServerToolsOptions {
  /**
   * Checks each structuredContent against its tool's outputSchema (for instance with Ajv).
   * Default: none (structuredContent must be present, and is typed, but is not checked).
   */
  validate?: SchemaValidator;
}

/** A tool's result whose structuredContent is there, typed from its outputSchema. */
export type TypedToolResult<S> = Omit<CallToolResult, "structuredContent"> & { structuredContent: S };

/** A tool answered with \`isError: true\`: \`result\` holds its content. */
export class ToolError extends Error {
  constructor(
    readonly tool: string,
    readonly result: CallToolResult,
  ) {
    const text = result.content.find((c) => c.type === "text");
    const said = text && "text" in text ? \`: \${String(text.text).slice(0, 500)}\` : "";
    super(\`tool \${JSON.stringify(tool)} failed\${said}\`);
    this.name = "ToolError";
  }
}

/** A tool's structuredContent is missing, or does not conform to its outputSchema. */
export class ToolOutputError extends Error {
  constructor(
    readonly tool: string,
    readonly result: CallToolResult,
    readonly problems: readonly string[],
  ) {
    super(\`tool \${JSON.stringify(tool)} answered a result that breaks its outputSchema: \${problems.slice(0, 5).join("; ")}\`);
    this.name = "ToolOutputError";
  }
}

/**
 * Calls a tool and checks its result: "Servers MUST provide structured results that conform
 * to" the outputSchema (MCP server/tools, "Output Schema").
 */
function toolCaller(client: Pick<Client, "callTool">, settings: ServerToolsOptions) {
  return async (
    name: string,
    args: object | undefined,
    outputSchema: object | undefined,
    options: CallOptions | undefined,
  ): Promise<CallToolResult> => {
    const params = { name, arguments: { ...args } as { [key: string]: unknown } };
    const result = await client.callTool(params, options);
    if (result.isError === true) throw new ToolError(name, result);
    if (outputSchema === undefined) return result;
    if (result.structuredContent === undefined)
      throw new ToolOutputError(name, result, ["it has no structuredContent"]);
    const problems = settings.validate?.(outputSchema, result.structuredContent) ?? [];
    if (problems.length > 0) throw new ToolOutputError(name, result, problems);
    return result;
  };
}`;

/** The fixed lines, at the top level of the file. */
export function typedClientRuntimeLines(): string[] {
  return RUNTIME.split("\n");
}
