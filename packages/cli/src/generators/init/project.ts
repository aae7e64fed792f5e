import {
  existsSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve } from "node:path";
import { McpGenError } from "../../schema/diagnostics.js";
import { listRevisions, loadRevision, type LoadedRevision } from "../../schema/index.js";
import { isInitializeBased, isStateless, runtimeFacts } from "../../schema/runtime-protocol.js";
import { generate, generatedWith } from "../emit/index.js";
import { isHandlersSkeleton, servedMethods } from "../output/kept-files.js";
import { applyOutput, outputFailure, planOutput } from "../output/output.js";
import { dependencySpec } from "./install-source.js";
import {
  BUNDLED_SPEC_DIR,
  PACKAGE_NAME,
  PACKAGE_ROOT,
  RUNTIME_PACKAGE,
  RUNTIME_ROOT,
  RUNTIME_VERSION,
  VERSION,
} from "../emit/package-info.js";
import { renderTemplate } from "../print/render.js";
import { makeDirs } from "../output/make-dirs.js";
import { handlersScaffold, printScaffolds } from "./scaffolds/index.js";
import type { Target } from "../output/target.js";

/** The target of an init project's generated code (its config says so, for generate). */
const PROJECT_TARGET: Target = "js+dts";

// `mcp-gen init`: a runnable TypeScript MCP server project around the generated code.

export interface InitOptions {
  spec: string;
  revision: string;
  /** Write into a folder that is not empty (existing files are still never overwritten). */
  force?: boolean;
  /** Serve only the chosen (stateless) revision: legacy clients get an error naming it. */
  modernOnly?: boolean;
  /** An OAuth-protected HTTP server: resource-server options from the environment, the JWT verifier, jose (and the generated client's OAuth client, oauth4webapi). */
  auth?: boolean;
}

/** The oldest revision a dual-era project serves by default: the first of the clients in use today. */
export const OLDEST_LEGACY_REVISION = "2025-03-26";

/**
 * The older revisions a dual-era project serves, newest first: the initialize-based ones from
 * OLDEST_LEGACY_REVISION on and, after a spec bump, the older stateless ones with a protocol
 * version of their own (served per request, as `mcp-gen generate --revisions` serves them),
 * so clients of the previous release keep working.
 */
function olderRevisions(spec: string, newest: LoadedRevision): LoadedRevision[] {
  const versions = new Set([newest.protocol.protocolVersion]);
  return listRevisions(spec)
    .filter((r) => r.name >= OLDEST_LEGACY_REVISION && r.name < newest.revision.name)
    .map((r) => loadRevision(spec, r.name))
    .reverse()
    .filter((l) => {
      if (isInitializeBased(l.protocol)) return true;
      const version = l.protocol.protocolVersion;
      if (!isStateless(l.protocol) || version === undefined || versions.has(version)) return false;
      versions.add(version);
      return true;
    });
}

export interface InitResult {
  written: string[];
  kept: string[];
}

/**
 * The project's text files, rendered by Handlebars: template and target path. Its TypeScript
 * files are printed by GeneratedFile (scaffolds/), as generated code is. The JSON files stay
 * templates: their shape reads best as the file itself, and every value in them goes through
 * the `json` helper (JSON.stringify), so a name from the user is escaped there too.
 */
const TEXT_FILES: [template: string, path: string][] = [
  ["package.json.hbs", "package.json"],
  ["tsconfig.json.hbs", "tsconfig.json"],
  ["mcp-gen.config.json.hbs", "mcp-gen.config.json"],
  ["gitignore.hbs", ".gitignore"],
  ["README.md.hbs", "README.md"],
];

/**
 * The version of `name` mcp-gen itself is built and tested with: a dev dependency, or a
 * dependency (typescript, which generate runs). Never "*": a project left to the newest
 * release would build with a compiler its generated code was never checked against.
 */
function testedVersion(name: string): string {
  const pkg = JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8")) as {
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  };
  const version = pkg.devDependencies?.[name] ?? pkg.dependencies?.[name];
  if (version === undefined) throw new Error(`mcp-gen's package.json names no ${name}`);
  return version;
}

export async function initProject(dir: string, options: InitOptions): Promise<InitResult> {
  const target = resolve(dir);
  const found = statSync(target, { throwIfNoEntry: false });
  if (found && !found.isDirectory()) {
    throw new McpGenError(
      "output-conflict",
      `${dir} is a file, not a folder; mcp-gen init writes only into a new or empty folder`,
    );
  }
  if (found && readdirSync(target).length > 0 && !options.force) {
    throw new McpGenError(
      "output-conflict",
      `${dir} is not empty; mcp-gen init writes only into a new or empty folder (--force to add to it; existing files are kept)`,
    );
  }
  const loaded = loadRevision(options.spec, options.revision);
  const { features } = runtimeFacts(loaded);
  if (!features.perRequestVersion || !features.mrtr) {
    throw new McpGenError(
      "usage",
      `mcp-gen init needs a revision with stateless requests and input_required (2026-07-28 or later); ${loaded.revision.name} has neither`,
    );
  }
  const legacy = options.modernOnly ? [] : olderRevisions(options.spec, loaded);
  // The released revisions an installed mcp-gen ships are its default: the project's config
  // names no spec then, so its own mcp-gen (the dev dependency) uses its own.
  const bundled = resolve(options.spec) === BUNDLED_SPEC_DIR;
  const spec = bundled
    ? undefined
    : isAbsolute(options.spec)
      ? relative(target, options.spec)
      : relative(target, resolve(options.spec));
  const project = {
    name:
      basename(target)
        .toLowerCase()
        .replace(/[^a-z0-9-._]/g, "-") || "mcp-server",
    revision: loaded.revision.name,
    revisions: [loaded, ...legacy].map((l) => l.revision.name),
    dualEra: legacy.length > 0,
    spec: spec === undefined ? undefined : spec || ".",
    packageName: PACKAGE_NAME,
    // What resolves for the way this mcp-gen was installed (checkout, tarball, registry).
    mcpGenSpec: dependencySpec(
      { name: PACKAGE_NAME, version: VERSION, root: realpathSync(PACKAGE_ROOT) },
      target,
    ),
    runtimePackage: RUNTIME_PACKAGE,
    runtimeSpec: dependencySpec(
      { name: RUNTIME_PACKAGE, version: RUNTIME_VERSION, root: RUNTIME_ROOT },
      target,
    ),
    typescriptVersion: testedVersion("typescript"),
    typesNodeVersion: testedVersion("@types/node"),
    // defineTools' JSON Schema validator (src/validate.ts): the versions mcp-gen's own tests run.
    ajvVersion: `^${testedVersion("ajv")}`,
    ajvFormatsVersion: `^${testedVersion("ajv-formats")}`,
    auth: options.auth === true,
    joseVersion: `^${testedVersion("jose")}`,
    oauth4webapiVersion: `^${testedVersion("oauth4webapi")}`,
  };
  // The generated protocol code. The project brings its own handlers.ts, so the generated
  // skeleton is left out; what it has an entry for and the project's does not serve gets an
  // entry set to notImplemented (code generate reads, where a comment would not count), so
  // that generate notes only methods a later spec bump adds.
  // JavaScript with declarations (target.ts): the project's tsc reads the generated code's
  // .d.ts, which skipLibCheck skips, instead of checking it as the project's own source.
  const emitted = await generate(loaded, undefined, {
    legacy,
    auth: project.auth,
    target: PROJECT_TARGET,
  });
  const view = { name: project.name, auth: project.auth, dualEra: project.dualEra };
  const ours = servedMethods(handlersScaffold.print({ ...view, unserved: [] }).code);
  const unserved = (emitted.find(isHandlersSkeleton)?.handlerMethods ?? []).filter(
    (m) => !ours.has(m),
  );
  const result: InitResult = { written: [], kept: [] };
  // Everything is prepared and checked before the first write: a failure (a user-owned
  // file where a generated one goes, say) leaves the folder as it was.
  const files: { path: string; text: string }[] = [];
  const candidates = [
    ...TEXT_FILES.map(([template, path]) => ({
      path,
      text: renderTemplate(`project/${template}`, project),
    })),
    // Printed by GeneratedFile, each (printScaffolds refuses any other).
    ...printScaffolds({ ...view, unserved }).map((file) => ({ path: file.path, text: file.code })),
  ];
  for (const file of candidates) {
    if (existsSync(join(target, file.path))) result.kept.push(file.path);
    else files.push(file);
  }
  const out = join(target, "src", "mcp");
  const generated = emitted.filter((f) => !isHandlersSkeleton(f));
  const plan = planOutput(
    out,
    generated,
    generatedWith([loaded, ...legacy], undefined, { auth: project.auth, target: PROJECT_TARGET }),
  );
  writeProjectFiles(dir, target, files);
  result.written.push(...files.map((f) => f.path));
  applyOutput(out, plan);
  result.written.push(...plan.write.map((f) => `src/mcp/${f.path}`));
  result.kept.push(...plan.kept.map((p) => `src/mcp/${p}`));
  return result;
}

/**
 * Writes the project's own files, all new (existing ones were kept). A failure removes what
 * this call wrote, files and the folders it made, and is one line: the folder is as it was.
 */
function writeProjectFiles(
  dir: string,
  target: string,
  files: { path: string; text: string }[],
): void {
  const made: string[] = [];
  const wrote: string[] = [];
  let into = target;
  try {
    for (const { path, text } of files) {
      into = dirname(join(target, path));
      const created = makeDirs(into);
      if (created) made.push(created);
      writeFileSync(join(target, path), text, { flag: "wx" });
      wrote.push(join(target, path));
    }
  } catch (error) {
    for (const file of wrote.reverse()) rmSync(file, { force: true });
    for (const folder of made.reverse()) rmSync(folder, { recursive: true, force: true });
    throw outputFailure(dir, error, "could not write", into);
  }
}
