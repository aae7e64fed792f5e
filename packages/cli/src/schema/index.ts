import type { SchemaModel } from "./model.js";
import { buildProtocol, type ProtocolModel } from "./protocol.js";
import { stackOverflowError } from "./nesting.js";
import { readSchemaFile, readSchemaFileCheckedBy } from "./reader.js";
import type { TypeCheckElsewhere } from "./type-check.js";
import { findRevision, type Revision } from "./revisions.js";

export interface LoadedRevision {
  revision: Revision;
  model: SchemaModel;
  protocol: ProtocolModel;
  /**
   * When tsc's check of the schema ran elsewhere (loadRevision's `typeCheckElsewhere`): settles
   * with its verdict, rejecting with tsc's first error. Undefined when it ran while reading.
   */
  typeChecked?: Promise<void>;
  /**
   * With `typeChecked`: throws tsc's error now if there is one (checking in place when the
   * verdict is not in), called before reporting another error so that tsc's comes first.
   */
  checkTypesNow?: () => void;
}

/**
 * Reads one revision of a spec checkout: the schema model and the protocol derived from it.
 * With `typeCheckElsewhere`, tsc's check may still be running when this returns: await
 * `typeChecked` before acting on the result (writing output).
 */
export function loadRevision(
  specDir: string,
  name = "latest",
  typeCheckElsewhere?: TypeCheckElsewhere,
): LoadedRevision {
  const revision = findRevision(specDir, name);
  if (!typeCheckElsewhere) return withProtocol(revision, readSchemaFile(revision.schemaTs));
  const read = readSchemaFileCheckedBy(revision.schemaTs, typeCheckElsewhere);
  try {
    const { typeChecked, checkTypesNow } = read;
    return { ...withProtocol(revision, read.model), typeChecked, checkTypesNow };
  } catch (error) {
    read.checkTypesNow();
    throw error;
  }
}

function withProtocol(revision: Revision, model: SchemaModel): LoadedRevision {
  try {
    return { revision, model, protocol: buildProtocol(model) };
  } catch (error) {
    throw stackOverflowError(error, revision.schemaTs, "deriving the protocol");
  }
}

export {
  findRevision,
  hasDraft,
  listRevisions,
  SPEC_CLONE_HINT,
  type Revision,
} from "./revisions.js";
export { McpGenError, type IssueCode } from "./diagnostics.js";
export type { ProtocolModel, MethodInfo, Direction, Side } from "./protocol.js";
export type { SchemaModel } from "./model.js";
