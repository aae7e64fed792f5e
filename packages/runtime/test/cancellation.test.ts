import { describe, expect, it, vi } from "vitest";
import { Cancellation, cancellationOf, watchSignal } from "../src/core/cancellation.js";

describe("Cancellation", () => {
  it("fires its listeners once, with the reason, and later aborts do nothing", () => {
    const c = new Cancellation();
    const heard = vi.fn();
    c.onAbort(heard);
    c.abort("first");
    c.abort("second");
    expect(heard).toHaveBeenCalledTimes(1);
    expect(heard).toHaveBeenCalledWith("first");
    expect(c.aborted).toBe(true);
    expect(c.reason).toBe("first");
  });

  it("makes its AbortSignal only when read, aborted already if it fired before", () => {
    const c = new Cancellation();
    c.abort(new Error("gone"));
    const { signal } = c;
    expect(signal.aborted).toBe(true);
    expect((signal.reason as Error).message).toBe("gone");
    expect(c.signal).toBe(signal);
  });

  it("aborts a signal read before it fired", () => {
    const c = new Cancellation();
    const { signal } = c;
    const heard = vi.fn();
    signal.addEventListener("abort", heard);
    expect(signal.aborted).toBe(false);
    c.abort("late");
    expect(heard).toHaveBeenCalledTimes(1);
    expect(signal.reason).toBe("late");
  });

  it("stops calling a listener once unsubscribed, and never calls one added after firing", () => {
    const c = new Cancellation();
    const removed = vi.fn();
    const kept = vi.fn();
    c.onAbort(removed)();
    c.onAbort(kept);
    c.abort("x");
    const afterwards = vi.fn();
    c.onAbort(afterwards)();
    expect(removed).not.toHaveBeenCalled();
    expect(kept).toHaveBeenCalledTimes(1);
    expect(afterwards).not.toHaveBeenCalled();
  });
});

describe("cancellationOf", () => {
  it("prefers the context's cancellation and never reads its signal then", () => {
    const cancellation = new Cancellation();
    const context = {
      cancellation,
      get signal(): AbortSignal {
        throw new Error("signal read");
      },
    };
    expect(cancellationOf(context)).toBe(cancellation);
  });

  it("follows a plain AbortSignal", () => {
    const controller = new AbortController();
    const watch = cancellationOf({ signal: controller.signal })!;
    const heard = vi.fn();
    const stop = watch.onAbort(heard);
    controller.abort("bye");
    expect(heard).toHaveBeenCalledWith("bye");
    expect(watch.aborted).toBe(true);
    expect(watch.reason).toBe("bye");
    stop();
    expect(cancellationOf({})).toBeUndefined();
  });

  it("a watched signal's unsubscribe removes its listener", () => {
    const controller = new AbortController();
    const heard = vi.fn();
    watchSignal(controller.signal).onAbort(heard)();
    controller.abort();
    expect(heard).not.toHaveBeenCalled();
  });
});

describe("watchSignal given a function", () => {
  it("calls it only when read, and follows the signal it returns", () => {
    const controller = new AbortController();
    const read = vi.fn(() => controller.signal);
    const watch = watchSignal(read);
    expect(read).not.toHaveBeenCalled();
    expect(watch.aborted).toBe(false);
    expect(watch.signal).toBe(controller.signal);
    const heard = vi.fn();
    watch.onAbort(heard);
    controller.abort("stop");
    expect(heard).toHaveBeenCalledWith("stop");
    expect(watch.aborted).toBe(true);
    expect(watch.reason).toBe("stop");
    // An abort already seen: no listener is kept, and the unsubscribe is harmless.
    const late = vi.fn();
    watch.onAbort(late)();
    expect(late).not.toHaveBeenCalled();
  });
});
