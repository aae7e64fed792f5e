import { WIDTH } from "./printer.js";

// JSON laid out as prettier lays out a .json file that was printed expanded (its `json`
// parser keeps an object broken when the input breaks it): objects one key a line, arrays
// of plain values on one line when the line fits, else one value a line. So a generated
// JSON file is already formatted: prettier leaves it unchanged (test/json-schema.test.ts).

export type JsonValue =
  string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** `value` as the text of a .json file (ending with a newline). */
export function layOutJson(value: JsonValue): string {
  const lines: string[] = [];
  write(lines, "", value, "", 0);
  return `${lines.join("\n")}\n`;
}

const isPlain = (v: JsonValue) => v === null || typeof v !== "object";

/** Writes `prefix` + value + `suffix` at `depth`, on as many lines as the layout needs. */
function write(out: string[], prefix: string, v: JsonValue, suffix: string, depth: number): void {
  const indent = "  ".repeat(depth);
  if (isPlain(v)) {
    out.push(`${indent}${prefix}${JSON.stringify(v)}${suffix}`);
    return;
  }
  const entries: [string, JsonValue][] = Array.isArray(v)
    ? v.map((item) => ["", item])
    : Object.entries(v).map(([key, item]) => [`${JSON.stringify(key)}: `, item]);
  const [open, close] = Array.isArray(v) ? ["[", "]"] : ["{", "}"];
  if (entries.length === 0) {
    out.push(`${indent}${prefix}${open}${close}${suffix}`);
    return;
  }
  if (Array.isArray(v) && v.every(isPlain)) {
    const flat = `${indent}${prefix}[${v.map((item) => JSON.stringify(item)).join(", ")}]${suffix}`;
    // Prettier measures display width: this is it for all but East Asian wide characters.
    if (flat.length <= WIDTH) {
      out.push(flat);
      return;
    }
  }
  out.push(`${indent}${prefix}${open}`);
  entries.forEach(([key, item], i) =>
    write(out, key, item, i < entries.length - 1 ? "," : "", depth + 1),
  );
  out.push(`${indent}${close}${suffix}`);
}
