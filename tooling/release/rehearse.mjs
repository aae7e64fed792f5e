// The publish rehearsal: every package of this repository packed as `npm publish` packs it
// (prepack: built, the spec's released schemas bundled), checked by publint and
// are-the-types-wrong, published to a local registry (verdaccio, started here) under the
// dist-tag of the version (`next` for a prerelease, `latest` for a release), then installed
// from it as a user would: the README's and Get started's command (`npx @mcp-gen/cli@next
// init my-server` for a prerelease) in an empty folder on a machine with no spec checkout
// and an empty npm cache, the project's `npm install`, `npm run build`, `npm test`,
// `npm run check`, `npm start` and a tool call from the official SDK client, as
// docs/guide/get-started.md says. On Node 20 (this one) and Node 22 (the one
// conformance/ installs); prints how long each step took. Run by .ci/run; not part of
// `npm test` (it takes minutes and installs from the network).
//
//   node tooling/release/rehearse.mjs [--node 20|22]...   (default: both)
import { spawn, spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { installSuite, NODE22 } from "../conformance/setup.mjs";
import { transpileDir } from "../transpile-generated.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const TOOLS = join(ROOT, "tooling", "release", "tools");
const bin = (name) => join(TOOLS, "node_modules", ".bin", name);
const work = mkdtempSync(join(tmpdir(), "mcp-gen-rehearsal-"));
const children = [];
const results = [];

function fail(message) {
  console.error(`rehearse: ${message}`);
  for (const child of children) child.kill();
  process.exit(1);
}

// A rejected await (a fetch to the registry, say) must still stop verdaccio and the servers.
process.on("unhandledRejection", (error) => fail(error instanceof Error ? error.stack : error));

/** Runs a command; its output is kept and shown only on failure. Returns stdout. */
function run(command, args, options = {}) {
  const r = spawnSync(command, args, { encoding: "utf8", timeout: 600_000, ...options });
  if (r.status !== 0)
    fail(
      `${command} ${args.join(" ")} (in ${options.cwd ?? ROOT}) failed (${r.status ?? r.signal}):\n${r.stdout}\n${r.stderr}`,
    );
  return r.stdout;
}

function timed(label, action) {
  const started = Date.now();
  const value = action();
  const seconds = (Date.now() - started) / 1000;
  console.log(`rehearse: ${label} (${seconds.toFixed(1)} s)`);
  return { value, seconds };
}

const freePort = () =>
  new Promise((done) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => done(port));
    });
  });

/** Resolves with what `child` printed once its output matches `pattern`; fails if it exits first. */
function printed(child, pattern, what) {
  return new Promise((done) => {
    let out = "";
    const exited = (code) => fail(`${what} exited (${code}) before it was ready:\n${out}`);
    const take = (chunk) => {
      out += chunk;
      const m = pattern.exec(out);
      if (!m) return;
      child.off("exit", exited);
      done(m);
    };
    child.stdout.on("data", take);
    child.stderr.on("data", take);
    child.on("exit", exited);
  });
}

/** Ends a detached process and its children (npm start's node), if still there. */
function killGroup(pid) {
  try {
    process.kill(-pid);
  } catch {
    // Already gone.
  }
}

/** The npm dist-tag a version is published under: `next` for a prerelease, else `latest`. */
function distTagOf(version) {
  return /^\d+\.\d+\.\d+-/.test(version) ? "next" : "latest";
}

/**
 * The install command the docs give a user for this release: `npx @mcp-gen/cli@next init
 * my-server` for a prerelease, `npx @mcp-gen/cli init my-server` for a release. The README
 * and the Get started page must say it as the rehearsal runs it.
 */
function documentedInit(cliName, tag) {
  const command = `npx ${cliName}${tag === "latest" ? "" : `@${tag}`} init my-server`;
  for (const page of ["README.md", join("docs", "guide", "get-started.md")]) {
    const text = readFileSync(join(ROOT, page), "utf8");
    if (!text.includes(command)) fail(`${page} does not say \`${command}\` for this release`);
    const other = /npx @mcp-gen\/cli(@[\w.-]+)? init my-server/g;
    for (const [said] of text.matchAll(other))
      if (said !== command)
        fail(`${page} says \`${said}\`; this release installs with \`${command}\``);
  }
  return command;
}

/** The packages this repository publishes: every public workspace (the root is private). */
function publishedPackages() {
  const root = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
  const dirs = [];
  for (const pattern of root.workspaces ?? []) {
    const base = join(ROOT, pattern.replace(/\/\*$/, ""));
    const found = pattern.endsWith("/*")
      ? readdirSync(base, { withFileTypes: true })
          .filter((d) => d.isDirectory())
          .map((d) => join(base, d.name))
      : [base];
    dirs.push(...found.filter((d) => existsSync(join(d, "package.json"))));
  }
  return dirs
    .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) }))
    .filter(({ manifest }) => !manifest.private);
}

// --- the tools, and the packed packages -----------------------------------------------------
if (!existsSync(bin("verdaccio"))) run("npm", ["ci", "--no-audit", "--no-fund"], { cwd: TOOLS });
installSuite(); // conformance/'s Node 22: verdaccio 6 needs it, and the second rehearsal runs on it
const packed = join(work, "packed");
mkdirSync(packed);
const packages = publishedPackages();
for (const { dir, manifest } of packages) {
  const { value: file } = timed(`packed ${manifest.name}@${manifest.version}`, () => {
    // A package that builds but has no prepack would publish whatever dist/ holds: build it.
    if (manifest.scripts?.build && !manifest.scripts?.prepack)
      run("npm", ["run", "build"], { cwd: dir });
    const before = new Set(readdirSync(packed));
    run("npm", ["pack", "--pack-destination", packed], { cwd: dir });
    const made = readdirSync(packed).filter((f) => !before.has(f) && f.endsWith(".tgz"));
    if (made.length !== 1) fail(`npm pack in ${dir} made ${made.length} tarballs`);
    return join(packed, made[0]);
  });
  const lint = spawnSync(bin("publint"), ["run", file, "--strict"], { encoding: "utf8" });
  if (lint.status !== 0 || !/All good!/.test(lint.stdout))
    fail(`publint on ${manifest.name}:\n${lint.stdout}${lint.stderr}`);
  // ESM only, by design (Node 20.19 and later, which also require() ESM): the esm-only
  // profile checks every entry point's types for import under node16 and bundlers, and
  // does not count the CommonJS and node10 resolutions the package does not offer.
  const types = spawnSync(
    bin("attw"),
    [file, "--profile", "esm-only", "--format", "ascii", "--no-color"],
    {
      encoding: "utf8",
    },
  );
  if (types.status !== 0)
    fail(`are-the-types-wrong on ${manifest.name}:\n${types.stdout}${types.stderr}`);
  console.log(`rehearse: ${manifest.name}: publint and are-the-types-wrong clean`);
  const listed = run("tar", ["-tzf", file]);
  if (
    manifest.name === "@mcp-gen/cli" &&
    !/package\/bundled-spec\/schema\/\d{4}-\d{2}-\d{2}\/schema\.ts/.test(listed)
  )
    fail(`${file} has no bundled-spec/: the prepack step did not run`);
  packages.find((p) => p.dir === dir).tarball = file;
}

// --- a local registry -----------------------------------------------------------------------
const port = await freePort();
const registry = `http://127.0.0.1:${port}/`;
const storage = join(work, "registry");
mkdirSync(storage);
writeFileSync(
  join(storage, "config.yaml"),
  [
    `storage: ${join(storage, "data")}`,
    "auth:",
    "  htpasswd:",
    `    file: ${join(storage, "htpasswd")}`,
    "uplinks: {}",
    "packages:",
    "  '@mcp-gen/*':",
    "    access: $all",
    "    publish: $authenticated",
    "  '**':",
    "    access: $all",
    "log: { type: stdout, format: pretty, level: warn }",
    "",
  ].join("\n"),
);
const verdaccio = spawn(
  NODE22,
  [
    join(TOOLS, "node_modules", "verdaccio", "bin", "verdaccio"),
    "--config",
    join(storage, "config.yaml"),
    "--listen",
    `127.0.0.1:${port}`,
  ],
  {
    stdio: ["ignore", "pipe", "pipe"],
  },
);
children.push(verdaccio);
for (let i = 0; ; i++) {
  const up = await fetch(`${registry}-/ping`).then(
    (r) => r.ok,
    () => false,
  );
  if (up) break;
  if (i > 100) fail("verdaccio did not answer within 30 s");
  await new Promise((r) => setTimeout(r, 300));
}
const user = await fetch(`${registry}-/user/org.couchdb.user:rehearsal`, {
  method: "PUT",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ name: "rehearsal", password: "rehearsal-password", type: "user" }),
}).then((r) => r.json());
if (!user.token) fail(`verdaccio gave no token: ${JSON.stringify(user)}`);
const publisherRc = join(work, "publisher.npmrc");
writeFileSync(publisherRc, `registry=${registry}\n//127.0.0.1:${port}/:_authToken=${user.token}\n`);
// The runtime first: the CLI's init writes a dependency on it. A prerelease goes to the
// `next` dist-tag, a release to `latest` (VERSIONING.md, "Release channels"); npm 11 refuses
// to publish a prerelease without --tag.
const cliVersion = packages.find((p) => p.manifest.name === "@mcp-gen/cli").manifest.version;
const distTag = distTagOf(cliVersion);
for (const { manifest, tarball } of [...packages].reverse()) {
  if (manifest.version !== cliVersion)
    fail(
      `${manifest.name} is ${manifest.version}, the CLI ${cliVersion}: they are released together`,
    );
  timed(
    `published ${manifest.name}@${manifest.version} to the local registry (--tag ${distTag})`,
    () =>
      run(
        "npm",
        ["publish", tarball, "--tag", distTag, "--userconfig", publisherRc, "--registry", registry],
        { cwd: work },
      ),
  );
  const tags = JSON.parse(
    run("npm", ["view", manifest.name, "dist-tags", "--json", "--prefer-online"], {
      cwd: work,
      env: { ...process.env, npm_config_userconfig: publisherRc, npm_config_registry: registry },
    }),
  );
  if (tags[distTag] !== manifest.version)
    fail(`${manifest.name}: dist-tag ${distTag} is ${tags[distTag]}, not ${manifest.version}`);
}

// --- the user's path, on each Node ----------------------------------------------------------
const initCommand = documentedInit(
  packages.find((p) => p.manifest.name === "@mcp-gen/cli").manifest.name,
  distTag,
);
const client = transpileDir(join(ROOT, "examples", "hello-server"), join(work, "example-js"));
const nodes = process.argv.flatMap((a, i) => (process.argv[i - 1] === "--node" ? [a] : []));
for (const major of nodes.length > 0 ? nodes : ["20", "22"]) {
  const nodeDir = major === "22" ? dirname(NODE22) : dirname(process.execPath);
  // A user's machine: an empty home (no npm cache, no config but the registry of the
  // @mcp-gen scope), no spec checkout, the chosen Node first on PATH.
  const home = join(work, `user-node${major}`);
  mkdirSync(home);
  writeFileSync(join(home, ".npmrc"), `@mcp-gen:registry=${registry}\n`);
  const env = {
    ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k))),
    HOME: home,
    npm_config_cache: join(home, ".npm"),
    npm_config_userconfig: join(home, ".npmrc"),
    PATH: `${nodeDir}${delimiter}${process.env.PATH}`,
  };
  delete env.NODE_ENV;
  delete env.MCP_REQUEST_STATE_SECRETS;
  const version = run("node", ["--version"], { env }).trim();
  if (!version.startsWith(`v${major}.`)) fail(`expected Node ${major}, ran ${version}`);
  const project = join(home, "my-server");
  const at = (label, args, cwd = project) =>
    timed(`node ${version}: ${label}`, () => run(args[0], args.slice(1), { cwd, env }));
  const [npx, cliSpec, ...initArgs] = initCommand.split(" ");
  const steps = [
    at(initCommand, [npx, "--yes", cliSpec, ...initArgs], home),
    at("npm install", ["npm", "install", "--no-audit", "--no-fund"]),
    at("npm run build", ["npm", "run", "build"]),
    at("npm test", ["npm", "test"]),
    at("npm run check", ["npm", "run", "check"]),
  ];
  const pkg = JSON.parse(readFileSync(join(project, "package.json"), "utf8"));
  // The command got this release, and the project's ranges installed it (a caret range on a
  // prerelease admits that version's prereleases, then the releases up to the next major).
  for (const { manifest } of packages) {
    const spec = pkg.dependencies[manifest.name] ?? pkg.devDependencies[manifest.name];
    if (spec !== undefined && spec !== `^${manifest.version}`)
      fail(
        `init wrote ${manifest.name} ${spec}, expected ^${manifest.version} (from the registry)`,
      );
    const installed = join(project, "node_modules", ...manifest.name.split("/"), "package.json");
    const { version: got } = JSON.parse(readFileSync(installed, "utf8"));
    if (got !== manifest.version)
      fail(`the project installed ${manifest.name} ${got}, not ${manifest.version}`);
  }
  if (
    pkg.devDependencies["@mcp-gen/cli"] === undefined ||
    pkg.dependencies["@mcp-gen/runtime"] === undefined
  )
    fail("init's project does not depend on both @mcp-gen/cli and @mcp-gen/runtime");
  if (JSON.parse(readFileSync(join(project, "mcp-gen.config.json"), "utf8")).spec !== undefined)
    fail("init wrote a spec folder into the config: the bundled schemas were not the default");
  if (!/# pass \d+\n# fail 0/.test(steps[3].value))
    fail(`npm test did not report its passes:\n${steps[3].value}`);
  // npm start, then the Get started page's client call (the SDK installed as it says).
  steps.push(
    at("npm install @modelcontextprotocol/sdk", [
      "npm",
      "install",
      "--no-audit",
      "--no-fund",
      "@modelcontextprotocol/sdk@1.32.2",
    ]),
  );
  cpSync(join(client, "client.js"), join(project, "client.js"));
  const started = Date.now();
  const server = spawn("npm", ["start"], {
    cwd: project,
    env: { ...env, PORT: "0" },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  children.push({ kill: () => killGroup(server.pid) });
  const [, url] = await printed(server, /MCP server listening on (http:\/\/\S+)/, "npm start");
  const call = run("node", ["client.js", url], { cwd: project, env });
  killGroup(server.pid);
  const startAndCall = (Date.now() - started) / 1000;
  console.log(
    `rehearse: node ${version}: npm start and a client call (${startAndCall.toFixed(1)} s): ${call.trim().replaceAll("\n", " / ")}`,
  );
  if (call !== 'tools: add, greet\nadd(2, 3): [{"type":"text","text":"5"}]\n')
    fail(`the client call printed:\n${call}`);
  const total = steps.reduce((sum, s) => sum + s.seconds, 0) + startAndCall;
  results.push(
    `node ${version}: quickstart ${total.toFixed(1)} s (${steps.map((s) => s.seconds.toFixed(1)).join(" + ")} + ${startAndCall.toFixed(1)})`,
  );
}

// The README's other install path: the packed tarball run with npx, on a machine with no
// registry of ours: init writes the tarball as the dependency, and the install finds it.
{
  const home = join(work, "user-tarball");
  mkdirSync(home);
  const env = {
    ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k))),
    HOME: home,
    npm_config_cache: join(home, ".npm"),
  };
  // Every package's tarball beside the user: the CLI's dependencies on the others (the
  // runtime) must come from them too, so npx is given them all (-p), the CLI last.
  const given = [];
  for (const { manifest, tarball } of [...packages].reverse()) {
    const file = `${manifest.name.replace(/^@/, "").replace("/", "-")}.tgz`;
    cpSync(tarball, join(home, file));
    given.push("-p", `./${file}`);
  }
  const at = (label, args, cwd) =>
    timed(`tarball: ${label}`, () => run(args[0], args.slice(1), { cwd, env }));
  const project = join(home, "my-server");
  const steps = [
    at(
      `npx ${given.join(" ")} mcp-gen init my-server`,
      ["npx", "--yes", ...given, "mcp-gen", "init", "my-server"],
      home,
    ),
    at("npm install", ["npm", "install", "--no-audit", "--no-fund"], project),
    at("npm run build", ["npm", "run", "build"], project),
    at("npm run check", ["npm", "run", "check"], project),
  ];
  // Each of our packages the project names must be its tarball, by a path from the project.
  const written = JSON.parse(readFileSync(join(project, "package.json"), "utf8"));
  for (const [name, spec] of Object.entries({
    ...written.dependencies,
    ...written.devDependencies,
  })) {
    if (
      name.startsWith("@mcp-gen/") &&
      spec !== `file:../${name.replace(/^@/, "").replace("/", "-")}.tgz`
    )
      fail(`init from the tarballs wrote ${name} ${spec}`);
  }
  results.push(
    `tarball: init to a built, checked project ${steps.reduce((sum, s) => sum + s.seconds, 0).toFixed(1)} s`,
  );
}

// And the contributors' path: `npx mcp-gen init` from this (built) checkout, whose project
// depends on the checkout itself and reads the spec checkout the config names.
{
  const home = join(work, "user-checkout");
  mkdirSync(home);
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
  const at = (label, args, cwd) =>
    timed(`checkout: ${label}`, () => run(args[0], args.slice(1), { cwd, env }));
  const project = join(home, "my-server");
  const steps = [
    at("npx mcp-gen init", ["npx", "mcp-gen", "init", project], ROOT),
    at("npm install", ["npm", "install", "--no-audit", "--no-fund"], project),
    at("npm run build", ["npm", "run", "build"], project),
    at("npm run check", ["npm", "run", "check"], project),
  ];
  const dependency = JSON.parse(readFileSync(join(project, "package.json"), "utf8"))
    .devDependencies["@mcp-gen/cli"];
  if (!/^file:(\.\.\/)+/.test(dependency))
    fail(`init from the checkout wrote @mcp-gen/cli ${dependency}`);
  results.push(
    `checkout: init to a built, checked project ${steps.reduce((sum, s) => sum + s.seconds, 0).toFixed(1)} s`,
  );
}

for (const child of children) child.kill();
for (const line of results) console.log(`rehearse: ${line}`);
console.log(
  `rehearse: ${packages.length} package(s) published to a local registry, installed and run on Node ${(nodes.length ? nodes : ["20", "22"]).join(" and ")}`,
);
