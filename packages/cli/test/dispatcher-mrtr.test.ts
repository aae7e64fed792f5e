import { beforeAll, describe, expect, it, vi } from "vitest";
import { generatedFiles, importGenerated } from "./helpers.js";
import { meta, MODERN, request } from "./support/modern-messages.js";

// The 2026-07-28 dispatcher's multi round-trip requests (input_required, then the retry with
// inputResponses) and the sealed requestState they carry between rounds.

type Any = any;

let d: Any;
let v: Any;
beforeAll(async () => {
  const files = await generatedFiles(MODERN);
  d = await importGenerated<Any>(files, "dispatcher.js");
  v = await importGenerated<Any>(files, "validators.js");
});

describe("multi round-trip on the server side", () => {
  const elicit = {
    method: "elicitation/create",
    params: {
      mode: "form",
      message: "Name?",
      requestedSchema: { type: "object", properties: { name: { type: "string" } } },
    },
  };
  const caps = (c: object) => ({
    _meta: meta({ "io.modelcontextprotocol/clientCapabilities": c }),
  });

  it("inputRequired builds the interim result, and reads typed answers on the retry", async () => {
    const server = d.createServerDispatcher({
      "tools/call": (_p: Any, ctx: Any) => {
        const answer = ctx.inputResponse("who", "elicitation/create");
        if (!answer)
          return d.inputRequired(ctx, { inputRequests: { who: elicit }, requestState: "round-1" });
        return {
          content: [{ type: "text", text: `hello ${answer.content.name} (${ctx.requestState})` }],
        };
      },
    });
    const first = await server.handle(
      request("tools/call", { name: "greet", ...caps({ elicitation: {} }) }, 1),
    );
    expect(first.result).toEqual({
      resultType: "input_required",
      inputRequests: { who: elicit },
      requestState: "round-1",
    });
    expect(v.validateCallToolResultResponse(first).ok).toBe(true);
    const retry = await server.handle(
      request(
        "tools/call",
        {
          name: "greet",
          ...caps({ elicitation: {} }),
          inputResponses: { who: { action: "accept", content: { name: "Ada" } } },
          requestState: "round-1",
        },
        2,
      ),
    );
    expect(retry.result.content[0].text).toBe("hello Ada (round-1)");
    const badAnswer = await server.handle(
      request(
        "tools/call",
        {
          name: "greet",
          ...caps({ elicitation: {} }),
          inputResponses: { who: { action: "maybe" } },
        },
        3,
      ),
    );
    expect(badAnswer.error).toMatchObject({
      code: -32602,
      data: { errors: [{ path: "/params/inputResponses/who/action" }] },
    });
  });

  it("given the request that asked, checks an accepted form's content against its requestedSchema (servers SHOULD, client/elicitation)", async () => {
    const ask = {
      method: "elicitation/create",
      params: {
        mode: "form",
        message: "Sure?",
        requestedSchema: {
          type: "object",
          properties: { confirm: { type: "boolean" }, copies: { type: "integer", maximum: 3 } },
          required: ["confirm"],
        },
      },
    };
    const server = d.createServerDispatcher({
      "tools/call": (p: Any, ctx: Any) => {
        const answer = ctx.inputResponse(
          "sure",
          "elicitation/create",
          p.name === "checked" ? ask : undefined,
        );
        if (!answer) return d.inputRequired(ctx, { inputRequests: { sure: ask } });
        return {
          content: [
            { type: "text", text: `${answer.action} ${JSON.stringify(answer.content ?? null)}` },
          ],
        };
      },
    });
    const answer = (name: string, response: object, id = 1) =>
      server.handle(
        request(
          "tools/call",
          { name, ...caps({ elicitation: {} }), inputResponses: { sure: response } },
          id,
        ),
      );
    // A string where the form asked for a boolean, and a number above its maximum.
    const wrong = await answer("checked", {
      action: "accept",
      content: { confirm: "yes", copies: 9 },
    });
    expect(wrong.error).toMatchObject({
      code: -32602,
      data: {
        errors: [
          { path: "/params/inputResponses/sure/content/confirm", message: "expected a boolean" },
          { path: "/params/inputResponses/sure/content/copies", message: "must be at most 3" },
        ],
      },
    });
    expect(
      (await answer("checked", { action: "accept", content: {} })).error.data.errors[0],
    ).toMatchObject({ path: "/params/inputResponses/sure/content/confirm" });
    expect(
      (await answer("checked", { action: "accept", content: { confirm: true, copies: 2 } })).result
        .content[0].text,
    ).toBe('accept {"confirm":true,"copies":2}');
    // Declined and cancelled answers carry no content to check; without the request, no schema.
    expect((await answer("checked", { action: "decline" })).result.content[0].text).toBe(
      "decline null",
    );
    expect(
      (await answer("unchecked", { action: "accept", content: { confirm: "yes" } })).result
        .content[0].text,
    ).toBe('accept {"confirm":"yes"}');
  });

  it("refuses to ask for an input the request's capabilities do not declare", async () => {
    const server = d.createServerDispatcher({
      "tools/call": (_p: Any, ctx: Any) => d.inputRequired(ctx, { inputRequests: { who: elicit } }),
    });
    const reply = await server.handle(
      request("tools/call", { name: "greet", ...caps({ sampling: {} }) }),
    );
    expect(reply.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { elicitation: {} } },
    });
  });

  it("refuses the same for an input_required result the handler writes itself", async () => {
    const server = d.createServerDispatcher({
      "tools/call": () => ({
        resultType: "input_required",
        inputRequests: { where: { method: "roots/list" } },
      }),
    });
    const reply = await server.handle(
      request("tools/call", { name: "files", ...caps({ elicitation: {} }) }),
    );
    expect(reply.error).toEqual({
      code: -32021,
      message: "this request needs the client capability roots",
      data: { requiredCapabilities: { roots: {} } },
    });
    expect(v.validateMissingRequiredClientCapabilityError(reply).ok).toBe(true);
    const declared = await server.handle(
      request("tools/call", { name: "files", ...caps({ roots: {} }) }),
    );
    expect(declared.result).toEqual({
      resultType: "input_required",
      inputRequests: { where: { method: "roots/list" } },
    });
  });

  it("needs inputRequests or requestState", async () => {
    const onError = vi.fn();
    const server = d.createServerDispatcher(
      { "tools/call": (_p: Any, ctx: Any) => d.inputRequired(ctx, {}) },
      { onError },
    );
    // A tool handler's own failure reaches the model as a tool execution error.
    expect((await server.handle(request("tools/call", { name: "x" }))).result).toMatchObject({
      isError: true,
      content: [{ text: expect.stringMatching(/inputRequests or requestState/) }],
    });
    expect(onError.mock.calls[0]![0]).toBeInstanceOf(TypeError);
  });
});

describe("sealed request state", () => {
  const secret = "0123456789abcdef0123456789abcdef";
  const req = {
    method: "tools/call",
    params: { name: "transfer", arguments: { amount: 5 }, _meta: meta() },
  };

  it("round-trips, ignoring _meta, inputResponses and requestState in the digest", async () => {
    const token = await d.sealRequestState(
      { step: 2, ok: true },
      { secret, principal: "alice", request: req },
    );
    expect(typeof token).toBe("string");
    const retry = {
      method: "tools/call",
      params: {
        ...req.params,
        _meta: meta({ progressToken: 1 }),
        inputResponses: {},
        requestState: token,
      },
    };
    expect(await d.openRequestState(token, { secret, principal: "alice", request: retry })).toEqual(
      { step: 2, ok: true },
    );
  });

  it("rejects tampering with any byte", async () => {
    // Many tokens, so the last characters (with unused low bits) are covered in every spelling.
    let rejected = 0;
    for (let n = 0; n < 8; n++) {
      const token: string = await d.sealRequestState(
        { amount: n },
        { secret, principal: "alice", request: req },
      );
      for (let i = 0; i < token.length; i++) {
        for (const replacement of ["A", "B", "-", "."]) {
          if (token[i] === replacement) continue;
          const tampered = token.slice(0, i) + replacement + token.slice(i + 1);
          await expect(
            d.openRequestState(tampered, { secret, principal: "alice", request: req }),
          ).rejects.toMatchObject({ code: -32602 });
          rejected++;
        }
      }
    }
    expect(rejected).toBeGreaterThan(8 * 100);
    const token: string = await d.sealRequestState(
      { amount: 5 },
      { secret, principal: "alice", request: req },
    );
    await expect(
      d.openRequestState(token + "x", { secret, principal: "alice", request: req }),
    ).rejects.toThrow(/invalid requestState/);
    await expect(d.openRequestState("", { secret, request: req })).rejects.toThrow(/malformed/);
    await expect(
      d.openRequestState(token, {
        secret: "another secret of enough bytes!",
        principal: "alice",
        request: req,
      }),
    ).rejects.toThrow(/signature mismatch/);
  });

  it("rejects expired state", async () => {
    const token = await d.sealRequestState(1, {
      secret,
      request: req,
      ttlMs: 1000,
      now: 1_000_000,
    });
    expect(await d.openRequestState(token, { secret, request: req, now: 1_000_999 })).toBe(1);
    await expect(
      d.openRequestState(token, { secret, request: req, now: 1_001_001 }),
    ).rejects.toThrow(/expired/);
  });

  it("rejects a foreign principal and a foreign request", async () => {
    const token = await d.sealRequestState(1, { secret, principal: "alice", request: req });
    await expect(
      d.openRequestState(token, { secret, principal: "mallory", request: req }),
    ).rejects.toThrow(/another principal/);
    await expect(d.openRequestState(token, { secret, request: req })).rejects.toThrow(
      /another principal/,
    );
    const other = { method: "tools/call", params: { ...req.params, arguments: { amount: 5000 } } };
    await expect(
      d.openRequestState(token, { secret, principal: "alice", request: other }),
    ).rejects.toThrow(/another request/);
    await expect(
      d.openRequestState(token, {
        secret,
        principal: "alice",
        request: { ...req, method: "prompts/get" },
      }),
    ).rejects.toThrow(/another request/);
  });

  it("works through the handler context", async () => {
    const server = d.createServerDispatcher({
      "tools/call": async (_p: Any, ctx: Any) => {
        const state = await d.openStateFor(ctx, { secret });
        if (state === undefined)
          return d.inputRequired(ctx, {
            requestState: await d.sealStateFor(ctx, { round: 1 }, { secret }),
          });
        return { content: [{ type: "text", text: JSON.stringify(state) }] };
      },
    });
    const first = await server.handle(request("tools/call", { name: "t" }), { principal: "bob" });
    const state = first.result.requestState;
    const second = await server.handle(
      request("tools/call", { name: "t", requestState: state }, 2),
      { principal: "bob" },
    );
    expect(second.result.content[0].text).toBe('{"round":1}');
    const stolen = await server.handle(
      request("tools/call", { name: "t", requestState: state }, 3),
      { principal: "eve" },
    );
    expect(stolen.error).toMatchObject({
      code: -32602,
      message: "invalid requestState: sealed for another principal",
    });
  });
});
