import type { Change, RevisionDiff } from "./diff-change.js";
import type { CodeUpdate } from "./diff-code.js";
import type { Side } from "../schema/protocol.js";

// `mcp-gen diff` as Markdown: one list item per change, types on one line in backticks,
// words outside them; methods added or removed get sub-items saying what to change in code.

const code = (text: string) => `\`${text.replace(/`/g, "'")}\``;
const sidesText = (sides: readonly Side[]) =>
  sides.length === 2 ? "clients and servers" : `${sides[0]}s`;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

function describeValues(c: Change): string {
  // Methods are described in words: `request client->server`.
  if (c.kind === "method" && (c.detail === undefined || c.detail === "directions")) {
    return c.detail ? `: ${c.from} -> ${c.to}` : ` (${c.from ?? c.to})`;
  }
  if (c.detail?.startsWith("extends")) {
    return c.from && c.to
      ? `: ${code(c.from)} -> ${code(c.to)}`
      : c.to
        ? `: now extends ${code(c.to)}`
        : c.from
          ? `: no longer extends ${code(c.from)}`
          : "";
  }
  if (c.kind === "union" && c.change === "changed") {
    return `: ${[c.from ? `without ${code(c.from)}` : "", c.to ? `with ${code(c.to)}` : ""].filter(Boolean).join(", ")}`;
  }
  // An interface added or removed: its own fields, by name.
  if (c.detail?.startsWith("interface"))
    return c.to ? `: fields ${code(c.to)}` : c.from ? `: had fields ${code(c.from)}` : "";
  if (c.from && c.to) return `: ${code(c.from)} -> ${code(c.to)}`;
  if (c.to) return c.change === "added" ? `: ${code(c.to)}` : `: now ${code(c.to)}, none before`;
  if (c.from)
    return c.change === "removed" ? `: was ${code(c.from)}` : `: was ${code(c.from)}, none now`;
  return "";
}

/** One change as a Markdown list item (and, for methods, sub-items). */
function describeChange(c: Change): string[] {
  const subject = code(c.subject);
  const mark = c.breaking ? `**breaks ${sidesText(c.breaks)}** ` : "";
  if (c.kind === "deprecation")
    return [`- ${mark}${subject} ${c.change === "added" ? "deprecated" : "no longer deprecated"}`];
  if (c.change === "renamed")
    return [`- ${mark}${subject} renamed to ${code(c.to ?? "")} (same shape)`];
  if (c.detail?.endsWith("renamed") && c.from && c.to) {
    return [
      `- ${mark}${subject} ${c.detail} ${code(c.from)} -> ${code(c.to)} (same wire format; code naming the type changes)`,
    ];
  }
  const what = c.kind === "inputRequest" ? `input request ${c.change}` : c.change;
  const detail = c.detail ? ` (${c.detail})` : "";
  return [
    `- ${mark}${subject} ${what}${detail}${describeValues(c)}`,
    ...(c.code ? codeItems(c, c.code) : []),
  ];
}

const capability = (g: { side: Side; path: string[] }) =>
  `${g.side} capability ${code(g.path.join("."))}`;

/** What to change in code for a method or input request added or removed. */
function codeItems(c: Change, u: CodeUpdate): string[] {
  const added = c.change === "added";
  const items: string[] = [];
  const types = [
    u.params ? `params ${code(u.params)}` : "",
    u.result ? `result ${code(u.result)}` : "",
  ].filter(Boolean);
  if (types.length > 0) items.push(`types: ${types.join(", ")}`);
  for (const h of u.handlers) {
    if (h.interface === "InputHandlers") {
      items.push(
        added
          ? `clients: fulfil it in ${code(`inputHandlers[${JSON.stringify(h.key)}]`)} (createClient options)`
          : `clients: remove ${code(`inputHandlers[${JSON.stringify(h.key)}]`)}`,
      );
      items.push(
        added
          ? "servers: may ask for it in `inputRequired()`"
          : "servers: can no longer ask for it",
      );
    } else {
      const entry = code(JSON.stringify(h.key));
      items.push(
        added
          ? `${h.side}s: add the ${entry} handler to ${code(h.interface)} (handlers.ts)`
          : `${h.side}s: remove the ${entry} handler from ${code(h.interface)} (handlers.ts)`,
      );
    }
  }
  for (const f of u.functions)
    items.push(
      `${f.side}s: ${added ? "new function" : "function gone:"} ${code(`${f.interface}.${f.name}()`)}`,
    );
  for (const g of u.capabilities) {
    const note =
      added && !c.breaking && c.kind === "inputRequest"
        ? " (new: clients that do not declare it are never asked)"
        : "";
    items.push(`${added ? "gated by" : "was gated by"} ${capability(g)}${note}`);
  }
  return items.map((i) => `  - ${i}`);
}

function summary(diff: RevisionDiff): string {
  const breaking = diff.changes.filter((c) => c.breaking);
  const count = (side: Side) => breaking.filter((c) => c.breaks.includes(side)).length;
  const sides =
    breaking.length > 0
      ? ` (${count("client")} break clients, ${count("server")} break servers)`
      : "";
  return `${plural(diff.changes.length, "change")}, ${breaking.length} breaking${sides}.`;
}

/** The diff as Markdown: by kind, breaking changes first in each section. */
export function diffMarkdown(diff: RevisionDiff): string {
  const lines = [`# MCP schema ${diff.from} -> ${diff.to}`, "", summary(diff), ""];
  const sections: [string, (c: Change) => boolean][] = [
    ["Methods", (c) => c.kind === "method" || c.kind === "inputRequest"],
    ["Renamed types", (c) => c.kind === "type" && c.change === "renamed"],
    ["Types", (c) => c.kind === "type" && c.change !== "renamed"],
    ["Fields", (c) => c.kind === "field"],
    ["Message unions", (c) => c.kind === "union"],
    ["Error codes", (c) => c.kind === "error"],
    ["Constants", (c) => c.kind === "constant"],
    ["Deprecations", (c) => c.kind === "deprecation"],
  ];
  for (const [title, pick] of sections) {
    const items = diff.changes.filter(pick).sort((x, y) => Number(y.breaking) - Number(x.breaking));
    if (items.length === 0) continue;
    lines.push(`## ${title}`, "", ...items.flatMap(describeChange), "");
  }
  return lines.join("\n");
}
