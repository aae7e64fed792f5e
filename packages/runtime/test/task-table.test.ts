import { describe, expect, it } from "vitest";
import { McpError } from "../src/core/errors.js";
import { newTaskRecord, type TaskRecord } from "../src/extensions/tasks/task-record.js";
import { TaskTable } from "../src/extensions/tasks/task-table.js";

// The task store's table on its own, with a hand-driven clock: expiry, the once-a-second
// sweep, eviction of finished tasks, and lookups that hide other principals' tasks.

function setup(limits = { maxTasks: 10, maxTasksPerPrincipal: 10 }) {
  let clock = 1_000;
  const table = new TaskTable(limits, () => clock);
  const add = (principal = "alice", ttlMs = 5_000): TaskRecord => {
    const task = newTaskRecord({
      principal,
      method: "tools/call",
      capabilities: {},
      createdAt: clock,
      ttlMs,
      pollIntervalMs: 1_000,
    });
    table.add(task);
    return task;
  };
  return { table, add, advance: (ms: number) => (clock += ms) };
}

const notFound = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32602);
    return (error as McpError).message;
  }
  throw new Error("expected a -32602 refusal");
};

describe("the task table", () => {
  it("finds a task only for its principal, and refuses ids that are not strings", () => {
    const { table, add } = setup();
    const task = add("alice");
    expect(table.lookup(task.id, "alice")).toBe(task);
    expect(notFound(() => table.lookup(task.id, "bob"))).toMatch(/Task not found/);
    expect(notFound(() => table.lookup("x".repeat(300), "alice"))).toMatch(/Task not found/);
    expect(notFound(() => table.lookup(42, "alice"))).toMatch(/taskId must be a string/);
  });

  it("expires a task at its TTL on lookup: dropped, its work aborted", () => {
    const { table, add, advance } = setup();
    const task = add("alice", 5_000);
    advance(4_999);
    expect(table.lookup(task.id, "alice")).toBe(task);
    advance(1);
    notFound(() => table.lookup(task.id, "alice"));
    expect(table.size).toBe(0);
    expect(table.holds(task)).toBe(false);
    expect(task.controller.signal.reason).toBe("task expired");
  });

  it("sweeps expired tasks at most once a second", () => {
    const { table, add, advance } = setup();
    const short = add("alice", 100);
    table.sweep(); // nothing expired yet; the next sweep is due in a second
    advance(500);
    table.sweep();
    expect(table.holds(short)).toBe(true);
    advance(500);
    table.sweep();
    expect(table.holds(short)).toBe(false);
    expect(table.size).toBe(0);
  });

  it("makes room by evicting the principal's own oldest finished task", () => {
    const { table, add } = setup({ maxTasks: 3, maxTasksPerPrincipal: 2 });
    const [first, second] = [add("alice"), add("alice")];
    expect(() => table.makeRoom("alice")).toThrow(/Too many unfinished tasks for this caller/);
    second.status = "completed";
    first.status = "failed";
    table.makeRoom("alice");
    expect([table.holds(first), table.holds(second)]).toEqual([false, true]);
    add("alice");
    add("bob");
    // Full, and alice's tasks: one finished, one running; she makes room from her own.
    table.makeRoom("alice");
    expect(table.holds(second)).toBe(false);
  });

  it("a full table refuses a new task rather than evict another principal's", () => {
    const { table, add } = setup({ maxTasks: 3, maxTasksPerPrincipal: 2 });
    const others = [add("alice"), add("bob"), add("carol")];
    for (const task of others) task.status = "completed";
    let refusal: unknown;
    try {
      table.makeRoom("mallory");
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(McpError);
    expect((refusal as McpError).code).toBe(-32603);
    expect((refusal as McpError).message).toMatch(/task store is full/);
    expect(others.map((task) => table.holds(task))).toEqual([true, true, true]);
    expect(table.size).toBe(3);
  });
});
