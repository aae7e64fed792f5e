import { describe, expect, it } from "vitest";
import { openRequestState, sealRequestState } from "../src/server/request-state.js";

const request = { method: "tools/call", params: { name: "pay", arguments: { amount: 5 } } };
const OLD = "an old secret of enough bytes!!";
const NEW = "the new secret of enough bytes!";

describe("runtime request state", () => {
  it("rotates keys: the first seals, every listed key opens", async () => {
    const sealedOld = await sealRequestState({ n: 1 }, { secret: OLD, request });
    const sealedNew = await sealRequestState({ n: 2 }, { secret: [NEW, OLD], request });
    expect(await openRequestState(sealedOld, { secret: [NEW, OLD], request })).toEqual({ n: 1 });
    expect(await openRequestState(sealedNew, { secret: NEW, request })).toEqual({ n: 2 });
    // Once the old key is dropped, its state is refused.
    await expect(openRequestState(sealedOld, { secret: [NEW], request })).rejects.toThrow(
      /signature mismatch/,
    );
  });

  it("refuses an oversized token before any crypto work", async () => {
    const huge = "a".repeat(4 * 1024 * 1024) + ".b";
    await expect(openRequestState(huge, { secret: NEW, request })).rejects.toThrow(/too large/);
  });

  it("binds state to non-finite numbers not at all: sealing refuses them, opening refuses a request holding them", async () => {
    // JSON.stringify writes Infinity as null, so a digest built on it would let state sealed
    // for {n: null} open for {n: 1e400} (which JSON.parse reads as Infinity).
    const withNull = { method: "tools/call", params: { name: "pay", arguments: { n: null } } };
    const withHuge = JSON.parse(
      '{"method":"tools/call","params":{"name":"pay","arguments":{"n":1e400}}}',
    );
    expect(withHuge.params.arguments.n).toBe(Infinity);
    const sealed = await sealRequestState({ ok: true }, { secret: NEW, request: withNull });
    expect(await openRequestState(sealed, { secret: NEW, request: withNull })).toEqual({
      ok: true,
    });
    await expect(openRequestState(sealed, { secret: NEW, request: withHuge })).rejects.toThrow(
      /invalid requestState: .*non-finite number at \/params\/arguments\/n/,
    );
    for (const n of [Infinity, -Infinity, NaN]) {
      const request = { method: "tools/call", params: { name: "pay", arguments: [1, { n }] } };
      await expect(sealRequestState({}, { secret: NEW, request })).rejects.toThrow(
        /cannot seal requestState: .*non-finite number at \/params\/arguments\/1\/n/,
      );
    }
  });

  it("refuses an empty key list", async () => {
    await expect(sealRequestState(1, { secret: [], request })).rejects.toThrow(/empty/);
  });
});
