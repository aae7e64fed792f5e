import { type } from "arktype";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { openStateFor, sealStateFor, type StateContext } from "../src/server/request-state.js";
import { validate } from "../../cli/test/support/ajv-validate.js";

// sealStateFor / openStateFor with a schema: the state keeps its type, and state of another
// shape (sealed by another release of the server, say) is refused at run time.

const SECRET = "a secret of at least sixteen bytes";
const request = { method: "tools/call", params: { name: "order", arguments: {} } };
/** The retry's context: the same request, carrying the state sealed in the round before. */
const retry = (requestState: string | undefined): StateContext => ({
  principal: undefined,
  request,
  requestState,
});
const first = retry(undefined);

const sizeState = z.object({ size: z.enum(["small", "large"]), round: z.number().default(1) });
const askedState = {
  type: "object",
  properties: { asked: { const: "name" } },
  required: ["asked"],
} as const;

describe("typed request state", () => {
  it("a Standard Schema: what it gives back (defaults applied), typed; undefined without state", async () => {
    const sealed = await sealStateFor(
      first,
      { size: "large" },
      { secret: SECRET, schema: sizeState },
    );
    const opened = await openStateFor(retry(sealed), { secret: SECRET, schema: sizeState });
    expect(opened).toEqual({ size: "large", round: 1 });
    expect(await openStateFor(first, { secret: SECRET, schema: sizeState })).toBeUndefined();
  });

  it("refuses state of another shape as invalid params, naming the problem", async () => {
    const other = await sealStateFor(first, { size: "huge" }, { secret: SECRET });
    await expect(
      openStateFor(retry(other), { secret: SECRET, schema: sizeState }),
    ).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(
        /^invalid requestState: it does not match its schema: \/size: /,
      ),
    });
    const ark = type({ size: "'small' | 'large'" });
    await expect(openStateFor(retry(other), { secret: SECRET, schema: ark })).rejects.toThrow(
      /does not match its schema: \/size: size must be "large" or "small" \(was "huge"\)/,
    );
  });

  it("a JSON Schema literal, checked by the validator given with it", async () => {
    const sealed = await sealStateFor(
      first,
      { asked: "name" },
      { secret: SECRET, schema: askedState },
    );
    expect(
      await openStateFor(retry(sealed), { secret: SECRET, schema: askedState, validate }),
    ).toEqual({
      asked: "name",
    });
    const other = await sealStateFor(first, { asked: "age" }, { secret: SECRET });
    await expect(
      openStateFor(retry(other), { secret: SECRET, schema: askedState, validate }),
    ).rejects.toThrow(/does not match its schema: \/asked must be equal to constant/);
    // Without its validator, a JSON Schema cannot be checked: refused before anything is opened.
    await expect(
      openStateFor(retry(other), { secret: SECRET, schema: askedState } as never),
    ).rejects.toThrow(/a JSON Schema `schema` needs `validate`/);
  });

  it("still refuses tampered state before the schema is asked", async () => {
    const sealed = await sealStateFor(
      first,
      { size: "small" },
      { secret: SECRET, schema: sizeState },
    );
    await expect(
      openStateFor(retry(`${sealed.slice(0, -2)}AA`), { secret: SECRET, schema: sizeState }),
    ).rejects.toThrow(/invalid requestState: (signature mismatch|malformed)/);
  });
});
