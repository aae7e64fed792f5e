import { describe, expect, it } from "vitest";
import { McpError } from "../src/core/errors.js";
import { answerInput, requestInput } from "../src/extensions/tasks/task-input.js";
import { newTaskRecord } from "../src/extensions/tasks/task-record.js";

// Mid-task input without a router: what `input` registers and how tasks/update's answers
// resolve it, with a hand-driven clock for the task's lastUpdatedAt.

const ELICIT = { method: "elicitation/create", params: { message: "?" } };
const accept = { action: "accept" };

function setup() {
  let clock = 0;
  const now = () => clock;
  const task = newTaskRecord({
    principal: "",
    method: "tools/call",
    capabilities: {},
    createdAt: now(),
    ttlMs: 60_000,
    pollIntervalMs: 1_000,
  });
  return { task, now, advance: (ms: number) => (clock += ms) };
}

describe("task input", () => {
  it("is input_required until every key is answered, then resolves with all the answers", async () => {
    const { task, now, advance } = setup();
    const asked = requestInput(task, { a: ELICIT, b: ELICIT }, 32, now);
    advance(10);
    answerInput(task, { a: accept, unknown: accept }, null, now);
    expect(task.status).toBe("input_required");
    expect([...task.pending.keys()]).toEqual(["b"]);
    answerInput(task, { b: { action: "decline" } }, null, now);
    expect(task.status).toBe("working");
    expect(task.updatedAt).toBe(10);
    await expect(asked).resolves.toEqual({ a: accept, b: { action: "decline" } });
  });

  it("checks every answer before using any", () => {
    const { task, now } = setup();
    void requestInput(task, { a: ELICIT, b: ELICIT }, 32, now);
    const onlyAccept = (_method: string, value: unknown) =>
      value === accept
        ? { ok: true as const, value }
        : { ok: false as const, errors: [{ path: "/action", message: "no" }] };
    let refused: unknown;
    try {
      answerInput(task, { a: accept, b: { action: "maybe" } }, onlyAccept, now);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(McpError);
    expect((refused as McpError).data).toEqual({
      errors: [{ path: "/params/inputResponses/b/action", message: "no" }],
    });
    expect([...task.pending.keys()]).toEqual(["a", "b"]);
  });

  it("refuses a key used before, more outstanding requests than allowed, and an ended task", async () => {
    const { task, now } = setup();
    void requestInput(task, { a: ELICIT }, 2, now);
    expect(() => requestInput(task, { a: ELICIT }, 2, now)).toThrow(/"a" was used already/);
    expect(() => requestInput(task, { b: ELICIT, c: ELICIT }, 2, now)).toThrow(/more than 2/);
    task.controller.abort();
    await expect(requestInput(task, { d: ELICIT }, 2, now)).rejects.toThrow(/task has ended/);
  });
});
