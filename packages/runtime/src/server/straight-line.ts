import type { RequestContext } from "./context.js";
import { inputRequired } from "./input-required.js";
import { sealStateFor, openStateFor, type StateSecret } from "./request-state.js";
import { isObject, type ProtocolDescriptor } from "../core/protocol.js";
import { inheritBackChannel } from "./back-channel-uses.js";

// Straight-line input: a handler awaits its questions to the client (sampling, elicitation,
// roots) as ordinary calls, in both eras, from one body. The handler is replayed: the round
// that meets an unanswered ask answers input_required with it (2026-07-28
// basic/patterns/mrtr), and the client's retry runs the handler again, its earlier asks
// resolved from the answers so far (carried in sealed requestState, as the client sends back
// only the latest round's answers). Legacy sessions get the same rounds: the dispatcher asks
// the client on the session and calls the handler again (legacy-request-bridge.ts). So every
// era runs the same code the same way, and a handler tested in one behaves alike in the other.

/** withInput's options. */
export interface StraightLineOptions {
  /** Seals the answers so far into requestState (see sealStateFor); a list during rotation. */
  secret: StateSecret;
  /** How long a round's state stays valid, in milliseconds (default 10 minutes). */
  ttlMs?: number;
  /** Most asks one call may make, answered or not (default 32): a loop that asks forever stops. */
  maxAsks?: number;
  /** Longest sealed state, in characters (default 65,536, what opening accepts). */
  maxStateLength?: number;
}

/** Asks the client one input request; resolves with its answer, checked as `method`'s result. */
export type Ask = (method: string, params?: unknown) => Promise<unknown>;

/** What is sealed between rounds: each ask's fingerprint by ordinal, and the answers so far. */
interface Rounds {
  asked: string[];
  answers: Record<string, unknown>;
}

const DEFAULT_MAX_ASKS = 32;
const DEFAULT_MAX_STATE_LENGTH = 65_536;

/** Thrown into the handler at an ask this round cannot answer; withInput catches it. */
class AskPending extends Error {
  constructor() {
    super("withInput: this ask is answered on the next round (do not catch this error)");
  }
}

/**
 * A stable digest of an ask (method and params, keys sorted): an ask that differs on replay
 * is caught. Not a security measure (the state is sealed): FNV-1a over the canonical JSON.
 */
export function askFingerprint(method: string, params: unknown): string {
  const text = canonical([method, params ?? null]);
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193) >>> 0;
    h2 = Math.imul(h2 ^ c, 0x5bd1e995) >>> 0;
  }
  return `${h1.toString(36)}.${h2.toString(36)}.${text.length.toString(36)}`;
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (isObject(value))
    return `{${Object.keys(value)
      .filter((k) => value[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`)
      .join(",")}}`;
  return JSON.stringify(value) ?? "null";
}

/** The state of earlier rounds, or none; refused (invalid params) when tampered with. */
async function openRounds(ctx: RequestContext, secret: StateSecret): Promise<Rounds> {
  const opened = await openStateFor(ctx, { secret });
  if (opened === undefined) return { asked: [], answers: {} };
  const rounds = opened as Partial<Rounds>;
  if (!Array.isArray(rounds.asked) || !isObject(rounds.answers))
    throw new Error("withInput: requestState was not sealed by withInput");
  return { asked: rounds.asked.map(String), answers: rounds.answers };
}

/**
 * A context whose notifications (notify, progress, log) are dropped while `replaying()`:
 * the code before the last answered ask already sent them in an earlier round, and sending
 * them again would repeat logs and move progress backwards (it MUST increase,
 * basic/utilities/progress).
 */
function quietWhile(ctx: RequestContext, replaying: () => boolean): RequestContext {
  const quiet = Object.create(ctx) as RequestContext & Record<string, unknown>;
  quiet["notify"] = (n: never) => (replaying() ? Promise.resolve() : ctx.notify(n));
  quiet["sendProgress"] = (...a: Parameters<RequestContext["sendProgress"]>) =>
    replaying() ? Promise.resolve() : ctx.sendProgress(...a);
  quiet["log"] = (...a: Parameters<RequestContext["log"]>) =>
    replaying() ? Promise.resolve() : ctx.log(...a);
  return quiet;
}

/**
 * Serves `handler`, which awaits `ask(...)` for input, as a multi round-trip handler:
 * returns its result once every ask it makes has an answer, else input_required with the
 * asks still open (all those made before the handler stopped: `Promise.all` asks several in
 * one round). Code before an ask runs again on each later round: keep it free of side
 * effects, or idempotent; its notifications are not sent twice. An ask that differs from the
 * one made at the same place in an earlier round is an error (the handler is not
 * deterministic), as is a handler that answers although an ask is open (it caught the ask's
 * error).
 */
export function withInput<
  Args,
  Result,
  Ctx extends RequestContext = RequestContext,
  Interim = ReturnType<typeof inputRequired>,
>(
  protocol: ProtocolDescriptor,
  handler: (args: Args, ctx: Ctx, ask: Ask) => Promise<Result> | Result,
  options: StraightLineOptions,
): (args: Args, ctx: Ctx) => Promise<Result | Interim> {
  if (!protocol.features.mrtr)
    throw new TypeError(`revision ${protocol.revision} has no multi round-trip requests`);
  const maxAsks = options.maxAsks ?? DEFAULT_MAX_ASKS;
  // Marked: a legacy serving mode without a back-channel names it at start-up.
  return inheritBackChannel(serve, handler, ["input"]);
  async function serve(args: Args, ctx: Ctx): Promise<Result | Interim> {
    const rounds = await openRounds(ctx, options.secret);
    const answered = Object.keys(rounds.answers).map(Number);
    // Only answers to the previous round's asks count (a client's other keys are ignored).
    for (const key of Object.keys(ctx.inputResponses as object))
      if (Number(key) < rounds.asked.length) answered.push(Number(key));
    // Notifications are sent once the handler is past the last ask known to be answered.
    const replayUntil = answered.length === 0 ? 0 : Math.max(...answered) + 1;
    const asked: string[] = [];
    const open: { key: string; method: string; params: unknown }[] = [];
    const ask: Ask = (method, params) => {
      const n = asked.length;
      if (n >= maxAsks) return Promise.reject(new Error(`withInput: more than ${maxAsks} asks`));
      const fingerprint = askFingerprint(method, params);
      asked.push(fingerprint);
      const key = String(n);
      if (n < rounds.asked.length && rounds.asked[n] !== fingerprint)
        return Promise.reject(
          new Error(
            `withInput: ask #${n + 1} (${method}) differs from the one made there in an ` +
              "earlier round: the code before an ask must make the same asks on every round",
          ),
        );
      if (Object.prototype.hasOwnProperty.call(rounds.answers, key))
        return Promise.resolve(rounds.answers[key]);
      if (n < rounds.asked.length) {
        // Asked in the previous round: its answer is in this round's inputResponses.
        const answer = ctx.inputResponse(key, method as never, { params });
        if (answer !== undefined) {
          rounds.answers[key] = answer;
          return Promise.resolve(answer);
        }
      }
      open.push({ key, method, params });
      return Promise.reject(new AskPending());
    };
    const quiet = quietWhile(ctx, () => asked.length < replayUntil) as Ctx;
    let outcome: { ok: true; value: Result } | { ok: false; error: unknown };
    try {
      outcome = { ok: true, value: await handler(args, quiet, ask) };
    } catch (error) {
      outcome = { ok: false, error };
    }
    if (open.length === 0) {
      if (outcome.ok) return outcome.value;
      throw outcome.error;
    }
    if (outcome.ok || !(outcome.error instanceof AskPending)) {
      // The handler went on past an open ask (caught its error): its answer is not one.
      const what = outcome.ok ? "returned" : `threw another error (${String(outcome.error)})`;
      throw new Error(`withInput: the handler ${what} while an ask was open (do not catch it)`);
    }
    const requestState = await sealStateFor(
      ctx,
      { asked, answers: rounds.answers } satisfies Rounds,
      {
        secret: options.secret,
        ...(options.ttlMs !== undefined ? { ttlMs: options.ttlMs } : {}),
      },
    );
    const limit = options.maxStateLength ?? DEFAULT_MAX_STATE_LENGTH;
    if (requestState.length > limit)
      throw new Error(
        `withInput: the answers so far seal to ${requestState.length} characters, over ` +
          `${limit} (maxStateLength): ask for less, or fewer times`,
      );
    const inputRequests = Object.fromEntries(
      open.map(({ key, method, params }) => [
        key,
        { method, ...(params !== undefined ? { params } : {}) },
      ]),
    );
    // Interim: the revision's InputRequiredResult, as the generated dispatcher names it.
    return inputRequired(protocol, ctx, { inputRequests, requestState }) as Interim;
  }
}
