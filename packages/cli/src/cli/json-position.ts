// JSON.parse says where it failed only sometimes ("at position 4", a character offset), and
// not at all for an unexpected token ("Unexpected token '}', ... is not valid JSON"). A config
// error names line:col, so this scanner finds the place itself (RFC 8259's grammar).

/** The offset of the first character of `text` that cannot continue a JSON text, or -1 if it is valid. */
export function jsonErrorOffset(text: string): number {
  let i = 0;
  const fail = (): never => {
    throw i;
  };
  const space = () => {
    while (i < text.length && " \t\n\r".includes(text[i]!)) i++;
  };
  const expect = (ch: string) => (text[i] === ch ? i++ : fail());
  const digits = () => {
    if (!/[0-9]/.test(text[i] ?? "")) fail();
    while (/[0-9]/.test(text[i] ?? "")) i++;
  };
  const string = () => {
    expect('"');
    for (;;) {
      const ch = text[i];
      if (ch === undefined || ch < " ") fail();
      i++;
      if (ch === '"') return;
      if (ch !== "\\") continue;
      if (text[i] === "u") {
        i++;
        for (let k = 0; k < 4; k++) {
          if (!/[0-9a-fA-F]/.test(text[i] ?? "")) fail();
          i++;
        }
      } else if ('"\\/bfnrt'.includes(text[i] ?? "x")) i++;
      else fail();
    }
  };
  const value = (): void => {
    space();
    const ch = text[i];
    if (ch === "{" || ch === "[") {
      const close = ch === "{" ? "}" : "]";
      i++;
      space();
      if (text[i] === close) return void i++;
      for (;;) {
        if (close === "}") {
          space();
          string();
          space();
          expect(":");
        }
        value();
        space();
        if (text[i] === ",") i++;
        else return void expect(close);
      }
    }
    if (ch === '"') return string();
    if (ch === "-" || /[0-9]/.test(ch ?? "")) {
      if (ch === "-") i++;
      if (text[i] === "0") i++;
      else digits();
      if (text[i] === ".") {
        i++;
        digits();
      }
      if (text[i] === "e" || text[i] === "E") {
        i++;
        if (text[i] === "+" || text[i] === "-") i++;
        digits();
      }
      return;
    }
    const literal = ["true", "false", "null"].find((word) => word[0] === ch) ?? fail();
    for (const letter of literal) expect(letter);
  };
  try {
    value();
    space();
    if (i < text.length) fail();
    return -1;
  } catch (offset) {
    if (typeof offset !== "number") throw offset;
    return offset;
  }
}

/** 1-based line and column of an offset (columns count UTF-16 units, as editors mostly do). */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split("\n");
  return { line: before.length, column: before[before.length - 1]!.length + 1 };
}
