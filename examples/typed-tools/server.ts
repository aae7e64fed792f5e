// Tools whose types come from their schemas: the same kind of tool written four ways, with
// zod 4, Valibot, ArkType and a plain JSON Schema literal. Each `call` gets typed arguments
// and must answer a structuredContent of its outputSchema's type (no cast anywhere); the
// schemas check the values at run time too.
import { Ajv2020 } from "ajv/dist/2020.js";
import { toStandardJsonSchema } from "@valibot/to-json-schema";
import { type } from "arktype";
import * as v from "valibot";
import { z } from "zod";
import {
  createServerDispatcher,
  defineTool,
  defineTools,
  type SchemaValidator,
} from "./mcp/dispatcher.js";

const BOOKS = ["Dune", "Emma", "Ulysses", "Walden"];

// #region zod
// zod 4: the schema checks the arguments (its defaults applied) and structuredContent, and
// writes the JSON Schema that tools/list lists. `limit` is a number in `call`, never missing.
const search = defineTool({
  tool: {
    name: "search",
    description: "Finds books whose title contains the query",
    inputSchema: z.object({
      query: z.string().min(1),
      limit: z.number().int().min(1).max(10).default(3),
    }),
    outputSchema: z.object({ titles: z.array(z.string()) }),
  },
  call: ({ query, limit }) => {
    const titles = BOOKS.filter((t) => t.toLowerCase().includes(query.toLowerCase()));
    return {
      content: [{ type: "text", text: titles.slice(0, limit).join(", ") }],
      structuredContent: { titles: titles.slice(0, limit) },
    };
  },
});
// #endregion zod

// #region valibot
// Valibot: its schemas write JSON Schema once wrapped by toStandardJsonSchema
// (@valibot/to-json-schema).
const toFahrenheit = defineTool({
  tool: {
    name: "to_fahrenheit",
    description: "Converts degrees Celsius to Fahrenheit",
    inputSchema: toStandardJsonSchema(v.object({ celsius: v.number() })),
    outputSchema: toStandardJsonSchema(v.object({ fahrenheit: v.number() })),
  },
  call: ({ celsius }) => {
    const fahrenheit = (celsius * 9) / 5 + 32;
    return {
      content: [{ type: "text", text: `${fahrenheit} °F` }],
      structuredContent: { fahrenheit },
    };
  },
});
// #endregion valibot

// #region arktype
// ArkType: `days` is optional (`number | undefined` in `call`), an integer from 1 to 7.
const forecast = defineTool({
  tool: {
    name: "forecast",
    description: "Tells the weather for the next days",
    inputSchema: type({ city: "string > 0", "days?": "1 <= number.integer <= 7" }),
    outputSchema: type({ city: "string", days: "number" }),
  },
  call: ({ city, days = 1 }) => ({
    content: [{ type: "text", text: `${city}: sunny for ${days} day(s)` }],
    structuredContent: { city, days },
  }),
});
// #endregion arktype

// #region json-schema
// A JSON Schema literal, typed by the type checker alone (written inline, or declared
// `as const`); the server's JSON Schema validator checks the values.
const ajv = new Ajv2020({ strict: false });
const validate: SchemaValidator = (schema, value) => {
  const check = ajv.compile(schema);
  if (check(value)) return undefined;
  return (check.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? "is invalid"}`);
};

const add = defineTool({
  tool: {
    name: "add",
    description: "Adds two numbers",
    inputSchema: {
      type: "object",
      properties: { a: { type: "number" }, b: { type: "number" } },
      required: ["a", "b"],
    },
    outputSchema: {
      type: "object",
      properties: { sum: { type: "number" } },
      required: ["sum"],
    },
  },
  call: ({ a, b }) => ({
    content: [{ type: "text", text: String(a + b) }],
    structuredContent: { sum: a + b },
  }),
});
// #endregion json-schema

// #region dispatcher
// One table: typed tools, and untyped ones ({ tool, call }) too. `validate` checks the JSON
// Schemas (here add's); the other three check themselves.
export const dispatcher = createServerDispatcher(
  defineTools([search, toFahrenheit, forecast, add], {
    validate,
    list: { ttlMs: 0, cacheScope: "private" },
  }),
  { serverInfo: { name: "typed-tools", version: "1.0.0" } },
);
// #endregion dispatcher
