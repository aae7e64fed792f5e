import type { HandleContext, NotificationContext } from "./context.js";
import { JSONRPC_ERRORS, McpError } from "../core/errors.js";
import { revisionEntry } from "./method-routes.js";
import { isObject, own } from "../core/protocol.js";
import { report, type RouterState } from "./router-state.js";

/**
 * Handles a notification: cancels the request a notifications/cancelled names, then calls the
 * method's handler, if any. Nothing is answered: failures and invalid notifications are reported.
 */
export async function handleNotification(
  state: RouterState,
  message: Record<string, unknown>,
  context: HandleContext,
): Promise<undefined> {
  const { protocol, validators } = state;
  const method = message["method"] as string;
  const params = isObject(message["params"]) ? message["params"] : {};
  if (method === protocol.wellKnown.cancelled && validators.isRequestId(params["requestId"]))
    state.inFlight.cancel(context, params["requestId"], params["reason"] ?? "cancelled");
  const handler = own(state.handlers, method);
  if (!handler || !revisionEntry(state, method)) return undefined;
  const checked = validators.validateNotificationMessage(
    message,
    state.direction,
    state.validation,
  );
  if (!checked.ok) {
    const invalid = new McpError(JSONRPC_ERRORS.INVALID_PARAMS, `invalid ${method} notification`, {
      errors: checked.errors,
    });
    report(state, invalid, method, undefined);
    return undefined;
  }
  try {
    const ctx: NotificationContext = { method, principal: context.principal };
    await handler(message["params"], ctx);
  } catch (error) {
    report(state, error, method, undefined);
  }
  return undefined;
}
