import { McpGenError } from "../schema/diagnostics.js";
import { findRevision, SPEC_CLONE_HINT } from "../schema/index.js";
import { DEFAULT_GENERATOR_NAMES, resolveGenerators } from "../generators/emit/index.js";
import { BUNDLED_SPEC_DIR, hasBundledSpec } from "../generators/emit/package-info.js";
import { RUNTIME_MODES, type RuntimeMode } from "../generators/emit/runtime.js";
import { TARGETS, type Target } from "../generators/output/target.js";
import { listProblem, loadConfig, type Config, type LoadedConfig } from "./config.js";

export interface CommonOptions {
  spec?: string;
  revision?: string;
  config?: string;
}

export type GenerateOptions = CommonOptions & {
  out?: string;
  generators?: string;
  revisions?: string;
  auth?: boolean;
  runtime?: string;
  target?: string;
};

export interface Settings {
  spec: string;
  revision: string;
  revisions: string[] | undefined;
  out: string;
  generators: string[] | undefined;
  auth: boolean;
  runtime: RuntimeMode;
  /** The form of the generated code: `ts` or `js+dts`. */
  target: Target;
  /** The config's `handlers` file (absolute), when the handlers live outside `out`. */
  handlers: string | undefined;
  /** The config file read, if any, and which settings came from it: errors about them name it. */
  config: LoadedConfig;
  fromConfig: ReadonlySet<keyof Config>;
}

/**
 * The spec folder from the flag or the config, else the released revisions an installed
 * mcp-gen ships (bundled-spec/); every command needs one.
 */
export function specOf(options: CommonOptions, config: Config): string {
  const spec = options.spec ?? config.spec;
  if (spec) return spec;
  if (hasBundledSpec()) return BUNDLED_SPEC_DIR;
  throw new McpGenError(
    "usage",
    `no spec folder: pass --spec DIR or set "spec" in mcp-gen.config.json (a checkout of the MCP specification repository: ${SPEC_CLONE_HINT}; an installed mcp-gen ships the released revisions, a development checkout does not)`,
  );
}

/** --runtime over the config's (checked when read) over "package". */
function runtimeMode(flag: string | undefined, config: Config): RuntimeMode {
  if (flag === undefined) return config.runtime ?? "package";
  if ((RUNTIME_MODES as readonly string[]).includes(flag)) return flag as RuntimeMode;
  throw new McpGenError("usage", `--runtime is '${flag}'; use ${RUNTIME_MODES.join(" or ")}`);
}

/** --target over the config's (checked when read) over "ts". */
function targetOf(flag: string | undefined, config: Config): Target {
  if (flag === undefined) return config.target ?? "ts";
  if ((TARGETS as readonly string[]).includes(flag)) return flag as Target;
  throw new McpGenError("usage", `--target is '${flag}'; use ${TARGETS.join(" or ")}`);
}

/** A comma-separated flag as a list; an empty one (`--generators "$GENS"`, unset) is refused. */
function listFlag(
  flag: "generators" | "revisions",
  value: string | undefined,
): string[] | undefined {
  if (value === undefined) return undefined;
  const list = value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const problem = listProblem(flag, list);
  if (problem)
    throw new McpGenError(list.length === 0 ? "usage" : "config", `--${flag} ${problem}`);
  return list;
}

/** The settings of a command: flags over the config over defaults, each list checked. */
export function settings(options: GenerateOptions): Settings {
  const config = loadConfig(options.config);
  const spec = specOf(options, config);
  if (options.revision !== undefined && options.revisions !== undefined) {
    throw new McpGenError("usage", "pass either --revision or --revisions, not both");
  }
  // An empty path (`--out "$OUT"` with OUT unset) is not "here": refuse it rather than guess.
  if (options.out !== undefined && options.out.trim() === "") {
    throw new McpGenError(
      "usage",
      '--out is empty (an unset variable?): name the output folder, or "." for this one',
    );
  }
  const revisions = listFlag("revisions", options.revisions);
  const generators = listFlag("generators", options.generators);
  const fromConfig = new Set<keyof Config>(
    options.spec === undefined && config.spec !== undefined ? ["spec"] : [],
  );
  const pick = <K extends keyof Config>(
    key: K,
    flag: Config[K] | undefined,
  ): Config[K] | undefined => {
    if (flag !== undefined || config[key] === undefined) return flag;
    fromConfig.add(key);
    return config[key];
  };
  return {
    spec,
    revisions: options.revision !== undefined ? undefined : pick("revisions", revisions),
    revision: pick("revision", options.revision) ?? "latest",
    out: options.out ?? config.out ?? "out",
    generators: pick("generators", generators),
    auth: options.auth ?? config.auth ?? false,
    runtime: runtimeMode(options.runtime, config),
    target: targetOf(options.target, config),
    handlers: config.handlers,
    config,
    fromConfig,
  };
}

/**
 * An error about settings from flags or the config: a config key is named as such ('revisions'),
 * after the config file's path; a flag as the flag (--revisions).
 */
function settingsError(
  s: Settings,
  keys: readonly ("revisions" | "generators")[],
  say: (name: (key: "revisions" | "generators") => string) => string,
): McpGenError {
  const name = (key: "revisions" | "generators") =>
    s.fromConfig.has(key) ? `'${key}'` : `--${key}`;
  const inFile = keys.some((key) => s.fromConfig.has(key)) ? `${s.config.file}: ` : "";
  return new McpGenError("config", `${inFile}${say(name)}`);
}

/** The settings an error of each code is about: when the config set them, it names the config. */
const ABOUT: Partial<Record<McpGenError["code"], readonly (keyof Config)[]>> = {
  "spec-not-found": ["spec"],
  "revision-not-found": ["revision", "revisions"],
  config: ["revisions"],
};

/** Runs `action`; an error about what the config set (its spec folder, its revisions) names the config file. */
export function blameConfig<T>(s: Settings, action: () => T): T {
  try {
    return action();
  } catch (error) {
    const file = s.config.file;
    if (!(error instanceof McpGenError) || file === undefined || error.message.startsWith(file))
      throw error;
    if (!ABOUT[error.code]?.some((key) => s.fromConfig.has(key))) throw error;
    throw new McpGenError(error.code, `${file}: ${error.message}`);
  }
}

/**
 * The revisions of one generation, checked before any schema is read: two names for one
 * revision (`latest` and its date) are refused, and older revisions need a generator that
 * serves them (the dispatcher and the client emit legacy/<revision>/ and eras.ts).
 */
export function revisionNames(s: Settings): string[] {
  const names = s.revisions ?? [s.revision];
  if (names.length < 2) return names;
  const resolved = blameConfig(s, () => names.map((name) => findRevision(s.spec, name).name));
  const same = resolved.findIndex((name, i) => resolved.indexOf(name) !== i);
  if (same >= 0) {
    const first = names[resolved.indexOf(resolved[same]!)]!;
    throw settingsError(
      s,
      ["revisions"],
      (name) =>
        `${name("revisions")} names ${resolved[same]} twice ('${first}' and '${names[same]}')`,
    );
  }
  const chosen = resolveGenerators(s.generators ?? DEFAULT_GENERATOR_NAMES);
  if (!chosen.some((g) => g.eras)) {
    const older = [...resolved].sort().reverse().slice(1);
    throw settingsError(
      s,
      ["revisions", "generators"],
      (name) =>
        `${name("revisions")} lists older revisions (${older.join(", ")}), but only the dispatcher and client generators serve them (legacy/<revision>/); ${name("generators")} chose ${chosen.map((g) => g.name).join(", ")}: add dispatcher or client, or generate one revision`,
    );
  }
  return names;
}
