import type * as Auth from "@mcp-gen/runtime/auth";
import type * as Client from "@mcp-gen/runtime/client";
import type * as Core from "@mcp-gen/runtime/core";
import type * as Fetch from "@mcp-gen/runtime/fetch";
import type * as NodeHttp from "@mcp-gen/runtime/node/http";
import type * as Server from "@mcp-gen/runtime/server";
import type * as Tasks from "@mcp-gen/runtime/tasks";
import type * as Transport from "@mcp-gen/runtime/transport";
import type { RuntimeEntry } from "./runtime.js";

// The runtime's exports that generated code names, as a table checked against the runtime's
// own declarations: a value's name must be a key of its entry point's module, a type's entry
// names the type itself. Renaming or removing one of them in packages/runtime fails to
// compile the CLI here, instead of generating code that fails in the user's project. Files
// reach these through GeneratedFile (generated-file.ts): `use` imports one, `reexport` passes
// some on, so no generator spells a runtime name or module specifier in a string.

/** The value exports of each entry point generated code imports by name. */
interface RuntimeModules {
  core: typeof import("@mcp-gen/runtime/core");
  server: typeof import("@mcp-gen/runtime/server");
  client: typeof import("@mcp-gen/runtime/client");
  transport: typeof import("@mcp-gen/runtime/transport");
  tasks: typeof import("@mcp-gen/runtime/tasks");
  auth: typeof import("@mcp-gen/runtime/auth");
  "auth/verify": typeof import("@mcp-gen/runtime/auth/verify");
  fetch: typeof import("@mcp-gen/runtime/fetch");
  "node/http": typeof import("@mcp-gen/runtime/node/http");
  testing: typeof import("@mcp-gen/runtime/testing");
}

/** An entry point whose names generated code imports one by one (the others are re-exported whole). */
export type NamedEntry = keyof RuntimeModules & RuntimeEntry;

/** One export of the runtime, as generated code imports or re-exports it. */
export interface RuntimeSymbol {
  readonly entry: NamedEntry;
  readonly name: string;
  /** A type (imported with `type`), not a value. */
  readonly typeOnly: boolean;
}

/** A value export: `name` is type-checked against the entry's module (keyof its exports). */
function value<E extends NamedEntry, N extends keyof RuntimeModules[E] & string>(
  entry: E,
  name: N,
): RuntimeSymbol {
  return { entry, name, typeOnly: false };
}

/**
 * A type export, with the type itself as the type argument: a renamed or removed type fails
 * to compile. That the string names the same type is checked by test/one-printer.test.ts
 * (types have no keyof to check it against here). Generic types take `never` arguments,
 * which meet any constraint: only the name matters.
 */
function type<T>(entry: NamedEntry, name: string): RuntimeSymbol & { readonly of?: T } {
  return { entry, name, typeOnly: true };
}

/** Every runtime export generated code names, by entry point. */
export const RT = {
  core: {
    McpError: value("core", "McpError"),
    MAX_DEPTH: value("core", "MAX_DEPTH"),
    MAX_ERRORS: value("core", "MAX_ERRORS"),
    classifyMessage: value("core", "classifyMessage"),
    AdaptedEra: type<Core.AdaptedEra>("core", "AdaptedEra"),
    CapabilityGate: type<Core.CapabilityGate>("core", "CapabilityGate"),
    Direction: type<Core.Direction>("core", "Direction"),
    Era: type<Core.Era>("core", "Era"),
    LegacyEra: type<Core.LegacyEra>("core", "LegacyEra"),
    MessageInfo: type<Core.MessageInfo>("core", "MessageInfo"),
    MessageKind: type<Core.MessageKind>("core", "MessageKind"),
    MessageValidators: type<Core.MessageValidators>("core", "MessageValidators"),
    MethodDescriptor: type<Core.MethodDescriptor>("core", "MethodDescriptor"),
    ProtocolDescriptor: type<Core.ProtocolDescriptor>("core", "ProtocolDescriptor"),
    ValidateOptions: type<Core.ValidateOptions>("core", "ValidateOptions"),
    ValidationError: type<Core.ValidationError>("core", "ValidationError"),
    ValidationResult: type<Core.ValidationResult<unknown>>("core", "ValidationResult"),
    Validator: type<Core.Validator>("core", "Validator"),
  },
  server: {
    createEraDispatcher: value("server", "createEraDispatcher"),
    createRouter: value("server", "createRouter"),
    definePrompts: value("server", "definePrompts"),
    defineResources: value("server", "defineResources"),
    defineServer: value("server", "defineServer"),
    defineTool: value("server", "defineTool"),
    defineTools: value("server", "defineTools"),
    inputRequired: value("server", "inputRequired"),
    notImplemented: value("server", "notImplemented"),
    withInput: value("server", "withInput"),
    openRequestState: value("server", "openRequestState"),
    openStateFor: value("server", "openStateFor"),
    prompt: value("server", "prompt"),
    requireClientCapability: value("server", "requireClientCapability"),
    resourceTemplate: value("server", "resourceTemplate"),
    sealRequestState: value("server", "sealRequestState"),
    sealStateFor: value("server", "sealStateFor"),
    UriTemplate: value("server", "UriTemplate"),
    Completer: type<Server.Completer<never>>("server", "Completer"),
    DispatcherOptions: type<Server.DispatcherOptions>("server", "DispatcherOptions"),
    ExtensionResult: type<Server.ExtensionResult>("server", "ExtensionResult"),
    HandleContext: type<Server.HandleContext>("server", "HandleContext"),
    ListName: type<Server.ListName>("server", "ListName"),
    NotificationContext: type<Server.NotificationContext>("server", "NotificationContext"),
    Promisable: type<Server.Promisable<unknown>>("server", "Promisable"),
    PromptArguments: type<Server.PromptArguments<never>>("server", "PromptArguments"),
    PromptDefinition: type<Server.PromptDefinition<never, never, never, never, never>>(
      "server",
      "PromptDefinition",
    ),
    PromptEntry: type<Server.PromptEntry>("server", "PromptEntry"),
    PromptTable: type<Server.PromptTable>("server", "PromptTable"),
    RequestContext: type<Server.RequestContext>("server", "RequestContext"),
    RequestStateOptions: type<Server.RequestStateOptions>("server", "RequestStateOptions"),
    ResourceTable: type<Server.ResourceTable>("server", "ResourceTable"),
    RouterExtension: type<Server.RouterExtension>("server", "RouterExtension"),
    SchemaValidator: type<Server.SchemaValidator>("server", "SchemaValidator"),
    Server: type<Server.Server<never>>("server", "Server"),
    ServerParts: type<Server.ServerParts>("server", "ServerParts"),
    StateSecret: type<Server.StateSecret>("server", "StateSecret"),
    StraightLineOptions: type<Server.StraightLineOptions>("server", "StraightLineOptions"),
    StaticResource: type<Server.StaticResource<never, never, never>>("server", "StaticResource"),
    TemplateEntry: type<Server.TemplateEntry>("server", "TemplateEntry"),
    TemplateResource: type<Server.TemplateResource<never, never, never, never, never>>(
      "server",
      "TemplateResource",
    ),
    TemplateVariables: type<Server.TemplateVariables<string>>("server", "TemplateVariables"),
    TypedInputSchema: type<Server.TypedInputSchema>("server", "TypedInputSchema"),
    TypedOutputSchema: type<Server.TypedOutputSchema>("server", "TypedOutputSchema"),
    TypedTool: type<Server.TypedTool<never, never, never, never, never, never>>(
      "server",
      "TypedTool",
    ),
  },
  tasks: {
    createTaskStore: value("tasks", "createTaskStore"),
    TASKS_EXTENSION: value("tasks", "TASKS_EXTENSION"),
    CreateTaskResult: type<Tasks.CreateTaskResult>("tasks", "CreateTaskResult"),
    DetailedTask: type<Tasks.DetailedTask>("tasks", "DetailedTask"),
    RunOptions: type<Tasks.RunOptions>("tasks", "RunOptions"),
    Task: type<Tasks.Task>("tasks", "Task"),
    TaskControl: type<Tasks.TaskControl>("tasks", "TaskControl"),
    TaskStore: type<Tasks.TaskStore>("tasks", "TaskStore"),
    TaskStoreOptions: type<Tasks.TaskStoreOptions>("tasks", "TaskStoreOptions"),
  },
  client: {
    createSender: value("client", "createSender"),
    DECLINE: value("client", "DECLINE"),
    EraUnsupportedError: value("client", "EraUnsupportedError"),
    InputDeclinedError: value("client", "InputDeclinedError"),
    McpProtocolError: value("client", "McpProtocolError"),
    PageLimitError: value("client", "PageLimitError"),
    RequestTimeoutError: value("client", "RequestTimeoutError"),
    RoundLimitError: value("client", "RoundLimitError"),
    SessionExpiredError: value("client", "SessionExpiredError"),
    TaskCancelledError: value("client", "TaskCancelledError"),
    TaskTimeoutError: value("client", "TaskTimeoutError"),
    UriTemplate: value("client", "UriTemplate"),
    TaskHandle: type<Client.TaskHandle<never>>("client", "TaskHandle"),
    TaskOptions: type<Client.TaskOptions>("client", "TaskOptions"),
    TaskSettingsOptions: type<Client.TaskSettingsOptions>("client", "TaskSettingsOptions"),
    TaskStatusUpdate: type<Client.TaskStatusUpdate>("client", "TaskStatusUpdate"),
    TemplateValue: type<Client.TemplateValue>("client", "TemplateValue"),
  },
  transport: {
    createDirectTransport: value("transport", "createDirectTransport"),
    createHttpTransport: value("transport", "createHttpTransport"),
    HttpTransportError: value("transport", "HttpTransportError"),
    routingHeaders: value("transport", "routingHeaders"),
    TransportError: value("transport", "TransportError"),
    CallOptions: type<Transport.CallOptions>("transport", "CallOptions"),
    HttpTransportOptions: type<Transport.HttpTransportOptions>("transport", "HttpTransportOptions"),
    SenderOptions: type<Transport.SenderOptions>("transport", "SenderOptions"),
    Transport: type<Transport.Transport>("transport", "Transport"),
    TransportRequestOptions: type<Transport.TransportRequestOptions>(
      "transport",
      "TransportRequestOptions",
    ),
  },
  auth: {
    AuthorizationError: value("auth", "AuthorizationError"),
    InvalidTokenError: value("auth", "InvalidTokenError"),
    HttpAuth: type<Auth.HttpAuth>("auth", "HttpAuth"),
    Principal: type<Auth.Principal>("auth", "Principal"),
    ResourceServerOptions: type<Auth.ResourceServerOptions>("auth", "ResourceServerOptions"),
  },
  // The resource server's token and proof verifiers (jose), which init's src/auth.ts uses.
  "auth/verify": {
    createDPoPProofVerifier: value("auth/verify", "createDPoPProofVerifier"),
    createJwtVerifier: value("auth/verify", "createJwtVerifier"),
  },
  fetch: {
    createFetchHandler: value("fetch", "createFetchHandler"),
    CorsOptions: type<Fetch.CorsOptions>("fetch", "CorsOptions"),
    FetchHandler: type<Fetch.FetchHandler>("fetch", "FetchHandler"),
    FetchHandlerOptions: type<Fetch.FetchHandlerOptions>("fetch", "FetchHandlerOptions"),
    MessageHandler: type<Fetch.MessageHandler>("fetch", "MessageHandler"),
  },
  "node/http": {
    createHttpHandler: value("node/http", "createHttpHandler"),
    serveHttp: value("node/http", "serveHttp"),
    HttpHandlerOptions: type<NodeHttp.HttpHandlerOptions>("node/http", "HttpHandlerOptions"),
    MessageHandler: type<NodeHttp.MessageHandler>("node/http", "MessageHandler"),
    NodeHttpHandler: type<NodeHttp.NodeHttpHandler>("node/http", "NodeHttpHandler"),
    ServeHttpOptions: type<NodeHttp.ServeHttpOptions>("node/http", "ServeHttpOptions"),
  },
  // The test client, which init's src/test/server.test.ts uses.
  testing: {
    connectInMemory: value("testing", "connectInMemory"),
  },
} as const satisfies { [E in NamedEntry]: Record<string, RuntimeSymbol> };

/**
 * The validation helpers of core (core/validation.ts) that validators.ts may call: the checks
 * and collectors it prints name them (`$own`, `$fail`, ...). Which of them one file uses
 * depends on the schema: the code builders name them through a ValidationUses, which records
 * each one named, and validators.ts imports exactly those.
 */
export const VALIDATION = {
  MAX_DEPTH: value("core", "MAX_DEPTH"),
  MAX_ERRORS: value("core", "MAX_ERRORS"),
  $limit: value("core", "$limit"),
  $own: value("core", "$own"),
  $found: value("core", "$found"),
  $describe: value("core", "$describe"),
  $escape: value("core", "$escape"),
  $push: value("core", "$push"),
  $expected: value("core", "$expected"),
  $missing: value("core", "$missing"),
  $fail: value("core", "$fail"),
  $tooDeep: value("core", "$tooDeep"),
  $at: value("core", "$at"),
  $length: value("core", "$length"),
  $multipleOf: value("core", "$multipleOf"),
  $anyOf: value("core", "$anyOf"),
  $fmtUri: value("core", "$fmtUri"),
  $fmtByte: value("core", "$fmtByte"),
  $fmtUriTemplate: value("core", "$fmtUriTemplate"),
  $ok: value("core", "$ok"),
  $thrown: value("core", "$thrown"),
  $result: value("core", "$result"),
  $has: value("core", "$has"),
  $methodOf: value("core", "$methodOf"),
  $unknownMethod: value("core", "$unknownMethod"),
  classifyMessage: value("core", "classifyMessage"),
  ValidationError: type<Core.ValidationError>("core", "ValidationError"),
  ValidationResult: type<Core.ValidationResult<never>>("core", "ValidationResult"),
  ValidateOptions: type<Core.ValidateOptions>("core", "ValidateOptions"),
  Validator: type<Core.Validator>("core", "Validator"),
  $Errors: type<Core.$Errors>("core", "$Errors"),
  $Collector: type<Core.$Collector>("core", "$Collector"),
  MessageKind: type<Core.MessageKind>("core", "MessageKind"),
  MessageInfo: type<Core.MessageInfo>("core", "MessageInfo"),
} as const;

export const VALIDATION_HELPERS: readonly RuntimeSymbol[] = Object.values(VALIDATION);

/** The validation helpers' names as printed code spells them: `${rt.$own}(v, k)`. */
export type ValidationNames = { readonly [K in keyof typeof VALIDATION]: string };

/**
 * The validation helpers one generated file names. Code builders spell a helper through
 * `names` (`${rt.$fail}(...)`), and reading a name there records its symbol in `used`: the
 * file then imports what its code names (GeneratedFile.use), from the builders themselves
 * rather than from a scan of the printed text, so a helper used is imported and one unused
 * is not.
 */
export class ValidationUses {
  private readonly recorded = new Set<RuntimeSymbol>();
  readonly names: ValidationNames;

  constructor() {
    const names = {};
    for (const [key, symbol] of Object.entries(VALIDATION)) {
      Object.defineProperty(names, key, {
        enumerable: true,
        get: () => {
          this.recorded.add(symbol);
          return symbol.name;
        },
      });
    }
    this.names = names as ValidationNames;
  }

  /** The helpers named so far, in the order first named. */
  get used(): readonly RuntimeSymbol[] {
    return [...this.recorded];
  }
}

/** Every symbol of the table (for the test that checks each against the runtime's declarations). */
export function allRuntimeSymbols(): RuntimeSymbol[] {
  const named: RuntimeSymbol[] = Object.values(RT).flatMap((symbols) => Object.values(symbols));
  return [...named, ...VALIDATION_HELPERS];
}
