import { createServer } from "node:net";

// A module of its own, importing none of the checkout's .mjs scripts: the runtime package's
// type-check reaches it through redis.ts and takes no JavaScript.

/** A port free on 127.0.0.1 now (for a server that must know its URL before it starts). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
