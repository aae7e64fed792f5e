import { withDetail } from "../core/errors.js";
import type { ValidationError } from "../core/protocol.js";

// What a client call can fail with, beside McpError (the server answered with an error).

/** The server broke the protocol: an answer the schema does not allow here. */
export class McpProtocolError extends Error {
  readonly errors: ValidationError[];
  constructor(message: string, errors: ValidationError[] = []) {
    super(withDetail(message, errors));
    this.name = "McpProtocolError";
    this.errors = errors;
  }
}

/** A list method gave more pages than the client's maxPages: the paging stopped. */
export class PageLimitError extends Error {
  readonly method: string;
  readonly pages: number;
  constructor(method: string, pages: number) {
    super(`${method} still had a nextCursor after ${pages} pages (maxPages); paging stopped`);
    this.name = "PageLimitError";
    this.method = method;
    this.pages = pages;
  }
}

/** An input handler declined: the request was not retried. */
export class InputDeclinedError extends Error {
  readonly method: string;
  readonly key: string;
  constructor(method: string, key: string) {
    super(`the ${method} input request "${key}" was declined; the request was not retried`);
    this.name = "InputDeclinedError";
    this.method = method;
    this.key = key;
  }
}

/** The server kept asking for input beyond the client's bound on rounds. */
export class RoundLimitError extends Error {
  readonly rounds: number;
  constructor(rounds: number) {
    super(`the server still asked for input after ${rounds} rounds`);
    this.name = "RoundLimitError";
    this.rounds = rounds;
  }
}

/** No response came within the request's timeout; the request was cancelled. */
export class RequestTimeoutError extends Error {
  readonly method: string;
  readonly elapsedMs: number;
  constructor(method: string, elapsedMs: number) {
    super(`${method} got no response within ${elapsedMs} ms; it was cancelled`);
    this.name = "RequestTimeoutError";
    this.method = method;
    this.elapsedMs = elapsedMs;
  }
}

/** Returned by an input handler that will not answer: the client then does not retry. */
export const DECLINE: unique symbol = Symbol("mcp-gen.decline");

export { SessionExpiredError } from "../core/transport-error.js";

/** The method does not exist in the era of the server the client is connected to. */
export class EraUnsupportedError extends Error {
  readonly method: string;
  readonly era: string;
  constructor(method: string, era: string) {
    super(`${method} does not exist for a server speaking MCP ${era}`);
    this.name = "EraUnsupportedError";
    this.method = method;
    this.era = era;
  }
}

/** The task ended `cancelled` (by `cancel()`, another client or the server): it has no result. */
export class TaskCancelledError extends Error {
  readonly taskId: string;
  constructor(taskId: string, statusMessage?: string) {
    super(`task ${taskId} was cancelled${statusMessage ? `: ${statusMessage}` : ""}`);
    this.name = "TaskCancelledError";
    this.taskId = taskId;
  }
}

/** The task did not end within the call's task timeout; it was cancelled (best effort). */
export class TaskTimeoutError extends Error {
  readonly taskId: string;
  readonly timeoutMs: number;
  constructor(taskId: string, timeoutMs: number) {
    super(`task ${taskId} did not end within ${timeoutMs} ms; it was cancelled`);
    this.name = "TaskTimeoutError";
    this.taskId = taskId;
    this.timeoutMs = timeoutMs;
  }
}
