// Deprecations that show in an editor: what 2026-07-28 deprecates (sampling and roots,
// SEP-2577) is struck through where a user's code touches it. Editors strike through what
// TypeScript's language service reports as suggestion diagnostics 6385 ("'X' is deprecated")
// and 6387 ("The signature ... is deprecated"); this file asks the language service for them,
// over the generated 2026-07-28 output and a small user file, at each deprecated use, and
// asserts that a use of what is not deprecated reports nothing.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { beforeAll, describe, expect } from "vitest";
import { generatedFiles, STRICT_OPTIONS, tempDir, writeFiles } from "./helpers.js";
import { itCompiles } from "./support/compile.js";

const DEPRECATED_CODES = new Set([6385, 6387]);

/** Each line of the user file ends with the API it touches, and `deprecated` when it is. */
const USER_FILE = `
import {
  createClient,
  createServerDispatcher,
  inputRequired,
  withInput,
  type ElicitRequest,
  type InputHandlers,
  type ListRootsRequest, // import ListRootsRequest: deprecated
  type Transport,
} from "./out/index.js";

declare const transport: Transport;
const FORM = { mode: "form", message: "Go?", requestedSchema: { type: "object", properties: {} } } as const;

export type Roots = ListRootsRequest; // type ListRootsRequest: deprecated
export type Elicit = ElicitRequest; // type ElicitRequest

export const answersRoots = createClient({ // createClient answering roots/list: deprecated
  transport,
  inputHandlers: { "roots/list": () => ({ roots: [] }), "elicitation/create": () => ({ action: "decline" }) },
});
export const samples = createClient({ // createClient answering sampling/createMessage: deprecated
  transport,
  inputHandlers: { "sampling/createMessage": () => ({ role: "assistant", content: { type: "text", text: "" }, model: "m" }) },
});
export const elicits = createClient({ // createClient answering elicitation/create only
  transport,
  inputHandlers: { "elicitation/create": () => ({ action: "decline" }) },
});
const handlers: InputHandlers = { "elicitation/create": () => ({ action: "decline" }) };
export const wide = createClient({ transport, inputHandlers: handlers }); // createClient with InputHandlers
export const rootsHandler = handlers["roots/list"]; // inputHandlers["roots/list"]: deprecated
export const elicitHandler = handlers["elicitation/create"]; // inputHandlers["elicitation/create"]

export const dispatcher = createServerDispatcher({
  "tools/list": () => ({ tools: [], ttlMs: 0, cacheScope: "private" }),
  "tools/call": async (params, ctx) => {
    if (params.name === "roots")
      return inputRequired(ctx, { inputRequests: { r: { method: "roots/list" } } }); // inputRequired asking roots/list: deprecated
    if (params.name === "confirm")
      return inputRequired(ctx, { inputRequests: { c: { method: "elicitation/create", params: FORM } } }); // inputRequired asking elicitation/create
    return { content: [] };
  },
});

export const straight = withInput(
  async (_args: unknown, _ctx, input) => {
    const roots = await input.listRoots(); // input.listRoots: deprecated
    const sampled = await input.createMessage({ messages: [], maxTokens: 1 }); // input.createMessage: deprecated
    const answer = await input.elicit(FORM); // input.elicit
    return { content: [], roots, sampled, answer };
  },
  { secret: "a-test-secret-of-at-least-32-chars!!" },
);
`;

/** The language service over one folder's files, with the strict flags generated code meets. */
function languageService(dir: string, rootNames: string[]): ts.LanguageService {
  const host: ts.LanguageServiceHost = {
    getScriptFileNames: () => rootNames,
    getScriptVersion: () => "1",
    getScriptSnapshot: (file) =>
      ts.sys.fileExists(file)
        ? ts.ScriptSnapshot.fromString(readFileSync(file, "utf8"))
        : undefined,
    getCurrentDirectory: () => dir,
    getCompilationSettings: () => ({ ...STRICT_OPTIONS, skipLibCheck: true }),
    getDefaultLibFileName: (options) => ts.getDefaultLibFilePath(options),
    fileExists: ts.sys.fileExists,
    readFile: ts.sys.readFile,
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
  };
  return ts.createLanguageService(host, ts.createDocumentRegistry());
}

describe("deprecated APIs of 2026-07-28 as an editor shows them", () => {
  let service: ts.LanguageService;
  let user: string;

  beforeAll(async () => {
    const dir = tempDir("mcp-gen-deprecations-");
    writeFiles(join(dir, "out"), await generatedFiles("2026-07-28"));
    user = join(dir, "user.ts");
    writeFiles(dir, [{ path: "user.ts", content: USER_FILE }]);
    service = languageService(dir, [user]);
  });

  itCompiles("the user file type-checks under the strict flags", () => {
    const errors = service.getSemanticDiagnostics(user).map((d) => {
      const at = d.file!.getLineAndCharacterOfPosition(d.start!);
      return `${at.line + 1}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
    });
    expect(errors).toEqual([]);
  });

  itCompiles("each deprecated use is reported deprecated, and nothing else is", () => {
    const lines = USER_FILE.split("\n");
    // The comment closing a line names the API used there; `: deprecated` marks the deprecated.
    const tagged = lines.flatMap((line, i) => {
      const m = / \/\/ (.+)$/.exec(line);
      return m
        ? [
            {
              line: i,
              api: m[1]!.replace(/: deprecated$/, ""),
              deprecated: m[1]!.endsWith(": deprecated"),
            },
          ]
        : [];
    });
    const reported = new Set(
      service
        .getSuggestionDiagnostics(user)
        .filter((d) => DEPRECATED_CODES.has(d.code))
        .map((d) => d.file!.getLineAndCharacterOfPosition(d.start!).line),
    );
    const seen = tagged.map(({ line, api }) => ({ api, deprecated: reported.has(line) }));
    expect(seen).toEqual(tagged.map(({ api, deprecated }) => ({ api, deprecated })));
    // Both kinds are present: a deprecated declaration (6385) and a deprecated overload (6387).
    const codes = new Set(service.getSuggestionDiagnostics(user).map((d) => d.code));
    expect([...codes].filter((c) => DEPRECATED_CODES.has(c)).sort()).toEqual([6385, 6387]);
    // Nothing is reported outside the tagged lines.
    const untagged = [...reported].filter((l) => !tagged.some((t) => t.line === l));
    expect(untagged.map((l) => lines[l])).toEqual([]);
  });
});
