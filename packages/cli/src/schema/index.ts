import type { SchemaModel } from "./model.js";
import { buildProtocol, type ProtocolModel } from "./protocol.js";
import { stackOverflowError } from "./nesting.js";
import { readSchemaFile } from "./reader.js";
import { findRevision, type Revision } from "./revisions.js";

export interface LoadedRevision {
  revision: Revision;
  model: SchemaModel;
  protocol: ProtocolModel;
}

/** Reads one revision of a spec checkout: the schema model and the protocol derived from it. */
export function loadRevision(specDir: string, name = "latest"): LoadedRevision {
  const revision = findRevision(specDir, name);
  const model = readSchemaFile(revision.schemaTs);
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
