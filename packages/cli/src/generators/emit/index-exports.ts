import { basename } from "node:path";
import { formatLocation } from "../../schema/diagnostics.js";
import type { SchemaModel } from "../../schema/model.js";
import { str } from "../print/printer.js";

// index.ts re-exports every generated module (`export * from`). types.ts exports the
// schema's names, the other modules their own and some of the runtime's: a schema declaring
// one of those (`Task`, `ValidationError`, `METHODS`; drafts move types in and out of the
// core schema) made index.ts export two things under one name, an error (TS2308) that left
// the output uncompilable. Such a name is exported explicitly from the generated module (an
// explicit export wins over `export *`), so generated and runtime names mean the same thing
// whatever the schema declares; the schema's is exported under a free name, with a note.

/** A module of index.ts, in its order: the path without `.ts`. */
export interface IndexModule {
  name: string;
  code: string;
}

/** A module's exported names, each with whether it is a type only. */
export function exportedNames(code: string): Map<string, boolean> {
  const out = new Map<string, boolean>();
  // Generated files are laid out as prettier prints them: every top-level statement starts
  // a line, and only those start a line with `export`. Only those lines are read (the
  // validators file is tens of thousands of lines, a few hundred of them exports).
  for (const start of exportLineStarts(code)) {
    const end = code.indexOf("\n", start);
    const line = code.slice(start, end < 0 ? code.length : end);
    const declared =
      /^export (?:declare )?(?:async )?(function\*?|const|let|var|class|enum|interface|type|namespace) ([A-Za-z_$][\w$]*)/.exec(
        line,
      );
    if (declared && !/^export type \{/.test(line)) {
      out.set(declared[2]!, declared[1] === "interface" || declared[1] === "type");
      continue;
    }
    const namespace = /^export \* as ([A-Za-z_$][\w$]*)/.exec(line);
    if (namespace) out.set(namespace[1]!, false);
    else if (line.startsWith("export *"))
      throw new Error(`internal: index.ts cannot tell what \`${line}\` exports`);
    else if (/^export (type )?\{/.test(line)) {
      // A list over several lines: up to its closing brace.
      const close = code.indexOf("}", start);
      const statement = code.slice(start, close < 0 ? code.length : close + 1);
      const typeOnly = statement.startsWith("export type");
      const list = statement.slice(statement.indexOf("{") + 1, statement.indexOf("}"));
      for (const item of list
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean)) {
        const m = /^(type )?([\w$]+)(?: as ([\w$]+))?$/.exec(item);
        if (m) out.set(m[3] ?? m[2]!, typeOnly || m[1] !== undefined);
      }
    }
  }
  return out;
}

/** Where each line of `code` that starts with `export ` starts. */
function* exportLineStarts(code: string): Generator<number> {
  if (code.startsWith("export ")) yield 0;
  for (let at = code.indexOf("\nexport "); at >= 0; at = code.indexOf("\nexport ", at + 1))
    yield at + 1;
}

/** `Schema<Name>`, or with `_2`, `_3`... when that is taken too. */
function freeName(name: string, taken: Set<string>): string {
  const base = `Schema${name.charAt(0).toUpperCase()}${name.slice(1)}`;
  let candidate = base;
  for (let k = 2; taken.has(candidate); k++) candidate = `${base}_${k}`;
  taken.add(candidate);
  return candidate;
}

/**
 * The lines of index.ts after its header, and a located note per schema name exported under
 * another name: where types.ts and generated modules export one name, the first generated
 * module's is exported under it.
 */
export function indexExports(
  modules: readonly IndexModule[],
  model: SchemaModel,
): { lines: string[]; notes: string[] } {
  const names = modules.map((m) => exportedNames(m.code));
  const owners = new Map<string, number[]>();
  names.forEach((exported, i) => {
    for (const name of exported.keys()) owners.set(name, [...(owners.get(name) ?? []), i]);
  });
  const lines = modules.map((m) => `export * from ${str(`./${m.name}.js`)};`);
  // Between generated modules a shared name is one binding (dispatcher.ts and client.ts
  // both re-export the runtime's McpError), which `export *` allows.
  const shared = [...owners].filter(
    ([, at]) => at.length > 1 && at.some((i) => modules[i]!.name === "types"),
  );
  if (shared.length === 0) return { lines, notes: [] };
  const taken = new Set(owners.keys());
  const notes: string[] = [];
  const out = [
    ...lines,
    "",
    "// Names the schema shares with generated code: index.ts exports the generated one, and",
    "// the schema's under another name (types.ts exports it under its own).",
  ];
  // One specifier: prettier keeps the statement on one line however long.
  const reexport = (i: number, item: string) =>
    out.push(
      `export ${names[i]!.get(item.split(" ")[0]!) ? "type " : ""}{ ${item} } from ${str(`./${modules[i]!.name}.js`)};`,
    );
  for (const [name, at] of shared) {
    const winner = at.find((i) => modules[i]!.name !== "types")!;
    const schema = at.find((i) => modules[i]!.name === "types")!;
    reexport(winner, name);
    const alias = freeName(name, taken);
    const loc = model.byName.get(name)?.loc;
    const why = `the schema's ${name} is exported from index.ts as ${alias}: ${name} there is ${modules[winner]!.name}.ts's`;
    out.push(`// ${loc ? `${formatLocation({ ...loc, file: basename(loc.file) })}: ` : ""}${why}.`);
    reexport(schema, `${name} as ${alias}`);
    notes.push(`${loc ? `${formatLocation(loc)}: ` : ""}${why} (types.ts keeps the schema's name)`);
  }
  return { lines: out, notes };
}
