import { GeneratedFile } from "../../print/generated-file.js";
import { runtimeImports } from "../../emit/runtime.js";
import { RT } from "../../emit/runtime-symbols.js";
import type { Scaffold, ScaffoldView } from "./view.js";

/**
 * src/test/server.test.ts (`npm test`, node:test): the example tools, prompt and resources
 * through the generated client joined to the server in memory (the runtime's test client,
 * connectInMemory), in each era the server speaks, and the request-state secrets. One
 * function a test, in the file's order; `TESTS` lists them.
 */
export const serverTestScaffold: Scaffold = {
  path: "src/test/server.test.ts",
  print: (view) => {
    const w = new GeneratedFile("src/test/server.test.ts", runtimeImports("package"));
    w.use(RT.testing.connectInMemory);
    w.importDefault("node:assert/strict", "assert");
    w.import("node:test", "test");
    w.import("../mcp/client.js", "createClient");
    w.import("../mcp/client.js", "createDirectTransport");
    w.import("../request-state.js", "requestStateSecrets");
    w.import("../server.js", "createDispatcher");
    w.line(
      "// `npm test`: the example tools through the generated client, and the request-state secrets.",
    );
    w.importsHere();
    w.line();
    w.line('const SECRET = "test-secret-0123456789abcdefghijklmnopqrstuvwxyz";');
    w.line('const NEW_SECRET = "rotated-secret-0123456789abcdefghijklmnopqrstuvw";');
    w.line("const dispatcher = createDispatcher([SECRET]);");
    w.line(
      view.dualEra
        ? "// The eras the server speaks: 2026-07-28 requests, and sessions of the older revisions."
        : "// The era the server speaks: 2026-07-28 requests.",
    );
    w.line(`const ERAS = [${view.dualEra ? '"modern", "legacy"' : '"modern"'}] as const;`);
    w.line("const askAda = {");
    w.indented(() => {
      w.line(
        '"elicitation/create": () => ({ action: "accept" as const, content: { name: "Ada" } }),',
      );
    });
    w.line("};");
    w.line();
    w.line(
      "/** A client whose requests alternate between servers, as behind a load balancer: round one on the first, its retry on the second. */",
    );
    w.line("function balancedClient(...servers: ReturnType<typeof createDispatcher>[]) {");
    w.indented(() => {
      w.line("let next = 0;");
      w.line("return createClient({");
      w.indented(() => {
        w.line("transport: createDirectTransport((message, context) =>");
        w.indented(() => {
          w.line("servers[next++ % servers.length]!.handle(message, context),");
        });
        w.line("),");
        w.line("inputHandlers: askAda,");
      });
      w.line("});");
    });
    w.line("}");
    w.line();
    for (const [write, when] of TESTS) {
      if (!when || when(view)) write(w);
    }
    return w.emit("", { kind: "scaffold" });
  },
};

/** The tests, in order, each with the projects that have it (all when not said). */
const TESTS: [write: (w: GeneratedFile) => void, when?: (view: ScaffoldView) => boolean][] = [
  [greetAsksThenGreets],
  [greetRefusesAnInvalidAnswer],
  [addForAnyClient],
  [invalidArguments],
  [whoamiAnswersThePrincipal, (view) => view.auth],
  [thePrompt],
  [theResources],
  [aRetryOnAnotherInstance],
  [secretsFromTheEnvironment],
];

function greetAsksThenGreets(w: GeneratedFile): void {
  inEachEra(w, "greet asks for a name, then greets", "client", ["inputHandlers: askAda"], () => {
    w.line('const result = await client.callTool({ name: "greet" });');
    w.line('assert.deepEqual(result.content, [{ type: "text", text: "Hello, Ada!" }]);');
  });
}

function greetRefusesAnInvalidAnswer(w: GeneratedFile): void {
  w.line(
    'test("an accepted answer that does not fit greet\'s form is refused by the client, and by the server", async () => {',
  );
  w.indented(() => {
    w.line("const empty = createClient({");
    w.indented(() => {
      w.line(
        "transport: createDirectTransport((message, context) => dispatcher.handle(message, context)),",
      );
      w.line("inputHandlers: {");
      w.indented(() => {
        w.line(
          '"elicitation/create": () => ({ action: "accept" as const, content: { name: "" } }),',
        );
      });
      w.line("},");
    });
    w.line("});");
    w.line("await assert.rejects(");
    w.indented(() => {
      w.line('empty.callTool({ name: "greet" }),');
      w.line('/invalid answer for "name": \\/content\\/name: must have at least 1 characters/,');
    });
    w.line(");");
    w.line(
      "// Answered by hand (manual mode), the server checks it against the form it asked with.",
    );
    w.line('const asked = await empty.callTool({ name: "greet" }, { manual: true });');
    w.line('assert.equal(asked.resultType, "input_required");');
    w.line("const { requestState } = asked;");
    w.line('assert.ok(typeof requestState === "string");');
    w.line(
      'const inputResponses = { name: { action: "accept" as const, content: { name: "" } } };',
    );
    w.line("await assert.rejects(");
    w.indented(() => {
      w.line('empty.callTool({ name: "greet", inputResponses, requestState }, { manual: true }),');
      w.line('/invalid input response "name"/,');
    });
    w.line(");");
  });
  w.line("});");
  w.line();
}

/**
 * `for (const era of ERAS) test(...)`: a test in each era, its client (`name`) joined to the
 * server in memory with the `options` entries (after `era`), closed when the test ends.
 */
function inEachEra(
  w: GeneratedFile,
  title: string,
  name: string,
  options: readonly string[],
  body: () => void,
): void {
  w.line("for (const era of ERAS) {");
  w.indented(() => {
    w.line(`test(\`${title} (\${era})\`, async () => {`);
    w.indented(() => {
      const open = `const ${name} = connectInMemory(createClient, dispatcher, {`;
      w.list(open, ["era", ...options], "});", true);
      w.line("try {");
      w.indented(body);
      w.line("} finally {");
      w.line(`  await ${name}.close();`);
      w.line("}");
    });
    w.line("});");
  });
  w.line("}");
  w.line();
}

function addForAnyClient(w: GeneratedFile): void {
  inEachEra(w, "add works for any client; greet degrades without elicitation", "plain", [], () => {
    w.line('const added = await plain.callTool({ name: "add", arguments: { a: 2, b: 3 } });');
    w.line('assert.deepEqual(added.content, [{ type: "text", text: "5" }]);');
    w.line(
      "// add's outputSchema: the structured result, typed in src/handlers.ts and checked before it is sent.",
    );
    w.line("assert.deepEqual(added.structuredContent, { sum: 5 });");
    w.line('assert.deepEqual((await plain.callTool({ name: "greet" })).content, [');
    w.indented(() => {
      w.line('{ type: "text", text: "Hello, whoever you are!" },');
    });
    w.line("]);");
  });
}

function invalidArguments(w: GeneratedFile): void {
  inEachEra(
    w,
    "arguments not fitting inputSchema are a tool error naming them",
    "plain",
    [],
    () => {
      w.line('const wrong = await plain.callTool({ name: "add", arguments: { a: "two", b: 3 } });');
      w.line("assert.equal(wrong.isError, true);");
      w.line("assert.deepEqual(wrong.content, [");
      w.indented(() => {
        w.line("{");
        w.indented(() => {
          w.line('type: "text",');
          w.line(
            'text: "Input validation error: Invalid arguments for tool add: /a must be number",',
          );
        });
        w.line("},");
      });
      w.line("]);");
      w.line('const missing = await plain.callTool({ name: "add", arguments: { a: 2 } });');
      w.line("assert.equal(missing.isError, true);");
      w.line("assert.match(JSON.stringify(missing.content), /must have required property 'b'/);");
      w.line("// An unknown tool is a protocol error, not a result.");
      w.line("await assert.rejects(");
      w.indented(() => {
        w.line('plain.callTool({ name: "subtract", arguments: {} }),');
        w.line("/Tool subtract not found/,");
      });
      w.line(");");
    },
  );
}

function whoamiAnswersThePrincipal(w: GeneratedFile): void {
  const principal = ['principal: "https://issuer ada"'];
  inEachEra(w, "whoami answers the principal the transport verified", "asAda", principal, () => {
    w.line('assert.deepEqual((await asAda.callTool({ name: "whoami" })).content, [');
    w.indented(() => {
      w.line('{ type: "text", text: "https://issuer ada" },');
    });
    w.line("]);");
  });
}

function thePrompt(w: GeneratedFile): void {
  inEachEra(
    w,
    "the prompt: listed, built from its argument, refused without it",
    "client",
    [],
    () => {
      w.line("assert.deepEqual(");
      w.indented(() => {
        w.line("(await client.listPrompts()).prompts.map((p) => p.name),");
        w.line('["haiku"],');
      });
      w.line(");");
      w.line(
        'const prompt = await client.getPrompt({ name: "haiku", arguments: { topic: "tests" } });',
      );
      w.line("assert.match(JSON.stringify(prompt.messages), /haiku about tests/);");
      w.line(
        "// src/handlers.ts declares topic required: definePrompts refuses a request without it.",
      );
      w.line(
        'await assert.rejects(client.getPrompt({ name: "haiku" }), /missing required argument topic/);',
      );
      w.line(
        'await assert.rejects(client.getPrompt({ name: "limerick" }), /Prompt limerick not found/);',
      );
    },
  );
}

function theResources(w: GeneratedFile): void {
  inEachEra(
    w,
    "the resource and the template: listed, read, an unknown URI refused",
    "client",
    [],
    () => {
      w.line("assert.deepEqual(");
      w.indented(() => {
        w.line("(await client.listResources()).resources.map((r) => r.uri),");
        w.line('["memo://welcome"],');
      });
      w.line(");");
      w.line("const templates = (await client.listResourceTemplates()).resourceTemplates;");
      w.line("assert.deepEqual(");
      w.indented(() => {
        w.line("templates.map((t) => t.uriTemplate),");
        w.line('["memo://notes/{name}"],');
      });
      w.line(");");
      w.line('const welcome = await client.readResource({ uri: "memo://welcome" });');
      w.line("assert.match(JSON.stringify(welcome.contents), /Welcome to/);");
      w.line('const note = await client.readResource({ uri: "memo://notes/groceries" });');
      w.line("assert.deepEqual(note.contents, [");
      w.indented(() => {
        w.line(
          '{ uri: "memo://notes/groceries", mimeType: "text/plain", text: "A note called groceries." },',
        );
      });
      w.line("]);");
      w.line("await assert.rejects(");
      w.indented(() => {
        w.line('client.readResource({ uri: "memo://elsewhere" }),');
        w.line("/Resource memo:\\/\\/elsewhere not found/,");
      });
      w.line(");");
    },
  );
}

function aRetryOnAnotherInstance(w: GeneratedFile): void {
  w.line(
    'test("a retry lands on another instance: it opens the state only with a shared secret", async () => {',
  );
  w.indented(() => {
    w.line(
      "const shared = await balancedClient(dispatcher, createDispatcher([SECRET])).callTool({",
    );
    w.indented(() => {
      w.line('name: "greet",');
    });
    w.line("});");
    w.line('assert.deepEqual(shared.content, [{ type: "text", text: "Hello, Ada!" }]);');
    w.line("await assert.rejects(");
    w.indented(() => {
      w.line(
        'balancedClient(dispatcher, createDispatcher([NEW_SECRET])).callTool({ name: "greet" }),',
      );
      w.line("/invalid requestState/,");
    });
    w.line(");");
    w.line(
      "// Rotation: the new secret first, the old one still opening state sealed before the switch.",
    );
    w.line(
      "const rotated = await balancedClient(dispatcher, createDispatcher([NEW_SECRET, SECRET])).callTool(",
    );
    w.indented(() => {
      w.line('{ name: "greet" },');
    });
    w.line(");");
    w.line('assert.deepEqual(rotated.content, [{ type: "text", text: "Hello, Ada!" }]);');
  });
  w.line("});");
  w.line();
}

function secretsFromTheEnvironment(w: GeneratedFile): void {
  w.line(
    'test("secrets come from MCP_REQUEST_STATE_SECRETS, newest first; required outside development", () => {',
  );
  w.indented(() => {
    w.line("const notes: string[] = [];");
    w.line("const note = (line: string) => notes.push(line);");
    w.line("assert.deepEqual(");
    w.indented(() => {
      w.line(
        "requestStateSecrets({ MCP_REQUEST_STATE_SECRETS: `${NEW_SECRET}, ${SECRET}` }, note),",
      );
      w.line("[NEW_SECRET, SECRET],");
    });
    w.line(");");
    w.line("assert.throws(");
    w.indented(() => {
      w.line('() => requestStateSecrets({ MCP_REQUEST_STATE_SECRETS: "short" }, note),');
      w.line("/at least 32 characters/,");
    });
    w.line(");");
    w.line("assert.throws(");
    w.indented(() => {
      w.line('() => requestStateSecrets({ NODE_ENV: "production" }, note),');
      w.line("/MCP_REQUEST_STATE_SECRETS is not set/,");
    });
    w.line(");");
    w.line("assert.deepEqual(notes, []);");
    w.line("const [random] = requestStateSecrets({}, note);");
    w.line(
      "assert.ok(random && random.length >= 32 && random !== requestStateSecrets({}, note)[0]);",
    );
    w.line("assert.match(notes[0]!, /random secret for this process only/);");
  });
  w.line("});");
}
