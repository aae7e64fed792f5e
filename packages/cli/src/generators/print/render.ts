import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type HandlebarsModule from "handlebars";
import type * as Prettier from "prettier";

import { TEMPLATE_DIR } from "../emit/package-info.js";
import { importModule } from "../../host/import-module.js";

// Handlebars renders the mostly-text files of `mcp-gen init` (templates/project/: README,
// .gitignore, JSON); generated code and init's TypeScript files (init/scaffolds/) are printed
// by CodeWriter (printer.ts). Handlebars is loaded on first use, so `mcp-gen generate` never
// loads it.
let handlebars: typeof HandlebarsModule | undefined;

function engine(): typeof HandlebarsModule {
  if (handlebars) return handlebars;
  const Handlebars = createRequire(import.meta.url)("handlebars") as typeof HandlebarsModule;
  handlebars = Handlebars.create();
  // Formatting helpers only: templates stay free of logic.
  handlebars.registerHelper(
    "json",
    (value: unknown) => new Handlebars.SafeString(JSON.stringify(value)),
  );
  return handlebars;
}

const compiled = new Map<string, HandlebarsModule.TemplateDelegate>();

export function templatePath(name: string): string {
  return join(TEMPLATE_DIR, name);
}

/** Renders `templates/<name>` with a view model prepared by an emitter. */
export function renderTemplate(name: string, view: object): string {
  let template = compiled.get(name);
  if (!template) {
    template = engine().compile(readFileSync(templatePath(name), "utf8"), {
      noEscape: true,
      strict: true,
    });
    compiled.set(name, template);
  }
  return template(view);
}

const PRETTIER_OPTIONS: Prettier.Options = { parser: "babel-ts", printWidth: 100 };

/**
 * Formats a file that was not printed already laid out, with fixed options so output never
 * depends on the user's config. Prettier is loaded on first use: most generations print
 * every file laid out and never need it (loading and warming it up was most of their time).
 */
export async function formatTypeScript(code: string): Promise<string> {
  const prettier = await importModule<typeof import("prettier")>("prettier");
  return prettier.format(code, PRETTIER_OPTIONS);
}
