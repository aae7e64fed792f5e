import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { McpGenError } from "../schema/diagnostics.js";

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
}

const KEYS: Record<keyof Config, "string" | "string[]" | "boolean"> = {
  spec: "string",
  revision: "string",
  revisions: "string[]",
  out: "string",
  generators: "string[]",
  auth: "boolean",
};

/** Loads the given config file, or ./mcp-gen.config.json when there is one. */
export function loadConfig(explicit: string | undefined, cwd = process.cwd()): Config {
  const path = resolve(cwd, explicit ?? CONFIG_FILE);
  if (!existsSync(path)) {
    if (explicit) throw new McpGenError("config", `config file not found: ${explicit}`);
    return {};
  }
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new McpGenError("config", `${path}: not valid JSON: ${(error as Error).message}`);
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new McpGenError("config", `${path}: expected a JSON object`);
  }
  const config: Config = {};
  for (const [key, value] of Object.entries(raw)) {
    if (key === "$schema") continue;
    const kind = KEYS[key as keyof Config];
    if (!kind) throw new McpGenError("config", `${path}: unknown key '${key}'; known keys: ${Object.keys(KEYS).join(", ")}`);
    const ok = kind === "string" || kind === "boolean" ? typeof value === kind : Array.isArray(value) && value.every((v) => typeof v === "string");
    if (!ok) throw new McpGenError("config", `${path}: '${key}' must be ${kind === "string" ? "a string" : kind === "boolean" ? "true or false" : "an array of strings"}`);
    (config as Record<string, unknown>)[key] = value;
  }
  if (config.revision !== undefined && config.revisions !== undefined) {
    throw new McpGenError("config", `${path}: set either 'revision' or 'revisions', not both`);
  }
  for (const key of ["spec", "out"] as const) {
    if (config[key] !== undefined && config[key].trim() === "") throw new McpGenError("config", `${path}: '${key}' is empty; name a folder, or "." for the config's own`);
  }
  const base = dirname(path);
  if (config.spec) config.spec = resolve(base, config.spec);
  if (config.out) config.out = resolve(base, config.out);
  return config;
}
