import { afterAll, afterEach, beforeAll, vi } from "vitest";

/**
 * The serving modes' start-up warnings (`process.emitWarning`, code MCP_LEGACY_MODE) of a test
 * file, collected instead of printed: call at the file's top level. The array is emptied after
 * each test; other warnings are swallowed too (the spy replaces emitWarning for the file).
 */
export function legacyModeWarnings(): string[] {
  const lines: string[] = [];
  beforeAll(() => {
    vi.spyOn(process, "emitWarning").mockImplementation(((line: string, o?: { code?: string }) => {
      if (o?.code === "MCP_LEGACY_MODE") lines.push(line);
    }) as typeof process.emitWarning);
  });
  afterEach(() => void lines.splice(0));
  afterAll(() => void vi.restoreAllMocks());
  return lines;
}
