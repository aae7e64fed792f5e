import { watch, type FSWatcher } from "node:fs";
import { basename, dirname } from "node:path";
import { findRevision } from "../schema/index.js";
import { display } from "./check.js";
import { generateCommand } from "./commands.js";
import { findConfig } from "./config.js";
import { describeFailure } from "./failure.js";
import type { Io } from "./io.js";
import { blameConfig, revisionNames, settings, type GenerateOptions } from "./settings.js";

/** How long a burst of file events (an editor's save is often several) settles before acting. */
export const SETTLE_MS = 100;

export interface GenerationWatch {
  /** Stops watching; resolves once a generation under way has finished. */
  close(): Promise<void>;
}

/**
 * A watcher on one file, by its folder: editors often save by replacing the file, which ends
 * a watch on the file itself. Events for other files in the folder are ignored.
 */
function watchFile(file: string, changed: () => void): FSWatcher {
  const name = basename(file);
  return watch(dirname(file), (_event, which) => {
    if (which === null || which === name) changed();
  });
}

/** The newest revision's schema.ts (the one a spec bump edits), as the settings name it now. */
function newestSchema(options: GenerateOptions): string {
  const s = settings(options);
  const revisions = blameConfig(s, () =>
    revisionNames(s).map((name) => findRevision(s.spec, name)),
  );
  return revisions.sort((a, b) => b.name.localeCompare(a.name))[0]!.schemaTs;
}

/**
 * Generates, then again whenever the newest revision's schema.ts or the config file changes
 * (debounced). A failure (a bad schema, a broken config) is reported and the output left as
 * it was; the next good save regenerates. `generated` runs after each generation that
 * succeeded. The first generation is done when this resolves; failing settings then throw.
 */
export async function watchGeneration(
  options: GenerateOptions & { debug?: boolean },
  io: Io,
  generated: () => void | Promise<void> = () => {},
): Promise<GenerationWatch> {
  const config = findConfig(options.config);
  let schema = newestSchema(options);
  const once = async () => {
    try {
      if ((await generateCommand(options, io)) === 0) await generated();
    } catch (error) {
      // Reported, and the watch goes on: the next save may fix it.
      for (const line of describeFailure(error, options.debug === true)) io.err(line);
    }
  };
  await once();
  let timer: NodeJS.Timeout | undefined;
  let running = Promise.resolve();
  const later = (action: () => Promise<void>) => {
    clearTimeout(timer);
    timer = setTimeout(() => (running = running.then(action)), SETTLE_MS);
  };
  let schemaWatcher = watchFile(schema, () => later(once));
  // A changed config may name another spec or revision: the schema watched follows it.
  const configWatcher =
    config === undefined
      ? undefined
      : watchFile(config, () =>
          later(async () => {
            try {
              const now = newestSchema(options);
              if (now !== schema) {
                schemaWatcher.close();
                schema = now;
                schemaWatcher = watchFile(schema, () => later(once));
              }
            } catch {
              // generate says what is wrong with the config, just below.
            }
            await once();
          }),
        );
  // Said once the watchers are armed: a save right after this line is seen.
  io.out(
    `mcp-gen: watching ${display(schema)}${config ? ` and ${display(config)}` : ""} (Ctrl-C to stop)`,
  );
  return {
    async close() {
      clearTimeout(timer);
      schemaWatcher.close();
      configWatcher?.close();
      await running;
    },
  };
}

/** Resolves at the first SIGINT or SIGTERM (Ctrl-C, or a stop from a supervisor). */
export function interrupted(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      resolve();
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
}

/** `generate --watch`: generate, then again on each change of the schema or the config, until interrupted. */
export async function watchCommand(
  options: GenerateOptions & { debug?: boolean },
  io: Io,
): Promise<number> {
  const watching = await watchGeneration(options, io);
  await interrupted();
  await watching.close();
  return 0;
}
