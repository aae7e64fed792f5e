import { readFixture } from "../helpers.js";

// Schema text written by whoever wrote a draft reaches generated code as method names,
// literal types, property names, constants and docs. Each payload below tries to end the
// string or comment around it and run `globalThis.__pwned = 1` at import; the prototype
// names try to change what an object literal keyed by them is (`{ __proto__: x }` sets the
// prototype, not a key).

const RUN = "globalThis.__pwned = 1;";
export const PAYLOADS = [
  `*/ ${RUN} /*`,
  `/* ${RUN}`,
  `\u2028${RUN} //`,
  `\u2029${RUN} //`,
  "`${" + RUN + "}`",
  `"; ${RUN} "`,
  `'; ${RUN} '`,
  `it's "quoted" '' "`,
  `\\"; ${RUN} //`,
  `\n${RUN}\n`,
  `\r${RUN}\r\n//`,
  "\\u0022 \\x22 \\ end\\",
  "__proto__",
  "constructor",
  "toString",
  "hasOwnProperty",
];
// Docs cannot hold `*/` in schema.ts (it would end them there); everything else can.
const DOC_PAYLOADS = PAYLOADS.map((p) => p.replaceAll("*/", "*\\/").replaceAll("\r", ""));

/** A string literal for schema.ts (TypeScript reads JSON escapes). */
export const lit = (s: string) => JSON.stringify(s);

/**
 * The declarations of the payloads, for a schema that has JSONRPCRequest, JSONRPCNotification
 * and RequestParams: per payload a request and a notification (their methods the payload,
 * or `x/hostile<i>` with `plainMethods`: a client function needs a name that is an
 * identifier), an interface keyed by it, literal types, an Omit and a constant, all with the
 * payload in their docs. Returns the declarations and the request and notification names.
 */
export function hostileDeclarations(plainMethods = false): {
  declarations: string;
  requests: string[];
  notifications: string[];
} {
  const requests: string[] = [];
  const notifications: string[] = [];
  const extra: string[] = [];
  PAYLOADS.forEach((p, i) => {
    const doc = DOC_PAYLOADS[i]!;
    requests.push(`Hostile${i}Request`);
    notifications.push(`Hostile${i}Notification`);
    extra.push(
      `/** ${doc}\n * @deprecated ${doc} */`,
      `export interface Hostile${i}Request extends JSONRPCRequest {\n  /** ${doc} */\n  method: ${lit(plainMethods ? `x/hostile${i}` : p)};\n  params?: RequestParams;\n}`,
      `/** ${doc} */`,
      `export interface Hostile${i}Notification extends JSONRPCNotification {\n  method: ${lit(plainMethods ? `notifications/hostile${i}` : `notifications/${p}`)};\n}`,
      `/** ${doc} */`,
      `export interface Hostile${i}Shape {\n  /** ${doc} */\n  ${lit(p)}?: ${lit(p)};\n  ${lit(`k${i}${p}`)}: { ${lit(p)}: ${lit(p)} | "other" }[];\n}`,
      `export type Hostile${i}Literal = ${lit(p)} | ${lit(`${p}${p}`)};`,
      `export interface Hostile${i}Omit extends Omit<Hostile${i}Shape, ${lit(p)}> {}`,
      `export const HOSTILE_${i} = ${lit(p)};`,
    );
  });
  return { declarations: extra.join("\n\n"), requests, notifications };
}

/** The mini fixture plus the payloads' declarations, its requests and notifications among the client's. */
export function hostileSchema(plainMethods = false): string {
  const { declarations, requests, notifications } = hostileDeclarations(plainMethods);
  const schema = readFixture("mini-schema.ts")
    .replace(
      "export type ClientRequest = PingRequest | CallToolRequest;",
      `export type ClientRequest = PingRequest | CallToolRequest | ${requests.join(" | ")};`,
    )
    .replace(
      "export type ClientNotification = CancelledNotification;",
      `export type ClientNotification = CancelledNotification | ${notifications.join(" | ")};`,
    );
  return `${schema}\n${declarations}\n`;
}
