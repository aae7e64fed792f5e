import type * as TS from "typescript";
import type { SchemaModel, SourceLocation } from "./model.js";
import { stackOverflowError } from "./nesting.js";
import { checkSchemaWithTsc, tscFailure, type TscError } from "./tsc-check.js";

// tsc's check of a schema is about a tenth of a cold generation. The generate command runs it
// in a worker thread (cli/type-check-thread.ts) while this thread reads the schema and
// generates; the output is written only once the verdict is in, and an error found in the
// meantime waits for it, so tsc's error is reported first, as when the check runs in place.

/**
 * Runs tsc's check of a schema's text somewhere else (a worker thread), so reading and
 * generating need not wait for it; undefined when it cannot, and the check runs in place.
 */
export type TypeCheckElsewhere = (text: string) => Promise<TscError | undefined> | undefined;

/** A schema read while tsc's check of it may still be running elsewhere. */
export interface ReadSchema {
  model: SchemaModel;
  /** Settles with tsc's verdict: rejects with its first error, as readSchemaText throws it. */
  typeChecked: Promise<void>;
  /**
   * Throws tsc's error now if there is one (checking in place when the verdict is not in):
   * called before reporting another error, so tsc's comes first, as when the check runs in place.
   */
  checkTypesNow(): void;
}

/** tsc's check: in place (throwing), or elsewhere, with its verdict to come. */
export function typeCheck(
  text: string,
  elsewhere: TypeCheckElsewhere | undefined,
  program: TS.Program,
  sourceFile: TS.SourceFile,
  locate: (pos: number) => SourceLocation,
): Pick<ReadSchema, "typeChecked" | "checkTypesNow"> {
  const pending = elsewhere?.(text);
  if (!pending) {
    checkSchemaWithTsc(program, sourceFile, locate);
    return { typeChecked: Promise.resolve(), checkTypesNow: () => {} };
  }
  // The program is kept only until the verdict is in (it is most of a read's memory).
  let inPlace: { program: TS.Program; sourceFile: TS.SourceFile } | undefined = {
    program,
    sourceFile,
  };
  let verdict: TscError | undefined;
  const settle = (error: TscError | undefined) => {
    verdict = error;
    inPlace = undefined;
    if (error) throw tscFailure(error, locate);
  };
  // In place, when the check elsewhere failed (its thread died, or it threw) or its verdict is
  // needed before it is in; a schema too deep for tsc is the error it is when read in place.
  const checkHere = (held: { program: TS.Program; sourceFile: TS.SourceFile }) => {
    try {
      checkSchemaWithTsc(held.program, held.sourceFile, locate);
    } catch (error) {
      throw stackOverflowError(error, locate(0).file, "reading the schema");
    }
  };
  const typeChecked = pending.then(settle, () => {
    const held = inPlace!;
    inPlace = undefined;
    checkHere(held);
  });
  // Awaited by the caller; until then a rejection is not "unhandled".
  typeChecked.catch(() => {});
  const checkTypesNow = () => {
    if (verdict) throw tscFailure(verdict, locate);
    if (inPlace) checkHere(inPlace);
  };
  return { typeChecked, checkTypesNow };
}
