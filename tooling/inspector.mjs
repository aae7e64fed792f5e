// The MCP Inspector CLI against an `mcp-gen init` project, over stdio and Streamable HTTP, in
// both of its protocol eras (legacy: initialize; modern: 2026-07-28). Not part of `npm test`:
// the Inspector is 111 MB of dependencies and needs Node 22.19+, so this installs it from the
// registry into a folder of its own and runs it with the Node 22 of tooling/conformance/.
//
//   node tooling/inspector.mjs [PROJECT]   (PROJECT: a built init project; default: a new one)
//
// Prints each command and what it answered; exits 1 when an answer lacks what it should hold.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join, resolve } from "node:path";
import { installSuite, NODE22, ROOT, SPEC } from "./conformance/setup.mjs";

export const INSPECTOR = "@modelcontextprotocol/inspector@2.12.0";

installSuite();
const env = {
  ...process.env,
  PATH: `${dirname(NODE22)}${delimiter}${process.env.PATH}`,
  NODE_ENV: "development",
};
delete env.MCP_REQUEST_STATE_SECRETS;

function run(command, args, cwd) {
  const r = spawnSync(command, args, { cwd, env, encoding: "utf8", timeout: 300_000 });
  if (r.status !== 0)
    throw new Error(`${command} ${args.join(" ")} failed (${r.status}): ${r.stdout}${r.stderr}`);
  return r.stdout;
}

function project() {
  if (process.argv[2]) return resolve(process.argv[2]);
  const dir = join(mkdtempSync(join(tmpdir(), "mcp-gen-inspector-")), "my-server");
  run(NODE22, [
    join(ROOT, "packages", "cli", "dist", "cli", "main.js"),
    "init",
    dir,
    "--spec",
    SPEC,
  ]);
  run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline"], dir);
  run("npm", ["run", "build"], dir);
  return dir;
}

function installInspector() {
  const dir = process.env.INSPECTOR_DIR ?? mkdtempSync(join(tmpdir(), "mcp-inspector-"));
  const bin = join(dir, "node_modules", ".bin", "mcp-inspector");
  if (existsSync(bin)) return bin;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), '{ "name": "inspector-run", "private": true }\n');
  // Its one script (postinstall) only sets up a source checkout and exits early in node_modules.
  run("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts", INSPECTOR], dir);
  return bin;
}

async function startHttp(dir) {
  const child = spawn(NODE22, [join(dir, "dist", "http.js")], {
    cwd: dir,
    env: { ...env, PORT: "0" },
  });
  const url = await new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (b) => {
      out += b;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.on("exit", (code) => reject(new Error(`server exited ${code}: ${out}`)));
  });
  return { url, child };
}

/** The calls, each with text its answer must hold. */
const CALLS = [
  [
    ["--method", "tools/list"],
    ['"name": "add"', '"name": "greet"'],
  ],
  [["--method", "tools/call", "--tool-name", "add", "--tool-arg", "a=1", "b=2"], ['"text": "3"']],
  // The Inspector CLI cannot answer elicitation: greet takes the plain path.
  [["--method", "tools/call", "--tool-name", "greet"], ['"text": "Hello, whoever you are!"']],
  [["--method", "resources/list"], ['"uri": "memo://welcome"']],
  [["--method", "resources/templates/list"], ['"uriTemplate": "memo://notes/{name}"']],
  [
    ["--method", "prompts/get", "--prompt-name", "haiku", "--prompt-args", "topic=rain"],
    ['"text": "Write a haiku about rain."'],
  ],
];

const dir = project();
const inspector = installInspector();
const http = await startHttp(dir);
const home = mkdtempSync(join(tmpdir(), "mcp-inspector-home-"));
let failed = 0;
try {
  console.log(
    `${INSPECTOR} (${run(NODE22, [inspector, "--version"]).trim()}) on Node ${run(NODE22, ["--version"]).trim()}, project ${dir}`,
  );
  const targets = [
    ["stdio", ["node", "dist/stdio.js"]],
    ["http", [http.url]],
  ];
  for (const [transport, target] of targets) {
    for (const era of ["legacy", "modern"]) {
      for (const [args, expected] of CALLS) {
        const argv = [inspector, "--cli", ...target, "--protocol-era", era, ...args];
        // HOME apart: the Inspector keeps a catalog and client config under ~/.mcp-inspector.
        const r = spawnSync(NODE22, argv, {
          cwd: dir,
          env: { ...env, HOME: home },
          encoding: "utf8",
          timeout: 60_000,
        });
        const missing = expected.filter((text) => !r.stdout.includes(text));
        // Printed whole, tools/call and prompts/get results show the era: only modern results
        // carry serverInfo in _meta (the lists are printed without their _meta).
        const whole = args[1] === "tools/call" || args[1] === "prompts/get";
        const eraShown =
          !whole || (era === "modern") === r.stdout.includes("io.modelcontextprotocol/serverInfo");
        const ok = r.status === 0 && missing.length === 0 && eraShown;
        if (!ok) failed++;
        console.log(
          `${ok ? "ok  " : "FAIL"} ${transport} ${era.padEnd(6)} ${args.join(" ")}${ok ? "" : `\n${r.stdout}${r.stderr}`}`,
        );
      }
    }
  }
} finally {
  http.child.kill();
}
console.log(failed === 0 ? `all ${CALLS.length * 4} calls answered` : `${failed} calls failed`);
process.exit(failed === 0 ? 0 : 1);
