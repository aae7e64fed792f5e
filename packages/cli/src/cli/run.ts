import { Command, CommanderError, Option } from "commander";
import { McpGenError } from "../schema/diagnostics.js";
import { DEFAULT_GENERATOR_NAMES, GENERATOR_NAMES } from "../generators/emit/index.js";
import { VERSION } from "../generators/emit/package-info.js";
import type { Io } from "./io.js";
import { describeFailure, EXIT, exitCodeOf } from "./failure.js";

// main.js hands in its own import() (src/host/import-module.ts says why).
export { useImporter } from "../host/import-module.js";

// The commands load the schema reader (TypeScript) on first use, so --help and usage
// errors answer at once.
const commands = () => import("./commands.js");

const stdio: Io = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

/**
 * Commander's own errors (unknown option, missing argument) as every other failure is said:
 * one line starting `mcp-gen: `, its "(Did you mean --spec?)" line folded in.
 */
function usageLine(text: string): string {
  const trimmed = text.trimEnd();
  if (!trimmed.startsWith("error: ")) return trimmed;
  return `mcp-gen: ${trimmed.slice("error: ".length).replace(/\n\(Did you mean (.+)\?\)$/, " (did you mean $1?)")}`;
}

function buildProgram(io: Io, setExit: (code: number) => void): Command {
  const program = new Command("mcp-gen")
    .description(
      "Generate TypeScript types, validators, dispatchers and clients from the MCP schema",
    )
    .version(VERSION)
    .option("--debug", "on failure, also print the stack trace")
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.out(s.trimEnd()),
      writeErr: (s) => io.err(usageLine(s)),
    });

  const spec = () =>
    new Option(
      "--spec <dir>",
      "spec checkout holding schema/<revision>/schema.ts (config: spec; default: the released revisions an installed mcp-gen ships)",
    );
  const revision = () =>
    new Option(
      "--revision <rev>",
      "a dated revision, 'latest' or 'draft' (config: revision; default latest)",
    );
  const config = () =>
    new Option(
      "--config <file>",
      "config file (default: the nearest mcp-gen.config.json here or in a folder above, up to the repository root)",
    );

  program
    .command("generate", { isDefault: true })
    .description("generate code for one revision into the output folder (the default command)")
    .addOption(spec())
    .addOption(revision())
    .option(
      "--revisions <list>",
      "comma-separated revisions a server speaks: the newest, plus older stateless ones (served per request) and initialize-based ones (through initialize) (config: revisions)",
    )
    .option("--out <dir>", "output folder (config: out; default out)")
    .option(
      "--generators <list>",
      `comma-separated generators to run (config: generators; default: ${DEFAULT_GENERATOR_NAMES.join(", ")}; on request: ${GENERATOR_NAMES.filter((n) => !DEFAULT_GENERATOR_NAMES.includes(n)).join(", ")})`,
    )
    .option(
      "--check",
      "write nothing; exit 3 listing the stale files (and why) if the output differs from what generate would write",
    )
    .option(
      "--watch",
      "regenerate whenever the revision's schema.ts or the config file changes, until interrupted",
    )
    .option(
      "--auth",
      "also emit the auth modules: the HTTP server's JWT verifier (needs jose) and auth.ts, the HTTP client's OAuth client (needs oauth4webapi) (config: auth)",
    )
    .option(
      "--runtime <mode>",
      "how generated code reaches the runtime: package (imports @mcp-gen/runtime, updated by npm) or vendor (a copy in the output, no dependency) (config: runtime; default package)",
    )
    .option(
      "--target <form>",
      "the form of the generated code: ts (TypeScript) or js+dts (JavaScript, declarations and declaration maps into source/, which your tsconfig should exclude) (config: target; default ts)",
    )
    .option(
      "--plugin <module>",
      "a plugin module to run after the built-in generators: a path or an installed package, from this folder; repeatable (config: plugins)",
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .addOption(config())
    .exitOverride()
    .action(async (opts) => {
      if (opts.watch && opts.check)
        throw new McpGenError("usage", "--watch and --check do not go together");
      if (opts.watch) {
        const { watchCommand } = await import("./watch.js");
        setExit(await watchCommand({ ...opts, debug: program.opts()["debug"] === true }, io));
      } else setExit(await (await commands()).generateCommand(opts, io));
    });

  program
    .command("revisions")
    .description("list the dated revisions of a spec checkout, oldest first")
    .addOption(spec())
    .option("--json", "print JSON")
    .addOption(config())
    .exitOverride()
    .action(async (opts) => setExit((await commands()).revisionsCommand(opts, io)));

  program
    .command("inspect")
    .description(
      "print the protocol model of a revision: methods, directions, results, input requests, errors",
    )
    .addOption(spec())
    .addOption(revision())
    .option("--json", "print JSON")
    .addOption(config())
    .exitOverride()
    .action(async (opts) => setExit((await commands()).inspectCommand(opts, io)));

  program
    .command("init")
    .description(
      "create a runnable TypeScript MCP server project (stdio and HTTP) around the generated code",
    )
    .argument("<dir>", "the new project's folder (new or empty)")
    .addOption(spec())
    .addOption(revision())
    .option("--force", "write into a folder that is not empty (existing files are kept)")
    .option(
      "--modern-only",
      "serve only the chosen revision (default: also every initialize-based revision from 2025-03-26 on)",
    )
    .option(
      "--auth",
      "an OAuth-protected HTTP server: resource-server options from the environment, a JWT verifier (jose)",
    )
    .addOption(config())
    .exitOverride()
    .action(async (dir: string, opts) =>
      setExit(await (await commands()).initCommand(dir, opts, io)),
    );

  program
    .command("diff")
    .description(
      "what changed between two revisions, and whose code it breaks: methods, types, fields, unions, error codes, constants, deprecations",
    )
    .requiredOption("--from <rev>", "the older revision")
    .requiredOption("--to <rev>", "the newer revision")
    .addOption(spec())
    .addOption(new Option("--format <format>", "md or json").choices(["md", "json"]).default("md"))
    .option(
      "--fail-on-breaking",
      "exit 1 when any change breaks clients or servers (the diff is printed either way)",
    )
    .addOption(config())
    .exitOverride()
    .action(async (opts) => setExit((await commands()).diffCommand(opts, io)));

  addClientCommand(program, io, setExit, [spec, config]);
  addDevCommand(program, io, setExit, [spec, config]);
  addLintCommand(program, io, setExit, config);

  return program;
}

/** `mcp-gen client`: typed functions for one server's tools (packages/cli/src/cli/client-command.ts). */
function addClientCommand(
  program: Command,
  io: Io,
  setExit: (code: number) => void,
  [spec, config]: [() => Option, () => Option],
): void {
  program
    .command("client")
    .description(
      "typed functions for one server's tools, prompts and resource templates, over the generated client: arguments from each tool's inputSchema, results from its outputSchema, variables from each uriTemplate",
    )
    .requiredOption(
      "--from <source>",
      "the server: an http(s) URL (Streamable HTTP), a command line (stdio, run without a shell), or a .json file holding a tools/list result (or a listing written earlier)",
    )
    .requiredOption(
      "--out <file>",
      "the .ts file to write; the listing it was made from is written beside it as <file>.listing.json",
    )
    .option(
      "--client <dir>",
      "the generated client's folder, which the file imports client.js and types.js from (config: out; default out)",
    )
    .option(
      "--check",
      "write nothing; read the source again and exit 3, naming what changed, if the files no longer match it",
    )
    .option(
      "--header <header>",
      "an HTTP header for the server, 'Name: value' (repeatable)",
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option("--timeout <ms>", "each request's timeout in milliseconds (default 30000)")
    .option(
      "--revisions <list>",
      "revisions the client speaks to the server (default: config revisions when several, else latest and the initialize-based ones)",
    )
    .addOption(spec())
    .addOption(config())
    .exitOverride()
    .action(async (opts) => {
      const { clientCommand } = await import("./client-command.js");
      setExit(await clientCommand(opts, io));
    });
}

/** `mcp-gen dev`: an init project's edit loop (packages/cli/src/cli/dev.ts). */
function addDevCommand(
  program: Command,
  io: Io,
  setExit: (code: number) => void,
  [spec, config]: [() => Option, () => Option],
): void {
  program
    .command("dev")
    .description(
      "run an init project while you edit it: regenerate when the schema or config changes, build on save, restart the server after each good build (a failed build keeps the old one running)",
    )
    .option(
      "--port <port>",
      "the HTTP server's port, 0 for any free one (default: PORT, else 3000)",
    )
    .option(
      "--stdio",
      "build only, and print the command a stdio client runs (no server is started)",
    )
    .option(
      "--inspector",
      "also open the MCP Inspector on the server (npx, needs the network once)",
    )
    .option(
      "--entry <file>",
      "the built file to run (default: http.js, or stdio.js with --stdio, in the tsconfig's outDir)",
    )
    .option("--tsconfig <file>", "the tsconfig to build (default: tsconfig.json beside the config)")
    .addOption(spec())
    .addOption(config())
    .exitOverride()
    .action(async (opts) => {
      const { devCommand } = await import("./dev.js");
      setExit(await devCommand({ ...opts, debug: program.opts()["debug"] === true }, io));
    });
}

/** `mcp-gen lint`: what generating a revision reveals about its schema (packages/cli/src/lint/). */
function addLintCommand(
  program: Command,
  io: Io,
  setExit: (code: number) => void,
  config: () => Option,
): void {
  program
    .command("lint")
    .description(
      "what generating a revision reveals about its schema: undocumented types and fields, unions without a discriminant, irregular requests, deprecations without a SEP, examples that do not validate, schema.ts and schema.json disagreeing (exit 1 on an error finding)",
    )
    .addOption(
      new Option(
        "--spec <dir>",
        "spec checkout holding schema/<revision>/ with schema.ts, schema.json and examples/ (config: spec)",
      ),
    )
    .addOption(
      new Option("--revision <rev>", "a dated revision, 'latest' or 'draft' (default latest)"),
    )
    .option("--format <format>", "text or json (default text)")
    .addOption(config())
    .exitOverride()
    .action(async (opts) => {
      const { lintCommand } = await import("./lint-command.js");
      setExit(await lintCommand(opts, io));
    });
}

/**
 * A first word that names no command (`mcp-gen gen`). Commander would hand it to the default
 * command, generate, as an argument ("too many arguments for 'generate'"); only the program's
 * own --debug may come before a command.
 */
function unknownCommand(program: Command, argv: readonly string[]): string | undefined {
  const word = argv.find((arg) => arg !== "--debug");
  if (word === undefined || word.startsWith("-")) return undefined;
  const names = program.commands.map((c) => c.name());
  if (names.includes(word) || word === "help") return undefined;
  const near = names.filter((name) => name.startsWith(word.slice(0, 3)));
  return `unknown command '${word}'${near.length > 0 ? ` (did you mean ${near.join(" or ")}?)` : ""}; commands: ${names.join(", ")}`;
}

/** Runs the CLI; resolves to the exit code. Every failure is one line on stderr. */
export async function run(argv: string[], io: Io = stdio): Promise<number> {
  let exitCode = 0;
  const program = buildProgram(io, (code) => (exitCode = code));
  const unknown = unknownCommand(program, argv);
  if (unknown) {
    io.err(`mcp-gen: ${unknown}`);
    return EXIT.usage;
  }
  try {
    await program.parseAsync(argv, { from: "user" });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version "errors" are successful exits; the rest are usage errors.
      return error.exitCode === 0 ? 0 : 2;
    }
    // Options before the failure are parsed; --debug anywhere counts, even after a bad option.
    const debug = program.opts()["debug"] === true || argv.includes("--debug");
    for (const line of describeFailure(error, debug)) io.err(line);
    return exitCodeOf(error);
  }
}
