import type { Doc, DocTag } from "./model.js";

/**
 * Parses the raw text of a JSDoc comment. Done by hand rather than through the
 * TypeScript parser because the parser splits tag names at `-` (`@TJS-type`) and
 * reflows text, and generated docs should read exactly like the spec's.
 */
export function parseDoc(raw: string): Doc {
  const lines = raw
    .replace(/^\/\*\*/, "")
    .replace(/\*\/$/, "")
    // Every ECMAScript line terminator ends a line (as TypeScript reads them): a lone CR or a
    // U+2028 kept inside a line would be one more way for doc text to break its comment.
    .split(/\r\n|[\n\r\u2028\u2029]/)
    .map((line) => line.replace(/^\s*\* ?/, "").replace(/\s+$/, ""));
  const text: string[] = [];
  const tags: DocTag[] = [];
  let current: { name: string; lines: string[] } | undefined;
  const flush = () => {
    if (current) tags.push({ name: current.name, text: trimBlankLines(current.lines).join("\n") });
  };
  for (const line of lines) {
    const tag = /^@([A-Za-z][\w-]*)\s?(.*)$/.exec(line.trimStart());
    if (tag && tag[1]) {
      flush();
      current = { name: tag[1], lines: [tag[2] ?? ""] };
    } else if (current) {
      current.lines.push(line);
    } else {
      text.push(line);
    }
  }
  flush();
  return { text: trimBlankLines(text).join("\n"), tags };
}

function trimBlankLines(lines: string[]): string[] {
  let start = 0;
  let end = lines.length;
  while (start < end && lines[start]?.trim() === "") start++;
  while (end > start && lines[end - 1]?.trim() === "") end--;
  return lines.slice(start, end);
}

/** Renders a Doc back to a JSDoc block (without indentation), or "" when empty. */
export function renderDoc(doc: Doc): string {
  const body: string[] = doc.text ? doc.text.split("\n") : [];
  for (const tag of doc.tags) {
    if (body.length > 0 && tag === doc.tags[0] && doc.text) body.push("");
    const [first = "", ...rest] = tag.text.split("\n");
    body.push(first ? `@${tag.name} ${first}` : `@${tag.name}`, ...rest);
  }
  if (body.length === 0) return "";
  // `*/` inside a comment would end it early.
  const safe = body.map((line) => line.replace(/\*\//g, "*\\/"));
  return ["/**", ...safe.map((line) => (line ? ` * ${line}` : " *")), " */"].join("\n");
}
