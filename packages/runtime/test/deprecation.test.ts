import { afterEach, describe, expect, it, vi } from "vitest";
import { describeDeprecation, warnDeprecated } from "../src/core/deprecation.js";
import type { ProtocolDescriptor } from "../src/core/protocol.js";

const SEP_2577 =
  "Deprecated as of protocol version 2026-07-28 (SEP-2577). Remains in the specification " +
  "for at least twelve months; see the deprecated features registry.";

/** A descriptor of its own revision name per test: warnings are once per revision and method. */
const protocol = (revision: string, deprecated?: Record<string, string>) =>
  ({ revision, ...(deprecated ? { deprecated } : {}) }) as unknown as ProtocolDescriptor;

afterEach(() => vi.restoreAllMocks());

describe("describeDeprecation", () => {
  it("names the SEP and the earliest removal the schema's text implies", () => {
    expect(describeDeprecation(SEP_2577)).toBe("SEP-2577; removal 2027-07-28 at the earliest");
    expect(
      describeDeprecation(
        "Deprecated as of protocol version 2026-09-15 (SEP-9). At least 6 months.",
      ),
    ).toBe("SEP-9; removal 2027-03-15 at the earliest");
  });

  it("keeps a text that does not say so as it is", () => {
    expect(describeDeprecation("use the other one")).toBe("use the other one");
    expect(describeDeprecation("Deprecated (SEP-1); at least some months")).toBe(
      "Deprecated (SEP-1); at least some months",
    );
  });
});

describe("warnDeprecated", () => {
  it("warns once per revision and method, as a DeprecationWarning with a code", () => {
    const emit = vi.spyOn(process, "emitWarning").mockImplementation(() => {});
    const p = protocol("warn-once", { "roots/list": SEP_2577 });
    warnDeprecated(p, "roots/list", "a client input handler");
    warnDeprecated(p, "roots/list", "a handler");
    expect(emit).toHaveBeenCalledTimes(1);
    expect(emit).toHaveBeenCalledWith(
      "MCP warn-once deprecates roots/list (SEP-2577; removal 2027-07-28 at the earliest); used by a client input handler",
      { type: "DeprecationWarning", code: "MCP_DEPRECATED" },
    );
  });

  it("says nothing for a method the revision keeps, or a revision that deprecates none", () => {
    const emit = vi.spyOn(process, "emitWarning").mockImplementation(() => {});
    warnDeprecated(protocol("keeps", { "roots/list": SEP_2577 }), "tools/call", "a handler");
    warnDeprecated(protocol("none"), "roots/list", "a handler");
    expect(emit).not.toHaveBeenCalled();
  });
});
