import { expect, it } from "vitest";
import type { SessionRecord, SessionStore } from "../src/transport/http/server/sessions.js";

// What every SessionStore does, whatever holds the sessions (memory, Redis): run by the
// tests of each store with a factory making an empty store with the bounds given.

export type StoreFactory = (limits: {
  maxSessions?: number;
  maxSessionsPerPrincipal?: number;
  maxAnonymousSessions?: number;
}) => Promise<SessionStore>;

export const recordOf = (principal: string | undefined, logLevel?: string): SessionRecord => ({
  ...(principal === undefined ? {} : { principal }),
  session: {
    version: "2025-11-25",
    clientCapabilities: { elicitation: {} },
    clientInfo: { name: "client", version: "1.0.0" },
    ...(logLevel === undefined ? {} : { logLevel }),
    initialized: true,
    subscriptions: ["file:///a"],
  },
});

export function sessionStoreContract(make: StoreFactory): void {
  it("keeps a record as data: what was created is what is read", async () => {
    const store = await make({});
    expect(await store.create("s1", recordOf("alice"))).toBe("created");
    expect(await store.get("s1")).toEqual(recordOf("alice"));
    expect(await store.create("s2", recordOf(undefined, "info"))).toBe("created");
    expect(await store.get("s2")).toEqual(recordOf(undefined, "info"));
    expect(await store.get("unknown")).toBeUndefined();
    expect(await store.update("unknown", { logLevel: "debug" })).toBe(false);
    expect(await store.touch("unknown")).toBe(false);
    expect(await store.touch("s1")).toBe(true);
  });

  it("updates a record field by field: log level, initialized, subscriptions", async () => {
    const store = await make({});
    await store.create("s1", recordOf("alice"));
    expect(await store.update("s1", { logLevel: "debug" })).toBe(true);
    const subscriptions = async () => [...((await store.get("s1"))?.session.subscriptions ?? [])];
    expect((await store.get("s1"))?.session).toMatchObject({
      logLevel: "debug",
      initialized: true,
    });
    expect(await subscriptions()).toEqual(["file:///a"]);
    const uris = ["file:///b", "file:///c", "file:///d"];
    expect(await store.update("s1", { subscribed: uris, unsubscribed: ["file:///a"] })).toBe(true);
    expect((await subscriptions()).sort()).toEqual(uris);
    expect(await store.update("s1", { unsubscribed: ["file:///c"], initialized: false })).toBe(
      true,
    );
    const after = await store.get("s1");
    expect(after?.principal).toBe("alice");
    expect(after?.session).toMatchObject({ logLevel: "debug", initialized: false });
    expect([...after!.session.subscriptions].sort()).toEqual(["file:///b", "file:///d"]);
    expect(await store.update("s1", { unsubscribed: ["file:///b", "file:///d"] })).toBe(true);
    expect(await subscriptions()).toEqual([]);
    expect(await store.count("alice")).toBe(1);
  });

  it("refuses a principal's session beyond its cap, evicting nobody; delete frees a place", async () => {
    const store = await make({ maxSessionsPerPrincipal: 2 });
    expect(await store.create("b1", recordOf("bob"))).toBe("created");
    expect(await store.create("m1", recordOf("mallory"))).toBe("created");
    expect(await store.create("m2", recordOf("mallory"))).toBe("created");
    expect(await store.create("m3", recordOf("mallory"))).toBe("principal-full");
    expect(await store.get("m3")).toBeUndefined();
    expect(await store.get("b1")).toEqual(recordOf("bob"));
    expect([await store.count("mallory"), await store.count("bob")]).toEqual([2, 1]);
    expect(await store.delete("m1")).toBe(true);
    expect(await store.delete("m1")).toBe(false);
    expect(await store.get("m1")).toBeUndefined();
    expect(await store.create("m3", recordOf("mallory"))).toBe("created");
  });

  it("sessions without a principal share the anonymous bucket, with its own cap", async () => {
    const store = await make({ maxSessionsPerPrincipal: 1, maxAnonymousSessions: 3 });
    for (const id of ["a1", "a2", "a3"])
      expect(await store.create(id, recordOf(undefined))).toBe("created");
    expect(await store.create("a4", recordOf(undefined))).toBe("principal-full");
    expect(await store.count(undefined)).toBe(3);
    expect(await store.create("c1", recordOf("carol"))).toBe("created");
    expect(await store.create("c2", recordOf("carol"))).toBe("principal-full");
  });

  it("refuses any new session once the store is full, evicting nobody", async () => {
    const store = await make({ maxSessions: 2 });
    expect(await store.create("a", recordOf("alice"))).toBe("created");
    expect(await store.create("b", recordOf("bob"))).toBe("created");
    expect(await store.create("c", recordOf("carol"))).toBe("store-full");
    expect([await store.get("a"), await store.get("b")]).toEqual([
      recordOf("alice"),
      recordOf("bob"),
    ]);
    await store.delete("a");
    expect(await store.create("c", recordOf("carol"))).toBe("created");
  });
}
