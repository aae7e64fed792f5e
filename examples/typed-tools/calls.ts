// The calls both clients make, valid and invalid, and how each answer is printed: one line
// per call, `name(arguments): what came back`.
export const CALLS: [string, Record<string, unknown>][] = [
  ["search", { query: "e" }],
  ["search", { query: "" }],
  ["to_fahrenheit", { celsius: 100 }],
  ["to_fahrenheit", { celsius: "hot" }],
  ["forecast", { city: "Oslo", days: 2 }],
  ["forecast", { city: "Oslo", days: 8 }],
  ["add", { a: 2, b: 3 }],
  ["add", { a: 2 }],
];

/** A result as one line: its structuredContent, or the text of an error result. */
export function line(name: string, args: object, result: Record<string, unknown>): string {
  const blocks = (result["content"] ?? []) as { text?: string }[];
  const answer =
    result["isError"] === true
      ? `error: ${blocks.map((b) => b.text).join(" ")}`
      : JSON.stringify(result["structuredContent"]);
  return `${name}(${JSON.stringify(args)}): ${answer}`;
}
