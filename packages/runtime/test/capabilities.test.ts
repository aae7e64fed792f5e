import { describe, expect, it } from "vitest";
import { hasCapability, withCapabilities } from "../src/core/errors.js";
import {
  capabilitiesOf,
  capabilityObject,
  mergeCapabilities,
  type MethodEntry,
  type ProtocolDescriptor,
} from "../src/core/protocol.js";
import { requireClientCapability } from "../src/server/input-required.js";
import { McpError } from "../src/core/errors.js";
import { PROTOCOL } from "./fixture.js";

// Capabilities as the schema types them: an object (`tools: {}`) or a flag (`listChanged: true`),
// at any depth. A spec draft gating a method by `tools.validate: boolean` must be advertised as
// `{ tools: { validate: true } }`, and a client declaring `validate: false` has not declared it.

const entry = (path: string[], leaf: "object" | "boolean"): MethodEntry => ({
  kind: "request",
  directions: ["client->server"],
  inputRequired: false,
  capabilities: { "client->server": { side: "server", path, leaf } },
});

const METHODS: Record<string, MethodEntry> = {
  "tools/list": entry(["tools"], "object"),
  "tools/validate": entry(["tools", "validate"], "boolean"),
  "tools/validate/batch": entry(["tools", "batch", "validate"], "boolean"),
  "prompts/render": entry(["prompts", "render"], "object"),
  "completion/complete": entry(["completions"], "object"),
};

describe("capabilities derived from handlers", () => {
  it("declares each gate at its path, as the schema types its leaf, whatever the order of handlers", () => {
    const handlers = (names: string[]) => Object.fromEntries(names.map((n) => [n, () => ({})]));
    const expected = {
      tools: { validate: true, batch: { validate: true } },
      prompts: { render: {} },
    };
    const names = ["tools/validate", "tools/list", "tools/validate/batch", "prompts/render"];
    expect(capabilitiesOf(METHODS, handlers(names), "client->server")).toEqual(expected);
    expect(capabilitiesOf(METHODS, handlers([...names].reverse()), "client->server")).toEqual(
      expected,
    );
    expect(capabilitiesOf(METHODS, handlers(["tools/validate"]), "client->server")).toEqual({
      tools: { validate: true },
    });
    // Only what the router receives counts, and only server capabilities.
    expect(capabilitiesOf(METHODS, handlers(["tools/validate"]), "server->client")).toEqual({});
  });

  it("lays declared capabilities over derived ones at every depth", () => {
    expect(
      mergeCapabilities(
        { tools: { validate: true } },
        { tools: { listChanged: true }, logging: {} },
      ),
    ).toEqual({ tools: { validate: true, listChanged: true }, logging: {} });
    expect(
      mergeCapabilities({ tools: { validate: true } }, { tools: { validate: false } }),
    ).toEqual({ tools: { validate: false } });
    const derived = { tasks: { requests: { tools: { call: {} } } } };
    expect(
      mergeCapabilities(derived, { tasks: { requests: { sampling: { createMessage: {} } } } }),
    ).toEqual({
      tasks: { requests: { tools: { call: {} }, sampling: { createMessage: {} } } },
    });
    expect(mergeCapabilities(derived, undefined)).toEqual(derived);
  });

  it("builds one capability object per leaf kind", () => {
    expect(capabilityObject(["tools", "validate"], "boolean")).toEqual({
      tools: { validate: true },
    });
    expect(capabilityObject(["sampling", "tools"])).toEqual({ sampling: { tools: {} } });
  });
});

describe("declared client capabilities", () => {
  it("takes false as not declared, at any depth", () => {
    expect(hasCapability({ elicitation: { confirm: true } }, ["elicitation", "confirm"])).toBe(
      true,
    );
    expect(hasCapability({ elicitation: { confirm: false } }, ["elicitation", "confirm"])).toBe(
      false,
    );
    expect(hasCapability({ elicitation: {} }, ["elicitation"])).toBe(true);
    expect(hasCapability({ elicitation: false }, ["elicitation", "confirm"])).toBe(false);
  });

  it("adds what input handlers imply as the schema types it, and keeps what the caller declared", () => {
    const implied = [
      { path: ["elicitation", "confirm"], leaf: "boolean" as const },
      { path: ["elicitation"], leaf: "object" as const },
      { path: ["sampling"], leaf: "object" as const },
    ];
    expect(withCapabilities({}, implied)).toEqual({ elicitation: { confirm: true }, sampling: {} });
    expect(withCapabilities({ elicitation: { confirm: false, form: {} } }, implied)).toEqual({
      elicitation: { confirm: false, form: {} },
      sampling: {},
    });
  });

  it("names a missing boolean capability as the client must declare it", () => {
    const protocol: ProtocolDescriptor = {
      ...PROTOCOL,
      inputRequests: {
        "elicitation/confirm": {
          capability: { path: ["elicitation", "confirm"], leaf: "boolean" },
        },
      },
    };
    const refused = (ctx: object, capability: string | string[]) => {
      try {
        requireClientCapability(protocol, { clientCapabilities: ctx }, capability);
        return undefined;
      } catch (error) {
        return error instanceof McpError ? { code: error.code, data: error.data } : error;
      }
    };
    expect(refused({ elicitation: { confirm: false } }, ["elicitation", "confirm"])).toEqual({
      code: -32021,
      data: { requiredCapabilities: { elicitation: { confirm: true } } },
    });
    expect(refused({ elicitation: { confirm: true } }, ["elicitation", "confirm"])).toBeUndefined();
    // A path no gate names is declared with an object.
    expect(refused({}, "sampling")).toEqual({
      code: -32021,
      data: { requiredCapabilities: { sampling: {} } },
    });
  });
});
