import { hasCapability } from "../core/errors.js";
import {
  isObject,
  own,
  type MessageValidators,
  type ProtocolDescriptor,
} from "../core/protocol.js";
import { DECLINE, InputDeclinedError, McpProtocolError } from "./errors.js";
import { checkInputAnswer, withElicitationDefaults } from "../core/elicitation-content.js";

// The client's half of a multi round-trip: the input requests of one input_required result,
// each fulfilled by the handler registered for its method, checked, and gathered at the keys
// the server gave them (the retry carries them back as inputResponses).

type Json = Record<string, unknown>;

/**
 * `signal` is the call's (modern input_required) or, on a legacy session, that of the server's
 * request: aborted when the server cancels it or the session ends (legacy-client.ts).
 */
export type InputHandler = (
  params: unknown,
  context: { key: string; method: string; signal: AbortSignal | undefined },
) => unknown;

export type InputHandlers = { readonly [method: string]: InputHandler | undefined };

/** Fulfils every input request concurrently; any decline ends the call without a retry. */
export async function fulfilInputRequests(
  protocol: ProtocolDescriptor,
  validators: MessageValidators,
  capabilities: Json,
  inputHandlers: InputHandlers,
  requests: Json,
  signal: AbortSignal | undefined,
): Promise<Json> {
  const entries = Object.entries(requests).map(([key, request]) => {
    const method =
      isObject(request) && typeof request["method"] === "string" ? request["method"] : "";
    const capability = own(protocol.inputRequests, method)?.capability;
    if (capability === undefined)
      throw new McpProtocolError(
        `input request "${key}" has unknown method ${JSON.stringify(method)}`,
      );
    if (capability !== null && !hasCapability(capabilities, capability.path)) {
      throw new McpProtocolError(
        `the server asked for ${method} ("${key}") but this request did not declare the ${capability.path.join(".")} capability`,
      );
    }
    const handler = own(inputHandlers, method);
    if (!handler) throw new McpProtocolError(`no input handler for ${method} ("${key}")`);
    return { key, method, handler, params: (request as Json)["params"] };
  });
  const answers = await Promise.all(
    entries.map(async ({ key, method, handler, params }) => {
      const answer = await handler(params, { key, method, signal });
      if (answer === DECLINE) return { key, method, answer };
      // The form's defaults first: what is sent is what is checked.
      const completed = withElicitationDefaults(method, params, answer);
      const checked = checkInputAnswer(validators.validateInputResult, method, params, completed);
      if (!checked.ok)
        throw new McpProtocolError(
          `the ${method} input handler returned an invalid answer for "${key}"`,
          checked.errors,
        );
      return { key, method, answer: completed };
    }),
  );
  const declined = answers.find((a) => a.answer === DECLINE);
  if (declined) throw new InputDeclinedError(declined.method, declined.key);
  return Object.fromEntries(answers.map((a) => [a.key, a.answer]));
}
