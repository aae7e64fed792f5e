import type { LoadedRevision } from "../schema/index.js";
import {
  isTypeDeclaration,
  tagText,
  type Doc,
  type ObjectMembers,
  type TypeDeclaration,
  type TypeExpr,
} from "../schema/model.js";
import type { CapabilityNode, ProtocolModel } from "../schema/protocol-model.js";
import {
  PLUGIN_API_VERSION,
  type CapabilityView,
  type DeprecationView,
  type DocView,
  type MembersView,
  type ProtocolView,
  type TypeExprView,
  type TypeView,
} from "./api.js";

// The read-only view of a revision a plugin is given: a copy of the schema and protocol
// models in the shapes of api.ts, frozen, so no plugin can change what mcp-gen or another
// plugin reads. The assignments below are the drift check: if an internal model stops fitting
// the public shape, this file stops compiling, and the change is a decision about the API.

const EMPTY_DOC: Doc = { text: "", tags: [] };

// Compile-time only: the internal shapes fit the public ones.
type Fits<Internal extends Public, Public> = [Internal, Public];
export type ModelFitsView = [
  Fits<TypeExpr, TypeExprView>,
  Fits<ObjectMembers, MembersView>,
  Fits<CapabilityNode, CapabilityView>,
  Fits<Doc, DocView>,
];

/** Deep-freezes a fresh copy (structuredClone: plain data, no shared references). */
function frozen<T>(value: T): T {
  const copy = structuredClone(value);
  const freeze = (v: unknown): void => {
    if (typeof v !== "object" || v === null || Object.isFrozen(v)) return;
    Object.freeze(v);
    for (const child of Object.values(v)) freeze(child);
  };
  freeze(copy);
  return copy;
}

const deprecatedOf = (doc: Doc): string | undefined => tagText(doc, "deprecated");

function typeView(d: TypeDeclaration): TypeView {
  const base = {
    name: d.name,
    exported: d.exported,
    doc: d.doc,
    deprecated: deprecatedOf(d.doc),
    loc: d.loc,
  };
  return d.kind === "interface"
    ? { ...base, kind: "interface", extends: d.extends, members: d.members }
    : { ...base, kind: "alias", type: d.type };
}

function deprecations(
  types: readonly TypeDeclaration[],
  protocol: ProtocolModel,
): DeprecationView[] {
  const found: DeprecationView[] = [];
  for (const d of types) {
    const note = deprecatedOf(d.doc);
    if (note !== undefined) found.push({ kind: "type", name: d.name, note });
    const members =
      d.kind === "interface" ? d.members : d.type.kind === "object" ? d.type.members : undefined;
    for (const p of members?.properties ?? []) {
      const text = deprecatedOf(p.doc);
      if (text !== undefined)
        found.push({ kind: "property", name: `${d.name}.${p.name}`, note: text });
    }
  }
  for (const m of protocol.methods)
    if (m.deprecated !== undefined)
      found.push({ kind: "method", name: m.method, note: m.deprecated });
  return found;
}

/** The plugin API's view of a loaded revision: copied and frozen. */
export function protocolView(loaded: LoadedRevision): ProtocolView {
  const { model, protocol } = loaded;
  const types = model.declarations.filter(isTypeDeclaration);
  const docOf = (name: string): Doc => model.byName.get(name)?.doc ?? EMPTY_DOC;
  const view: ProtocolView = {
    apiVersion: PLUGIN_API_VERSION,
    revision: loaded.revision.name,
    protocolVersion: protocol.protocolVersion,
    schema: { file: model.file, sha256: model.sha256 },
    types: types.map(typeView),
    methods: protocol.methods.map((m) => ({
      method: m.method,
      kind: m.kind,
      directions: m.directions,
      type: m.type,
      params: m.params,
      paramsOptional: m.paramsOptional,
      result: m.result,
      inputRequired: m.inputRequired,
      capabilities: m.capabilities,
      doc: docOf(m.type),
      deprecated: m.deprecated,
    })),
    inputRequests: protocol.inputRequests,
    capabilities: protocol.capabilities,
    errors: protocol.errors.map((e) => ({ ...e, doc: docOf(e.name) })),
    constants: protocol.constants.map((c) => ({ ...c, doc: docOf(c.name) })),
    deprecations: deprecations(types, protocol),
  };
  return frozen(view);
}
