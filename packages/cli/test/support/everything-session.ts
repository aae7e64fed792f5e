import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { texts, type Drive } from "./everything.js";

// What server-everything does with the session: log levels and log messages, resource
// subscriptions, progress, cancellation and timeouts, and the requests it sends the client
// (roots, sampling, form and URL elicitation), answered by the generated client's input
// handlers; and its task-required tool through the client's tasks API.

type Any = any;

/** Tools this suite calls (everything-catalog.ts calls the others). */
export const SESSION_TOOLS = [
  "toggle-simulated-logging",
  "toggle-subscriber-updates",
  "trigger-long-running-operation",
  "get-roots-list",
  "trigger-sampling-request",
  "trigger-elicitation-request",
  "trigger-url-elicitation",
  "simulate-research-query",
];
/** 2025-11-25 server/utilities/logging, "Log Levels": RFC 5424's severities, least first. */
const LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];
const LONG = "trigger-long-running-operation";
const RESEARCH = "simulate-research-query";

const isLog = (n: Any) => n.method === "notifications/message";
const logSays = (text: string) => (n: Any) => isLog(n) && String(n.params.data).includes(text);

/** The values a form's properties default to. */
const defaultsOf = (schema: Any) =>
  Object.fromEntries(
    Object.entries(schema.properties)
      .filter(([, p]: Any) => p.default !== undefined)
      .map(([k, p]: Any) => [k, p.default]),
  );
/** The JSON after "Raw result:" in a tool's text: what the server received. */
const rawResult = (r: Any) => JSON.parse(texts(r).join("\n").split("Raw result:")[1]!);

export function sessionSuite(get: () => Drive): void {
  const call = (name: string, args: Any = {}, options?: Any) =>
    get().c.callTool({ name, arguments: args }, options);

  describe("logging and subscriptions", () => {
    it("logging/setLevel at every level: a log message comes only at or above it", async () => {
      const d = get();
      // Each subscribe makes the server log one message naming the URI (at "info").
      const uriAt = (level: string) => `demo://drive/log/${level}/${randomUUID()}`;
      const uris = LEVELS.map(uriAt);
      for (const [i, level] of LEVELS.entries()) {
        await d.c.setLevel({ level });
        await d.c.subscribeResource({ uri: uris[i] });
      }
      // On one ordered stream, the last message comes after any of those before it.
      await d.c.setLevel({ level: "debug" });
      const last = uriAt("last");
      const marker = d.heard.next(logSays(last), "the log message of the last subscribe");
      await d.c.subscribeResource({ uri: last });
      const { params } = await marker;
      const rank = (level: string) => LEVELS.indexOf(level);
      LEVELS.forEach((level, i) => {
        const logged = d.heard.logs.filter((m) => String(m.data).includes(uris[i]!));
        expect(logged.length).toBe(rank(params.level) >= rank(level) ? 1 : 0);
      });
      for (const uri of [...uris, last]) await d.c.unsubscribeResource({ uri });
    });

    it("toggle-simulated-logging: the server's messages arrive at their levels", async () => {
      const d = get();
      await d.c.setLevel({ level: "debug" });
      const simulated = (n: Any) => isLog(n) && /level[- ]message/i.test(String(n.params.data));
      const first = d.heard.next(simulated, "a simulated log message");
      expect(texts(await call("toggle-simulated-logging"))[0]).toMatch(/^Started/);
      const { params } = await first;
      expect(LEVELS).toContain(params.level);
      expect(String(params.data).toLowerCase()).toContain(params.level);
      expect(texts(await call("toggle-simulated-logging"))[0]).toMatch(/^Stopped/);
    });

    it("resources/subscribe brings resources/updated; after unsubscribe, none", async () => {
      const d = get();
      const gone = `demo://drive/sub/gone/${randomUUID()}`;
      const kept = `demo://drive/sub/kept/${randomUUID()}`;
      await d.c.subscribeResource({ uri: gone });
      await d.c.subscribeResource({ uri: kept });
      await d.c.unsubscribeResource({ uri: gone });
      const updated = (uri: string) => (n: Any) =>
        n.method === "notifications/resources/updated" && n.params.uri === uri;
      const arrived = d.heard.next(updated(kept), "resources/updated for the subscribed URI");
      expect(texts(await call("toggle-subscriber-updates"))[0]).toMatch(/^Started/);
      await arrived;
      // The server sends the subscribed URIs in subscription order: `gone` would come first.
      expect(d.heard.list.some(updated(gone))).toBe(false);
      expect(texts(await call("toggle-subscriber-updates"))[0]).toMatch(/^Stopped/);
      await d.c.unsubscribeResource({ uri: kept });
    });
  });

  describe("progress, cancellation, timeouts", () => {
    it("onProgress hears each step of a long operation", async () => {
      const progress: Any[] = [];
      const [duration, steps] = [0.4, 4];
      const r = await call(LONG, { duration, steps }, { onProgress: (p: Any) => progress.push(p) });
      expect(progress.map((p) => p.progress)).toEqual(
        Array.from({ length: steps }, (_, i) => i + 1),
      );
      expect(progress.every((p) => p.total === steps)).toBe(true);
      expect(texts(r)[0]).toContain(`Duration: ${duration} seconds, Steps: ${steps}`);
    });

    it("aborting a call sends notifications/cancelled, and the server answers it no more", async () => {
      const d = get();
      const [duration, steps] = [1.2, 4];
      const controller = new AbortController();
      let started!: () => void;
      const firstStep = new Promise<void>((r) => (started = r));
      const pending = call(
        LONG,
        { duration, steps },
        { signal: controller.signal, onProgress: () => started() },
      );
      await firstStep;
      controller.abort(new Error("the user stopped it"));
      await expect(pending).rejects.toThrow("the user stopped it");
      const request = d.sent.list.filter((m) => m.method === "tools/call").at(-1);
      expect(request.params.arguments).toEqual({ duration, steps });
      const cancels = (m: Any) =>
        m?.method === "notifications/cancelled" && m.params.requestId === request.id;
      await d.sent.next(cancels, "notifications/cancelled for the aborted call", true);
      if (d.kind === "http") {
        // Accepted by the server's transport (HTTP 202), which aborts the tool's handler.
        const posted = await d.exchanges.next(
          (e) => cancels(e.body),
          "the cancellation's POST",
          true,
        );
        expect(posted.status).toBe(202);
        return;
      }
      // stdio: the tool runs on (it ignores its signal), but its result, which would follow its
      // last progress, is never written: the server saw the cancellation.
      const token = request.params._meta.progressToken;
      await d.heard.next(
        (n) =>
          n.method === "notifications/progress" &&
          n.params.progressToken === token &&
          n.params.progress === steps,
        "the cancelled operation's last step",
        true,
      );
      await d.c.ping();
      expect(d.written.filter((m) => m.id === request.id && !("method" in m))).toEqual([]);
    });

    it("a call past its timeoutMs fails with RequestTimeoutError and is cancelled", async () => {
      const d = get();
      const pending = call(LONG, { duration: 1, steps: 1 }, { timeoutMs: 200 });
      await expect(pending).rejects.toBeInstanceOf(d.clientModule.RequestTimeoutError);
      const request = d.sent.list.filter((m) => m.method === "tools/call").at(-1);
      expect(request.params.arguments).toEqual({ duration: 1, steps: 1 });
      const cancels = (m: Any) =>
        m.method === "notifications/cancelled" && m.params.requestId === request.id;
      await d.sent.next(cancels, "notifications/cancelled for the timed-out call", true);
    });
  });

  describe("the server's requests, answered by the input handlers", () => {
    it("roots/list: get-roots-list shows the roots; roots/list_changed makes it ask again", async () => {
      const d = get();
      const shown = async () => texts(await call("get-roots-list"))[0]!;
      const listsAll = (text: string) => {
        expect(text).toContain(`(${d.roots.length} total)`);
        for (const root of d.roots) expect(text).toContain(`${root.name}\n   URI: ${root.uri}`);
      };
      listsAll(await shown());
      const before = d.roots;
      d.roots = ["two", "three"].map((n) => ({
        uri: `file:///work/drive-${n}`,
        name: `drive-${n}`,
      }));
      const asked = d.heard.next(
        logSays(`Roots updated: ${d.roots.length} root(s)`),
        "roots asked again",
      );
      await d.c.notifyRootsListChanged();
      await asked;
      const now = await shown();
      listsAll(now);
      for (const root of before) expect(now).not.toContain(root.uri);
    });

    it("sampling/createMessage: the tool returns what the handler answered", async () => {
      const d = get();
      const prompt = `drive ${randomUUID()}`;
      const maxTokens = 77;
      const r = await call("trigger-sampling-request", { prompt, maxTokens });
      const asked = d.asked.sampling.at(-1);
      expect(asked.maxTokens).toBe(maxTokens);
      expect(asked.messages[0].content.text).toContain(prompt);
      const said = asked.messages.map((m: Any) => m.content.text).join(" ");
      const returned = JSON.parse(texts(r)[0]!.slice(texts(r)[0]!.indexOf("{")));
      expect(returned).toMatchObject({
        role: "assistant",
        model: "drive-model",
        content: { type: "text", text: `Heard ${said.length} characters: ${said}` },
      });
    });

    it("form elicitation: a number answered 1.5 and defaults filled pass; integer 1.5 is refused", async () => {
      const d = get();
      const answer = {
        name: "Ada Lovelace",
        check: true,
        email: "ada@example.com",
        homepage: "https://example.com/ada",
        birthdate: "1815-12-10",
        integer: 7,
        number: 1.5,
      };
      d.elicit = () => ({ action: "accept", content: answer });
      const r = await call("trigger-elicitation-request");
      const schema = d.asked.elicitation.at(-1).requestedSchema;
      expect(schema.properties.number.type).toBe("number");
      // The handler's answer, the form's defaults where it said nothing.
      expect(rawResult(r)).toEqual({
        action: "accept",
        content: { ...defaultsOf(schema), ...answer },
      });
      expect(texts(r).join("\n")).toContain(`- Favorite Number: ${answer.number}`);
      d.elicit = () => ({ action: "accept", content: { name: answer.name } });
      const defaulted = rawResult(await call("trigger-elicitation-request"));
      expect(defaulted.content).toEqual({ ...defaultsOf(schema), name: answer.name });
      expect(defaulted.content.number).toBe(schema.properties.number.default);
      // An integer field answered 1.5: the client refuses its own handler's answer.
      d.elicit = () => ({ action: "accept", content: { ...answer, integer: 1.5 } });
      const refused = await call("trigger-elicitation-request");
      expect(refused.isError).toBe(true);
      expect(texts(refused)[0]).toContain("/content/integer");
      d.elicit = () => ({ action: "decline" });
      expect(rawResult(await call("trigger-elicitation-request"))).toEqual({ action: "decline" });
    });

    it("URL elicitation: the request path, and the -32042 error path retried", async () => {
      const d = get();
      const url = `https://example.com/drive/${randomUUID()}`;
      d.elicit = (params) => (params.mode === "url" ? { action: "accept" } : { action: "decline" });
      const r = await call("trigger-url-elicitation", { url });
      const asked = d.asked.elicitation.at(-1);
      expect(asked).toMatchObject({ mode: "url", url });
      expect(texts(r)[0]).toContain(`Elicitation ID: ${asked.elicitationId}`);
      expect(rawResult(r)).toEqual({ action: "accept" });
      const args = { url, errorPath: true };
      const refusal = await call("trigger-url-elicitation", args).catch((e: unknown) => e);
      expect(refusal).toBeInstanceOf(d.clientModule.McpError);
      expect(refusal.code).toBe(-32042);
      const [required] = refusal.data.elicitations;
      expect(required).toMatchObject({ mode: "url", elicitationId: expect.any(String) });
      expect(required.url).not.toBe(url);
      // The host opened required.url; the same call again goes through.
      const retried = await call("trigger-url-elicitation", args);
      expect(d.asked.elicitation.at(-1)).toMatchObject({ mode: "url", url });
      expect(rawResult(retried)).toEqual({ action: "accept" });
    });
  });

  describe.concurrent(`${RESEARCH} (taskSupport "required") through the tasks API`, () => {
    const topic = () => `tides ${randomUUID().slice(0, 8)}`;

    it("callTool makes it a task and resolves to the report", async () => {
      const d = get();
      const t = topic();
      const r = await call(RESEARCH, { topic: t });
      expect(texts(r)[0]).toContain(`# Research Report: ${t}`);
      const request = d.sent.list.find(
        (m) => m.method === "tools/call" && m.params.arguments.topic === t,
      );
      expect(request.params.task).toEqual({});
    });

    it("callToolTask: statuses working -> completed with each stage, then the result", async () => {
      const t = topic();
      const handle = await get().c.callToolTask({ name: RESEARCH, arguments: { topic: t } });
      expect(handle.taskId).toEqual(expect.any(String));
      const statuses: Any[] = [];
      for await (const s of handle) statuses.push(s);
      expect(statuses.at(-1).status).toBe("completed");
      expect(new Set(statuses.map((s) => s.status))).toEqual(new Set(["working", "completed"]));
      expect(statuses.every((s) => s.taskId === handle.taskId)).toBe(true);
      expect(statuses.some((s) => /\.\.\.$/.test(s.statusMessage ?? ""))).toBe(true);
      expect(texts(await handle.result())[0]).toContain(`# Research Report: ${t}`);
    });

    it("input_required: the ambiguous query's elicitation answered, the report says so", async () => {
      const d = get();
      // Picks the second interpretation the server offers.
      d.elicit = (params) => {
        const offered = params.requestedSchema?.properties?.interpretation?.oneOf;
        if (!offered) return { action: "decline" };
        return { action: "accept", content: { interpretation: offered[1].const } };
      };
      const handle = await d.c.callToolTask({
        name: RESEARCH,
        arguments: { topic: `python ${randomUUID().slice(0, 8)}`, ambiguous: true },
      });
      const result = await handle.result();
      const asked = d.asked.elicitation.find((p) => p.requestedSchema?.properties?.interpretation);
      const chosen = asked.requestedSchema.properties.interpretation.oneOf[1].const;
      expect(texts(result)[0]).toContain(`(${chosen})`);
      const kinds: string[] = [];
      for await (const s of handle) kinds.push(s.status);
      expect(kinds).toContain("input_required");
      expect(kinds.at(-1)).toBe("completed");
    });

    it("a task past taskTimeoutMs fails with TaskTimeoutError and is cancelled on the server", async () => {
      const d = get();
      const error = await call(RESEARCH, { topic: topic() }, { taskTimeoutMs: 300 }).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(d.clientModule.TaskTimeoutError);
      const cancels = (m: Any) => m.method === "tasks/cancel" && m.params.taskId === error.taskId;
      const cancel = await d.sent.next(cancels, "tasks/cancel for the timed-out task", true);
      // Sent without waiting for its answer (task-run.ts): wait for it here.
      const answer = await d.answered.next(
        (r) => r.id === cancel.id,
        "tasks/cancel's answer",
        true,
      );
      expect(answer.result).toMatchObject({ taskId: error.taskId, status: "cancelled" });
      const { tasks } = await d.c.listTasks();
      expect(tasks.find((t: Any) => t.taskId === error.taskId)?.status).toBe("cancelled");
    });
  });
}
