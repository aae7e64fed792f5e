import { describe, expect, it } from "vitest";
import { InFlightRequests } from "../src/server/in-flight-requests.js";
import { invalidRequestReply, unsupportedVersionReply } from "../src/server/request-checks.js";
import { routerState } from "../src/server/router-state.js";
import type { ValidationError } from "../src/core/protocol.js";
import { PROTOCOL, request, VALIDATORS } from "./fixture.js";

// The router's parts on their own: what createRouter assembles (router.test.ts covers the whole).

describe("in-flight requests", () => {
  const tracked = (inFlight: InFlightRequests, context: object, id: string | number) => {
    const controller = new AbortController();
    return { controller, stop: inFlight.track(context, id, controller) };
  };

  it("are cancelled only by the channel and principal that sent them", () => {
    const inFlight = new InFlightRequests();
    const channel = {};
    const { controller } = tracked(inFlight, { channel, principal: "alice" }, 7);
    inFlight.cancel({ channel: {}, principal: "alice" }, 7, "other channel");
    inFlight.cancel({ channel, principal: "bob" }, 7, "other principal");
    inFlight.cancel({ channel }, 7, "no principal");
    inFlight.cancel({ channel, principal: "alice" }, 8, "other id");
    expect(controller.signal.aborted).toBe(false);
    inFlight.cancel({ channel, principal: "alice" }, 7, "user asked");
    expect(controller.signal.aborted).toBe(true);
    expect(controller.signal.reason).toBe("user asked");
  });

  it("share one channel among calls without one", () => {
    const inFlight = new InFlightRequests();
    const { controller } = tracked(inFlight, {}, "a");
    inFlight.cancel({}, "a", "cancelled");
    expect(controller.signal.aborted).toBe(true);
  });

  it("stop being cancellable once answered, without untracking a later request with the id", () => {
    const inFlight = new InFlightRequests();
    const first = tracked(inFlight, {}, 1);
    first.stop();
    inFlight.cancel({}, 1, "late");
    expect(first.controller.signal.aborted).toBe(false);

    const older = tracked(inFlight, {}, 2);
    const newer = tracked(inFlight, {}, 2);
    older.stop();
    inFlight.cancel({}, 2, "cancelled");
    expect(newer.controller.signal.aborted).toBe(true);
    expect(older.controller.signal.aborted).toBe(false);
  });
});

describe("request checks", () => {
  const failing = (errors: ValidationError[]) =>
    routerState(
      PROTOCOL,
      { ...VALIDATORS, validateRequestMessage: () => ({ ok: false, errors }) },
      "client->server",
      {},
      {},
    );
  const error = (path: string): ValidationError => ({ path, message: "is wrong" });

  it("refuses wrong params with -32602 and a wrong envelope with -32600, naming the first error", () => {
    const message = request("tools/call");
    for (const path of ["/params", "/params/name", "/method"]) {
      expect(invalidRequestReply(failing([error(path)]), message, 1, "tools/call")).toMatchObject({
        id: 1,
        error: {
          code: -32602,
          message: expect.stringContaining(path),
          data: { errors: [{ path }] },
        },
      });
    }
    for (const path of ["", "/jsonrpc", "/paramsX"]) {
      expect(invalidRequestReply(failing([error(path)]), message, 1, "tools/call")).toMatchObject({
        error: { code: -32600 },
      });
    }
    const valid = routerState(PROTOCOL, VALIDATORS, "client->server", {}, {});
    expect(invalidRequestReply(valid, message, 1, "tools/call")).toBeUndefined();
  });

  it("refuses only a protocol version it does not serve, with the supported list", () => {
    const state = routerState(PROTOCOL, VALIDATORS, "client->server", {}, {});
    expect(unsupportedVersionReply(state, 1, { v: "2099-01-01" })).toBeUndefined();
    expect(unsupportedVersionReply(state, 1, {})).toBeUndefined();
    expect(unsupportedVersionReply(state, 1, { v: 2099 })).toBeUndefined();
    expect(unsupportedVersionReply(state, "x", { v: "1999-01-01" })).toEqual({
      jsonrpc: "2.0",
      id: "x",
      error: {
        code: -32022,
        message: "Unsupported protocol version: 1999-01-01",
        data: { supported: ["2099-01-01"], requested: "1999-01-01" },
      },
    });
  });
});
