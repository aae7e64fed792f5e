import { authScaffold } from "./auth.js";
import { devAuthScaffold } from "./dev-auth.js";
import { handlersScaffold } from "./handlers.js";
import { httpScaffold } from "./http.js";
import { requestStateScaffold } from "./request-state.js";
import { serverTestScaffold } from "./server-test.js";
import { serverScaffold } from "./server.js";
import { stdioScaffold } from "./stdio.js";
import { validateScaffold } from "./validate.js";
import type { Scaffold, ScaffoldView } from "./view.js";
import type { EmittedFile } from "../../print/emitted-file.js";
import { isPrinted } from "../../print/generated-file.js";

export type { Scaffold, ScaffoldView } from "./view.js";
export { handlersScaffold };

/** Every TypeScript file `mcp-gen init` writes, in the order it writes them. */
export const SCAFFOLDS: readonly Scaffold[] = [
  handlersScaffold,
  serverScaffold,
  requestStateScaffold,
  validateScaffold,
  stdioScaffold,
  httpScaffold,
  serverTestScaffold,
  authScaffold,
  devAuthScaffold,
];

/**
 * The TypeScript files of a project: every scaffold it has (the `--auth` ones only with it).
 * The one printer (test/one-printer.test.ts): a file not printed by GeneratedFile is refused.
 */
export function printScaffolds(view: ScaffoldView): EmittedFile[] {
  return SCAFFOLDS.filter((s) => !s.authOnly || view.auth).map((s) => {
    const file = s.print(view);
    if (!isPrinted(file))
      throw new Error(`internal: ${file.path} was not printed by GeneratedFile`);
    return file;
  });
}
