import { GeneratedFile } from "../../print/generated-file.js";
import { comment, type Scaffold } from "./view.js";

/** src/validate.ts: the JSON Schema validator defineTools checks tool arguments with (ajv). */
export const validateScaffold: Scaffold = {
  path: "src/validate.ts",
  print: () => {
    const w = new GeneratedFile("src/validate.ts");
    w.import("ajv/dist/2020.js", "Ajv2020");
    w.import("ajv-formats/dist/formats.js", "fullFormats");
    w.import("./mcp/dispatcher.js", "SchemaValidator", true);
    comment(w, [
      "The JSON Schema validator that checks each tool call's arguments against the tool's",
      "inputSchema (and structuredContent against its outputSchema) for defineTools in",
      "src/handlers.ts. Yours to change: any JSON Schema library fits, as long as",
      "validate(schema, value) returns the problems found, one readable line each, or nothing.",
    ]);
    w.importsHere();
    w.line();
    comment(w, [
      "JSON Schema 2020-12, MCP's default dialect for tool schemas, with ajv-formats' formats",
      '("email", "date-time", ...). `strict: false`: a schema with keywords ajv does not know is',
      "used, not refused. ajv compiles each schema once (it caches by the schema object). A schema",
      "whose `$schema` names another dialect needs an ajv that knows it (ajv/dist/2019.js, or",
      '`new Ajv()` from "ajv" for draft-07). `formats:` rather than addFormats(ajv), whose default',
      'import does not type-check under "module": "NodeNext".',
    ]);
    w.line("const ajv = new Ajv2020({ strict: false, formats: fullFormats });");
    w.line();
    w.line("export const validate: SchemaValidator = (schema, value) => {");
    w.indented(() => {
      w.line("const check = ajv.compile(schema);");
      w.line("return check(value)");
      w.indented(() => {
        w.line("? undefined");
        w.line(
          ': (check.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? "is invalid"}`);',
        );
      });
    });
    w.line("};");
    return w.emit("", { kind: "scaffold" });
  },
};
