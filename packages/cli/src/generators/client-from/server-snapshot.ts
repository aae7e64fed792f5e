import { McpGenError } from "../../schema/diagnostics.js";
import { lineCommentText } from "../print/printer.js";
import { importModule } from "../../host/import-module.js";

// What a server lists, as `mcp-gen client` keeps it beside the typed functions it generates
// (the snapshot): its tools, prompts and resource templates, each cut to the fields the
// functions depend on and sorted by name, so the same server gives the same bytes whatever
// order it lists in. `client --check` compares a new listing with it and names what changed.
// Everything here comes from a server (or a file a server's listing was saved to): it is
// checked, capped, and never trusted as code.

/** Most tools, prompts or resource templates read from one server (each). */
export const MAX_ENTRIES = 1_000;
/** Longest tool, prompt or argument name accepted (the spec suggests 1 to 128 characters). */
export const MAX_NAME_CHARS = 256;
/** Longest uriTemplate accepted: its variables become a type's members. */
export const MAX_URI_TEMPLATE_CHARS = 2048;
/**
 * Most JSON values (objects, arrays and every member of them: subschemas, properties, enum
 * members, examples, keywords mcp-gen does not read) in one listing. The listing is formatted
 * and the typed file printed from them, each in time and memory growing with this count.
 */
export const MAX_LISTING_VALUES = 50_000;
/** Deepest nesting of a listing's JSON, anywhere in it (printing and formatting recurse). */
export const MAX_LISTING_DEPTH = 128;

export interface ToolEntry {
  name: string;
  title?: string;
  description?: string;
  inputSchema: { [key: string]: unknown };
  outputSchema?: { [key: string]: unknown };
}

export interface PromptArgumentEntry {
  name: string;
  description?: string;
  required?: boolean;
}

export interface PromptEntry {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgumentEntry[];
}

export interface ResourceTemplateEntry {
  name: string;
  uriTemplate: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

export interface ServerSnapshot {
  tools: ToolEntry[];
  prompts: PromptEntry[];
  resourceTemplates: ResourceTemplateEntry[];
}

type Json = { [key: string]: unknown };
const isObject = (v: unknown): v is Json =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** A value quoted for a one-line message (capped, line breaks folded). */
export function quoted(text: string): string {
  const short = text.length > 80 ? `${text.slice(0, 80)}...` : text;
  return JSON.stringify(lineCommentText(short));
}

function problem(where: string, message: string): McpGenError {
  return new McpGenError("protocol", `${where}: ${message}`);
}

function name(entry: Json, where: string): string {
  const value = entry["name"];
  if (typeof value !== "string" || value === "")
    throw problem(where, "an entry has no name (a non-empty string)");
  if (value.length > MAX_NAME_CHARS)
    throw problem(where, `the name ${quoted(value)} is longer than ${MAX_NAME_CHARS} characters`);
  return value;
}

/** The optional string fields of `entry` named in `keys`, as they are (others left out). */
function strings<K extends string>(entry: Json, keys: readonly K[]): { [P in K]?: string } {
  const out: { [P in K]?: string } = {};
  for (const key of keys) if (typeof entry[key] === "string") out[key] = entry[key];
  return out;
}

/** A list from the listing, checked to be an array of objects and capped. */
function entries(listing: Json, key: string, where: string): Json[] {
  const list = listing[key];
  if (list === undefined) return [];
  if (!Array.isArray(list)) throw problem(where, `'${key}' is not an array`);
  if (list.length > MAX_ENTRIES)
    throw problem(where, `lists ${list.length} ${key}; mcp-gen reads at most ${MAX_ENTRIES}`);
  if (!list.every(isObject)) throw problem(where, `'${key}' holds an entry that is not an object`);
  return list;
}

/** Sorted by name; two entries of one name are refused (a function each could not be told apart). */
function sortedUnique<T extends { name: string }>(list: T[], kind: string, where: string): T[] {
  const sorted = [...list].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  sorted.forEach((entry, i) => {
    if (i > 0 && sorted[i - 1]!.name === entry.name)
      throw problem(where, `two ${kind}s are named ${quoted(entry.name)}`);
  });
  return sorted;
}

function tool(entry: Json, where: string): ToolEntry {
  const toolName = name(entry, where);
  const at = `${where}: tool ${quoted(toolName)}`;
  // "inputSchema MUST be a valid JSON Schema object (not null)" (2026-07-28 server/tools, "Tool").
  if (!isObject(entry["inputSchema"])) throw problem(at, "has no inputSchema object");
  const output = entry["outputSchema"];
  if (output !== undefined && !isObject(output))
    throw problem(at, "has an outputSchema that is not an object");
  return {
    name: toolName,
    ...strings(entry, ["title", "description"]),
    inputSchema: entry["inputSchema"],
    ...(output !== undefined ? { outputSchema: output } : {}),
  };
}

function prompt(entry: Json, where: string): PromptEntry {
  const promptName = name(entry, where);
  const at = `${where}: prompt ${quoted(promptName)}`;
  const args = entries(entry, "arguments", at).map((a) => ({
    name: name(a, at),
    ...strings(a, ["description"]),
    ...(typeof a["required"] === "boolean" ? { required: a["required"] } : {}),
  }));
  return {
    name: promptName,
    ...strings(entry, ["title", "description"]),
    ...(entry["arguments"] !== undefined ? { arguments: sortedUnique(args, "argument", at) } : {}),
  };
}

function template(entry: Json, where: string): ResourceTemplateEntry {
  const templateName = name(entry, where);
  const uriTemplate = entry["uriTemplate"];
  if (typeof uriTemplate !== "string")
    throw problem(where, `resource template ${quoted(templateName)} has no uriTemplate`);
  if (uriTemplate.length > MAX_URI_TEMPLATE_CHARS)
    throw problem(
      where,
      `resource template ${quoted(templateName)} has a uriTemplate longer than ${MAX_URI_TEMPLATE_CHARS} characters`,
    );
  return {
    name: templateName,
    uriTemplate,
    ...strings(entry, ["title", "description", "mimeType"]),
  };
}

/**
 * Refuses a listing with more than MAX_LISTING_VALUES values or nested deeper than
 * MAX_LISTING_DEPTH, before anything reads it further. Iterative: a listing nested a million
 * levels deep (JSON.parse takes it) must not overflow the stack here either.
 */
function checkListingSize(listing: unknown, where: string): void {
  const pending: [unknown, number][] = [[listing, 0]];
  let values = 1;
  while (pending.length > 0) {
    const [value, depth] = pending.pop()!;
    if (typeof value !== "object" || value === null) continue;
    if (depth >= MAX_LISTING_DEPTH)
      throw problem(
        where,
        `nests deeper than ${MAX_LISTING_DEPTH} levels; mcp-gen reads no deeper`,
      );
    const members = Array.isArray(value) ? (value as unknown[]) : Object.values(value);
    values += members.length;
    if (values > MAX_LISTING_VALUES)
      throw problem(
        where,
        `holds more than ${MAX_LISTING_VALUES} JSON values (schemas, properties, enum members, examples); mcp-gen reads at most ${MAX_LISTING_VALUES}`,
      );
    for (const member of members) pending.push([member, depth + 1]);
  }
}

/**
 * The snapshot of a listing: `{ tools, prompts?, resourceTemplates? }` as `client` reads it
 * from a server, a saved `tools/list` result, or a snapshot written earlier. `where` names
 * the source in errors.
 */
export function snapshotOf(listing: unknown, where: string): ServerSnapshot {
  if (!isObject(listing) || !Array.isArray(listing["tools"]))
    throw problem(where, "is not a tools/list result (an object with a 'tools' array)");
  checkListingSize(listing, where);
  return {
    tools: sortedUnique(
      entries(listing, "tools", where).map((t) => tool(t, where)),
      "tool",
      where,
    ),
    prompts: sortedUnique(
      entries(listing, "prompts", where).map((p) => prompt(p, where)),
      "prompt",
      where,
    ),
    resourceTemplates: sortedUnique(
      entries(listing, "resourceTemplates", where).map((t) => template(t, where)),
      "resource template",
      where,
    ),
  };
}

/**
 * The snapshot file's text: JSON as prettier lays it out (pinned, fixed options), so a
 * project's format check passes on it and the same snapshot is always the same bytes.
 */
export async function snapshotText(snapshot: ServerSnapshot): Promise<string> {
  const prettier = await importModule<typeof import("prettier")>("prettier");
  return prettier.format(JSON.stringify(snapshot), { parser: "json", printWidth: 100 });
}

/** Most changes a `--check` line names; the rest are counted. */
const MAX_NAMED_CHANGES = 8;

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** What changed in one list: entries added, removed, and which fields of the others. */
function listChanges<T extends { name: string }>(
  kind: string,
  before: readonly T[],
  after: readonly T[],
  fields: readonly (keyof T & string)[],
): string[] {
  const old = new Map(before.map((e) => [e.name, e]));
  const now = new Map(after.map((e) => [e.name, e]));
  const changes: string[] = [];
  for (const [entryName, entry] of now) {
    const was = old.get(entryName);
    if (!was) changes.push(`${kind} ${quoted(entryName)} added`);
    else {
      const changed = fields.filter((f) => !same(was[f], entry[f]));
      if (changed.length > 0)
        changes.push(`${kind} ${quoted(entryName)} ${changed.join(" and ")} changed`);
    }
  }
  for (const entryName of old.keys())
    if (!now.has(entryName)) changes.push(`${kind} ${quoted(entryName)} removed`);
  return changes;
}

/** Every change from `before` to `after`, each a short phrase (`tool "search" added`). */
export function snapshotChanges(before: ServerSnapshot, after: ServerSnapshot): string[] {
  return [
    ...listChanges("tool", before.tools, after.tools, [
      "inputSchema",
      "outputSchema",
      "title",
      "description",
    ]),
    ...listChanges("prompt", before.prompts, after.prompts, ["arguments", "title", "description"]),
    ...listChanges("resource template", before.resourceTemplates, after.resourceTemplates, [
      "uriTemplate",
      "mimeType",
      "title",
      "description",
    ]),
  ];
}

/** Changes as one clause: the first few named, the rest counted. */
export function changesClause(changes: readonly string[]): string {
  const named = changes.slice(0, MAX_NAMED_CHANGES).join(", ");
  const more = changes.length - MAX_NAMED_CHANGES;
  return more > 0 ? `${named} and ${more} more` : named;
}
