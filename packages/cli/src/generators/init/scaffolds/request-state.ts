import { GeneratedFile } from "../../print/generated-file.js";
import { comment, writeOrExit, type Scaffold } from "./view.js";

/** src/request-state.ts: the secrets sealing input_required state, from the environment. */
export const requestStateScaffold: Scaffold = {
  path: "src/request-state.ts",
  print: () => {
    const w = new GeneratedFile("src/request-state.ts");
    w.import("node:crypto", "randomBytes");
    comment(w, [
      "The secrets that seal the request state of input_required rounds: the server hands the",
      "client sealed state with its question, and the client echoes it back with the answer,",
      "possibly to another instance. Read once at start-up from MCP_REQUEST_STATE_SECRETS.",
    ]);
    w.importsHere();
    w.line();
    w.line('export const SECRETS_VARIABLE = "MCP_REQUEST_STATE_SECRETS";');
    w.line();
    w.line("/** Shortest secret accepted: 32 characters (`openssl rand -base64 32` prints 44). */");
    w.line("const MIN_SECRET_LENGTH = 32;");
    w.line();
    w.line(
      '/** Development is NODE_ENV unset, "development" or "test"; anything else is a deployment. */',
    );
    w.line("function isDevelopment(env: NodeJS.ProcessEnv): boolean {");
    w.indented(() => {
      w.line('return [undefined, "", "development", "test"].includes(env["NODE_ENV"]);');
    });
    w.line("}");
    w.line();
    w.line("/**");
    w.line(
      " * The secrets, newest first: the first seals, every one opens (rotation). Outside development",
    );
    w.line(
      " * a missing variable is an error; in development a random secret serves this process only.",
    );
    w.line(" */");
    w.line("export function requestStateSecrets(");
    w.indented(() => {
      w.line("env: NodeJS.ProcessEnv = process.env,");
      w.line("warn: (line: string) => void = console.error,");
    });
    w.line("): string[] {");
    w.indented(() => {
      w.line("const raw = env[SECRETS_VARIABLE]?.trim();");
      w.line("if (raw) {");
      w.indented(() => {
        w.line('const secrets = raw.split(",").map((s) => s.trim());');
        w.line("if (secrets.some((s) => s.length < MIN_SECRET_LENGTH)) {");
        w.indented(() => {
          w.line("throw new Error(");
          w.indented(() => {
            w.line(
              "`${SECRETS_VARIABLE}: every comma-separated secret needs at least ${MIN_SECRET_LENGTH} characters (try: openssl rand -base64 32)`,",
            );
          });
          w.line(");");
        });
        w.line("}");
        w.line("return secrets;");
      });
      w.line("}");
      w.line("if (!isDevelopment(env)) {");
      w.indented(() => {
        w.line("throw new Error(");
        w.indented(() => {
          w.line(
            '`${SECRETS_VARIABLE} is not set (NODE_ENV=${env["NODE_ENV"]}): set it to one or more secrets, comma-separated, newest first`,',
          );
        });
        w.line(");");
      });
      w.line("}");
      w.line("warn(");
      w.indented(() => {
        w.line(
          "`${SECRETS_VARIABLE} is not set: sealing request state with a random secret for this process only (development)`,",
        );
      });
      w.line(");");
      w.line('return [randomBytes(32).toString("base64url")];');
    });
    w.line("}");
    w.line();
    w.line("/** For the entry points: the secrets, or one line on stderr and exit status 1. */");
    writeOrExit(
      w,
      "export function requestStateSecretsOrExit(): string[] {",
      "requestStateSecrets()",
    );
    return w.emit("", { kind: "scaffold" });
  },
};
