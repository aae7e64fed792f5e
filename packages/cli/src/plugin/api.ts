import type { EmittedFile } from "../generators/print/emitted-file.js";
import type { GeneratedFile } from "../generators/print/generated-file.js";

// The plugin API of mcp-gen (`@mcp-gen/cli/plugin`): what a generator outside mcp-gen is given
// and what it returns. Its types are a contract of their own, versioned by PLUGIN_API_VERSION,
// not the internal models they are copied from (packages/cli/src/plugin/view.ts copies them, and
// fails to compile when the internal models drift from these shapes). Changing a shape here
// in a way that breaks a plugin is a new apiVersion.

/** The version of this API. A plugin names the one it was written against. */
export const PLUGIN_API_VERSION = 1;
export type PluginApiVersion = typeof PLUGIN_API_VERSION;

/** Where a declaration is in the schema.ts read (1-based line and column). */
export interface SourceLocationView {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

/** A JSDoc comment: its text, then its tags (`@deprecated`, `@minimum 0`, ...). */
export interface DocView {
  readonly text: string;
  readonly tags: readonly { readonly name: string; readonly text: string }[];
}

/** A type as the schema writes it (syntax, not resolved: `ref` names another declaration). */
export type TypeExprView =
  | {
      readonly kind: "keyword";
      readonly name:
        | "string"
        | "number"
        | "boolean"
        | "null"
        | "undefined"
        | "unknown"
        | "any"
        | "never"
        | "object";
      readonly loc: SourceLocationView;
    }
  | {
      readonly kind: "literal";
      readonly value: string | number | boolean;
      readonly loc: SourceLocationView;
    }
  /** `typeof SOME_CONST`: the constant's literal type. */
  | { readonly kind: "typeof"; readonly name: string; readonly loc: SourceLocationView }
  | { readonly kind: "ref"; readonly name: string; readonly loc: SourceLocationView }
  | { readonly kind: "array"; readonly element: TypeExprView; readonly loc: SourceLocationView }
  | { readonly kind: "object"; readonly members: MembersView; readonly loc: SourceLocationView }
  | {
      readonly kind: "union";
      readonly members: readonly TypeExprView[];
      readonly loc: SourceLocationView;
    }
  | {
      readonly kind: "intersection";
      readonly members: readonly TypeExprView[];
      readonly loc: SourceLocationView;
    }
  /** `Omit<Base, "a" | "b">` */
  | {
      readonly kind: "omit";
      readonly base: TypeExprView;
      readonly keys: readonly string[];
      readonly loc: SourceLocationView;
    }
  /** `Record<Key, Value>` */
  | {
      readonly kind: "record";
      readonly key: TypeExprView;
      readonly value: TypeExprView;
      readonly loc: SourceLocationView;
    };

export interface PropertyView {
  readonly name: string;
  readonly optional: boolean;
  readonly type: TypeExprView;
  readonly doc: DocView;
  readonly loc: SourceLocationView;
}

export interface MembersView {
  readonly properties: readonly PropertyView[];
  readonly indexSignature?: {
    readonly keyName: string;
    readonly keyType: "string" | "number";
    readonly type: TypeExprView;
    readonly doc: DocView;
    readonly loc: SourceLocationView;
  };
}

/** A type declaration of the schema: an interface or a type alias. */
export type TypeView = {
  readonly name: string;
  /** Whether schema.ts exports it. */
  readonly exported: boolean;
  readonly doc: DocView;
  /** The `@deprecated` text (possibly empty), or undefined when not deprecated. */
  readonly deprecated: string | undefined;
  readonly loc: SourceLocationView;
} & (
  | {
      readonly kind: "interface";
      readonly extends: readonly TypeExprView[];
      readonly members: MembersView;
    }
  | { readonly kind: "alias"; readonly type: TypeExprView }
);

export type Direction = "client->server" | "server->client";
export type Side = "client" | "server";

/** A capability: its path into ClientCapabilities or ServerCapabilities, and how it is declared (`{}` or `true`). */
export interface CapabilityRefView {
  readonly path: readonly string[];
  readonly leaf: "object" | "boolean";
}

export interface MethodView {
  readonly method: string;
  readonly kind: "request" | "notification";
  readonly directions: readonly Direction[];
  /** The request or notification type's name. */
  readonly type: string;
  /** The params type: a declaration name, or `Type["params"]` when declared inline. */
  readonly params: string | undefined;
  readonly paramsOptional: boolean;
  /** Requests only: the result type (`EmptyResult` when the schema names none). */
  readonly result: string | undefined;
  /** Whether the method may answer `InputRequiredResult` (multi round-trip). */
  readonly inputRequired: boolean;
  /** Per direction, the capability of the serving side that gates it. */
  readonly capabilities: {
    readonly [D in Direction]?: CapabilityRefView & { readonly side: Side };
  };
  readonly doc: DocView;
  readonly deprecated: string | undefined;
}

export interface InputRequestView {
  readonly method: string;
  readonly type: string;
  readonly params: string | undefined;
  readonly paramsOptional: boolean;
  readonly result: string;
  readonly deprecated: string | undefined;
  /** The client capability a server needs before it may ask. */
  readonly capability: CapabilityRefView | undefined;
}

export interface CapabilityView {
  readonly name: string;
  readonly path: readonly string[];
  /** How it is declared; null for a setting (a string, a number). */
  readonly leaf: "object" | "boolean" | null;
  readonly deprecated: boolean;
  readonly doc: string;
  readonly children: readonly CapabilityView[];
}

export interface ErrorCodeView {
  readonly name: string;
  readonly code: number;
  /** Error types whose `code` is this constant. */
  readonly types: readonly string[];
  readonly doc: DocView;
}

export interface ConstantView {
  readonly name: string;
  readonly value: string | number | boolean;
  readonly doc: DocView;
}

/** Something the revision deprecates: a type, a property (`Type.property`) or a method. */
export interface DeprecationView {
  readonly kind: "type" | "property" | "method";
  readonly name: string;
  /** The `@deprecated` text (possibly empty). */
  readonly note: string;
}

/** One revision of the protocol, read-only (frozen: a plugin cannot change what others see). */
export interface ProtocolView {
  readonly apiVersion: PluginApiVersion;
  /** The revision's name: a date (`2025-11-25`) or `draft`. */
  readonly revision: string;
  /** LATEST_PROTOCOL_VERSION, when the revision declares it. */
  readonly protocolVersion: string | undefined;
  readonly schema: { readonly file: string; readonly sha256: string };
  /** Every interface and type alias, in source order. */
  readonly types: readonly TypeView[];
  readonly methods: readonly MethodView[];
  /** Requests a server may ask inside InputRequiredResult (multi round-trip revisions). */
  readonly inputRequests: readonly InputRequestView[];
  readonly capabilities: {
    readonly client: readonly CapabilityView[];
    readonly server: readonly CapabilityView[];
  };
  /** JSON-RPC error codes (exported integer constants in the reserved range). */
  readonly errors: readonly ErrorCodeView[];
  /** Every exported literal constant. */
  readonly constants: readonly ConstantView[];
  readonly deprecations: readonly DeprecationView[];
}

/** A file being printed: mcp-gen's printer (see the plugin guide for its methods). */
export type PluginFile = GeneratedFile;
/** A file already printed: what `PluginFile.emit(header)` returns. */
export type PrintedFile = EmittedFile;

/** What a plugin is given. */
export interface PluginContext {
  readonly apiVersion: PluginApiVersion;
  /** The revision generated (the newest, when several are served). */
  readonly protocol: ProtocolView;
  /** Older revisions the output also serves, newest first. */
  readonly legacy: readonly ProtocolView[];
  readonly options: {
    /** The built-in generators that run (the chosen ones and those they require). */
    readonly generators: readonly string[];
    readonly auth: boolean;
    /** How generated code reaches the runtime: the package, or a copy in the output. */
    readonly runtime: "package" | "vendor";
  };
  /**
   * The first line of a file printed from this revision: mcp-gen knows its own files by it
   * (a file without it is the user's, and never overwritten). Files from `file` get it.
   */
  readonly header: string;
  /**
   * A new TypeScript file at `path`, relative to the output folder (`extra/summary.ts`),
   * printed by mcp-gen's printer. Return it from `generate`.
   */
  file(path: string): PluginFile;
}

/** A generator of files from the protocol: a plugin module's default export (or its `plugin` export). */
export interface McpGenPlugin {
  /** The plugin API version it was written against. */
  readonly apiVersion: PluginApiVersion;
  /** A name of its own (not a built-in generator's): errors and the manifest name it. */
  readonly name: string;
  readonly description?: string;
  /** Built-in generators whose files this one's import (`types`): they run too. */
  readonly requires?: readonly string[];
  /** The files to write: from `ctx.file(path)`, or printed already (`file.emit(ctx.header)`). */
  generate(
    ctx: PluginContext,
  ): readonly (PluginFile | PrintedFile)[] | Promise<readonly (PluginFile | PrintedFile)[]>;
}

/** Types a plugin object (an identity function: `export default definePlugin({ ... })`). */
export function definePlugin<P extends McpGenPlugin>(plugin: P): P {
  return plugin;
}
