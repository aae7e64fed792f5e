import { run } from "../../src/cli/run.js";
import type { Io } from "../../src/cli/commands.js";
import type { CliResult } from "../helpers.js";

/** The CLI in this process: same code path as the binary, without a process per call. */
export async function runHere(args: string[], cwd?: string): Promise<CliResult> {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = { out: (l) => out.push(l), err: (l) => err.push(l) };
  const previous = process.cwd();
  if (cwd) process.chdir(cwd);
  try {
    const status = await run(args, io);
    return {
      status,
      stdout: out.map((l) => `${l}\n`).join(""),
      stderr: err.map((l) => `${l}\n`).join(""),
    };
  } finally {
    process.chdir(previous);
  }
}
