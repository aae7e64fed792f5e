import type { LoadedRevision } from "../../schema/index.js";
import { runtimeFacts } from "../../schema/runtime-protocol.js";
import { GeneratedFile } from "../print/generated-file.js";
import { objectKey, type Value } from "../print/printer.js";
import { RT } from "./runtime-symbols.js";
import type { EmittedFile, Generator } from "./plugin.js";
import type { RuntimeImports } from "./runtime.js";

// protocol.ts: the revision's facts as data for the runtime, and the revision's validators
// bound to the runtime's MessageValidators interface. The dispatcher and the client require it.

export const protocolGenerator: Generator = {
  name: "protocol",
  description: "protocol.ts: the revision's facts for the runtime, and its validators bound to it",
  requires: ["methods", "validators"],
  runtime: () => ["core"],
  emit: ({ loaded, header, runtime }) => [protocolFile(loaded, header, runtime)],
};

/** A schema type as `T.Name` when the revision declares it, else `fallback`. */
export function schemaType(loaded: LoadedRevision, name: string, fallback: string): string {
  return loaded.model.byName.has(name) ? `T.${name}` : fallback;
}

export function protocolFile(
  loaded: LoadedRevision,
  header: string,
  runtime: RuntimeImports,
): EmittedFile {
  const facts = runtimeFacts(loaded);
  const w = new GeneratedFile("protocol.ts", runtime);
  w.import("./methods.js", "INPUT_REQUESTS");
  w.import("./methods.js", "METHODS");
  const validators = w.use(RT.core.MessageValidators);
  const descriptor = w.use(RT.core.ProtocolDescriptor);
  w.import("./validators.js", "* as V");
  const hasType = (name: string) => loaded.model.byName.has(name);
  w.line("// What the runtime reads about this revision: data, not code.");
  w.block(
    `export const PROTOCOL: ${descriptor} = {`,
    () => {
      for (const [key, value] of Object.entries(facts))
        w.value(`${objectKey(key)}: `, value as Value, ",");
      w.line("methods: METHODS,");
      w.line("inputRequests: INPUT_REQUESTS,");
    },
    "};",
  );
  w.line();
  w.doc("This revision's validators, as the runtime calls them.");
  w.block(
    `export const MESSAGE_VALIDATORS: ${validators} = {`,
    () => {
      w.line("classifyMessage: V.classifyMessage,");
      w.line("isRequestId: V.isRequestId,");
      w.line("validateRequestMessage: V.validateRequestMessage,");
      w.line("validateNotificationMessage: V.validateNotificationMessage,");
      w.line("validateMethodResult: V.validateMethodResult,");
      w.line(
        `validateInputResult: ${loaded.protocol.inputRequests.length > 0 ? "V.validateInputResult" : "null"},`,
      );
      w.line(
        `validateInputRequiredResult: ${hasType("InputRequiredResult") ? "V.validateInputRequiredResult" : "null"},`,
      );
    },
    "};",
  );
  return w.emit(header);
}
