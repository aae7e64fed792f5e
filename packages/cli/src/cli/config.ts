import { readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { McpGenError } from "../schema/diagnostics.js";
import { GENERATOR_NAMES } from "../generators/emit/index.js";
import { RUNTIME_MODES, type RuntimeMode } from "../generators/emit/runtime.js";
import { TARGETS, type Target } from "../generators/output/target.js";
import { jsonErrorOffset, lineColumn } from "./json-position.js";

export const CONFIG_FILE = "mcp-gen.config.json";

/** mcp-gen.config.json: defaults for every command. Paths are relative to the config file. */
export interface Config {
  spec?: string;
  revision?: string;
  /**
   * The revisions a server speaks: the newest is the one handlers are written against, the
   * others (initialize-based) are served through `initialize`. Instead of `revision`.
   */
  revisions?: string[];
  out?: string;
  generators?: string[];
  /** Also emit the auth modules: the HTTP server's JWT verifier (needs `jose`) and the HTTP client's OAuth client, auth.ts (needs `oauth4webapi`). */
  auth?: boolean;
  /**
   * How generated code reaches the runtime: "package" (default) imports @mcp-gen/runtime, so
   * runtime fixes arrive with `npm update`; "vendor" copies its sources into the output.
   */
  runtime?: RuntimeMode;
  /**
   * The form of the generated code: "ts" (default) the printed TypeScript; "js+dts"
   * JavaScript with declarations and declaration maps, so a project's `tsc` reads
   * declarations instead of checking the generated code as its own source.
   */
  target?: Target;
  /**
   * The file holding the server's handlers when it is kept outside `out` (an `init` project's
   * src/handlers.ts): generate then writes no handlers.ts skeleton into `out`, and checks this
   * file for request methods it has no handler for.
   */
  handlers?: string;
  /**
   * Plugin modules run after the built-in generators (docs/guide/plugins.md): paths relative
   * to the config file, or package names resolved from its folder.
   */
  plugins?: string[];
}

const KEYS: Record<keyof Config, "string" | "string[]" | "boolean"> = {
  spec: "string",
  revision: "string",
  revisions: "string[]",
  out: "string",
  generators: "string[]",
  auth: "boolean",
  runtime: "string",
  target: "string",
  handlers: "string",
  plugins: "string[]",
};

/**
 * What is wrong with a list of generators or revisions (from --generators / --revisions or
 * the config), said after its name: "is empty; ...", or undefined when nothing is.
 */
export function listProblem(
  kind: "generators" | "revisions",
  list: readonly string[],
): string | undefined {
  if (list.length === 0)
    return kind === "generators"
      ? `is empty; name at least one of ${GENERATOR_NAMES.join(", ")}`
      : "is empty; name at least one revision";
  const twice = list.find((name, i) => list.indexOf(name) !== i);
  if (twice !== undefined) return `lists '${twice}' twice`;
  const unknown =
    kind === "generators" ? list.filter((name) => !GENERATOR_NAMES.includes(name)) : [];
  if (unknown.length > 0)
    return `has unknown generator '${unknown.join("', '")}'; available: ${GENERATOR_NAMES.join(", ")}`;
  return undefined;
}

/** A config as read: its settings and the file they came from (to name it in errors). */
export type LoadedConfig = Config & { file?: string };

/**
 * The config file to read: the one given, or the nearest mcp-gen.config.json in the working
 * folder or above it, up to the file-system root or the first folder holding .git (the top
 * of the repository: a config above it belongs to something else).
 */
export function findConfig(explicit: string | undefined, cwd = process.cwd()): string | undefined {
  if (explicit !== undefined) {
    const path = resolve(cwd, explicit);
    const found = statSync(path, { throwIfNoEntry: false });
    if (!found) throw new McpGenError("config", `config file not found: ${explicit}`);
    if (found.isDirectory())
      throw new McpGenError(
        "config",
        `${path} is a folder, not a config file (--config names the ${CONFIG_FILE} to read)`,
      );
    return path;
  }
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const path = join(dir, CONFIG_FILE);
    const found = statSync(path, { throwIfNoEntry: false });
    if (found?.isDirectory())
      throw new McpGenError("config", `${path} is a folder, not a config file`);
    if (found) return path;
    if (statSync(join(dir, ".git"), { throwIfNoEntry: false }) || dir === dirname(dir))
      return undefined;
  }
}

/** Loads the given config file, or the nearest mcp-gen.config.json (see findConfig) when there is one. */
export function loadConfig(explicit: string | undefined, cwd = process.cwd()): LoadedConfig {
  const path = findConfig(explicit, cwd);
  if (path === undefined) return {};
  let text: string;
  let raw: unknown;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new McpGenError("config", `cannot read ${path}: ${(error as Error).message}`);
  }
  try {
    raw = JSON.parse(text);
  } catch (error) {
    const offset = jsonErrorOffset(text);
    const at = lineColumn(text, offset < 0 ? 0 : offset);
    // V8's reason without its character position or its excerpt of the text.
    const reason = (error as Error).message
      .replace(/ in JSON at position \d+.*$/s, "")
      .replace(
        /^Unexpected token '(.)', .* is not valid JSON$/s,
        (_, token: string) => `Unexpected token ${JSON.stringify(token)}`,
      );
    throw new McpGenError("config", `${path}:${at.line}:${at.column}: not valid JSON: ${reason}`);
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new McpGenError("config", `${path}: expected a JSON object`);
  }
  const config: LoadedConfig = { file: path };
  for (const [key, value] of Object.entries(raw)) {
    if (key === "$schema") continue;
    const kind = KEYS[key as keyof Config];
    if (!kind)
      throw new McpGenError(
        "config",
        `${path}: unknown key '${key}'; known keys: ${Object.keys(KEYS).join(", ")}`,
      );
    const ok =
      kind === "string" || kind === "boolean"
        ? typeof value === kind
        : Array.isArray(value) && value.every((v) => typeof v === "string");
    if (!ok)
      throw new McpGenError(
        "config",
        `${path}: '${key}' must be ${kind === "string" ? "a string" : kind === "boolean" ? "true or false" : "an array of strings"}`,
      );
    (config as Record<string, unknown>)[key] = value;
  }
  if (config.revision !== undefined && config.revisions !== undefined) {
    throw new McpGenError("config", `${path}: set either 'revision' or 'revisions', not both`);
  }
  if (config.runtime !== undefined && !RUNTIME_MODES.includes(config.runtime))
    throw new McpGenError(
      "config",
      `${path}: 'runtime' is '${config.runtime}'; use ${RUNTIME_MODES.join(" or ")}`,
    );
  if (config.target !== undefined && !TARGETS.includes(config.target))
    throw new McpGenError(
      "config",
      `${path}: 'target' is '${config.target}'; use ${TARGETS.join(" or ")}`,
    );
  for (const key of ["generators", "revisions"] as const) {
    const problem = config[key] && listProblem(key, config[key]);
    if (problem) throw new McpGenError("config", `${path}: '${key}' ${problem}`);
  }
  for (const key of ["spec", "out"] as const) {
    if (config[key] !== undefined && config[key].trim() === "")
      throw new McpGenError(
        "config",
        `${path}: '${key}' is empty; name a folder, or "." for the config's own`,
      );
  }
  if (config.handlers !== undefined && config.handlers.trim() === "")
    throw new McpGenError("config", `${path}: 'handlers' is empty; name a file, or leave it out`);
  if (config.plugins?.some((p) => p.trim() === ""))
    throw new McpGenError(
      "config",
      `${path}: 'plugins' has an empty name; name a module or a package`,
    );
  const base = dirname(path);
  if (config.spec) config.spec = resolve(base, config.spec);
  if (config.out) config.out = resolve(base, config.out);
  if (config.handlers) config.handlers = resolve(base, config.handlers);
  return config;
}
