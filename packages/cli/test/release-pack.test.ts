import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import semver from "semver";
import { describe, expect, it } from "vitest";
import { bundleSpec } from "../../../tooling/release/bundle-spec.mjs";
import { runtimeProblem } from "../src/cli/runtime-check.js";
import { dependencySpec } from "../src/generators/init/install-source.js";
import { RUNTIME_RANGE } from "../src/generators/emit/runtime.js";
import { listRevisions } from "../src/schema/index.js";
import { CLI_ROOT, ROOT, SPEC_DIR, tempDir } from "./helpers.js";

// The pack step that ships the released schemas, and how `init` depends on mcp-gen for each
// way it can be installed. The whole path (pack, install, init, the project's install) runs
// in packages/cli/test/init.test.ts and in tooling/release/rehearse.mjs (a real registry).

/** An install at `root` whose lockfiles record `entry` for @mcp-gen/cli (or nothing). */
function installAt(root: string, entry?: object, where = "node_modules/.package-lock.json") {
  const pkg = join(root, "node_modules", "@mcp-gen", "cli");
  mkdirSync(pkg, { recursive: true });
  if (entry)
    writeFileSync(
      join(root, where),
      JSON.stringify({ packages: { "": {}, "node_modules/@mcp-gen/cli": entry } }),
    );
  return { name: "@mcp-gen/cli", version: "1.2.3-rc.1", root: pkg };
}

describe("init's dependency on mcp-gen, for the way it was installed", () => {
  it("a development checkout: file: the checkout, relative to the project", () => {
    const base = tempDir();
    const checkout = join(base, "src", "mcp-gen");
    const project = join(base, "work", "my-server");
    expect(
      dependencySpec({ name: "@mcp-gen/cli", version: "0.1.0", root: checkout }, project),
    ).toBe("file:../../src/mcp-gen");
    expect(
      dependencySpec({ name: "@mcp-gen/cli", version: "0.1.0", root: checkout }, checkout + "/x"),
    ).toBe("file:..");
  });

  it("from a tarball (npm install, npx): file: the tarball its lockfile records, relative to the project", () => {
    const base = tempDir();
    const tool = join(base, "tool");
    const pkg = installAt(tool, { version: "1.2.3-rc.1", resolved: "file:../mcp-gen-cli.tgz" });
    expect(dependencySpec(pkg, join(base, "my-server"))).toBe("file:../mcp-gen-cli.tgz");
    expect(dependencySpec(pkg, join(base, "a", "b", "my-server"))).toBe(
      "file:../../../mcp-gen-cli.tgz",
    );
    // npx keeps its install in its cache, with only a package-lock.json when the hidden one is gone.
    const npx = join(base, "cache", "_npx", "0123abcd");
    const viaNpx = installAt(
      npx,
      { resolved: "file:../../../downloads/mcp-gen-cli-1.2.3-rc.1.tgz" },
      "package-lock.json",
    );
    expect(dependencySpec(viaNpx, join(base, "my-server"))).toBe(
      "file:../downloads/mcp-gen-cli-1.2.3-rc.1.tgz",
    );
  });

  it("from a registry (recorded with its URL, or without: omit-lockfile-registry-resolved), or with no record (a global install): the version's range", () => {
    const base = tempDir();
    const project = join(base, "my-server");
    const noUrl = installAt(join(base, "a"), { version: "1.2.3-rc.1", integrity: "sha512-x" });
    expect(dependencySpec(noUrl, project)).toBe("^1.2.3-rc.1");
    const url = installAt(join(base, "b"), {
      resolved: "http://127.0.0.1:4873/@mcp-gen/cli/-/cli-1.2.3-rc.1.tgz",
    });
    expect(dependencySpec(url, project)).toBe("^1.2.3-rc.1");
    expect(dependencySpec(installAt(join(base, "c")), project)).toBe("^1.2.3-rc.1");
    const broken = installAt(join(base, "d"));
    writeFileSync(join(base, "d", "node_modules", ".package-lock.json"), "{ not json");
    expect(dependencySpec(broken, project)).toBe("^1.2.3-rc.1");
  });

  it("from git or a plain URL: that source as recorded", () => {
    const base = tempDir();
    const git = "git+ssh://git@example.com/me/mcp-gen.git#0123456789abcdef0123456789abcdef01234567";
    expect(dependencySpec(installAt(join(base, "a"), { resolved: git }), base)).toBe(git);
    const url = "https://example.com/builds/mcp-gen-cli.tgz";
    expect(dependencySpec(installAt(join(base, "b"), { resolved: url }), base)).toBe(url);
  });
});

// npm resolves a range as semver.satisfies does by default (prereleases not included): a
// caret range on a prerelease (^1.0.0-rc.1) admits the prereleases of that same version only,
// then every release up to the next major. A project made from a release candidate must get
// the candidate now and 1.0.0 and its fixes later, with no edit (VERSIONING.md, "Release
// channels"). Derived from this checkout's versions, so it holds for the rc and the release.
describe("the ranges a project gets from the registry: this release, then the ones after it", () => {
  const manifestOf = (...path: string[]) =>
    JSON.parse(readFileSync(join(ROOT, ...path, "package.json"), "utf8")) as {
      name: string;
      version: string;
      dependencies?: Record<string, string>;
    };
  const cliManifest = manifestOf("packages", "cli");
  const runtimeManifest = manifestOf("packages", "runtime");

  it("the two packages share one version; the CLI, and so generate's manifest, ask for ^ it", () => {
    expect(runtimeManifest.version).toBe(cliManifest.version);
    expect(cliManifest.dependencies?.[runtimeManifest.name]).toBe(`^${runtimeManifest.version}`);
    expect(RUNTIME_RANGE).toBe(`^${runtimeManifest.version}`);
  });

  it.each([cliManifest, runtimeManifest])(
    "$name $version: init's range takes it, its later prereleases and the releases of its major",
    ({ name, version }) => {
      const base = tempDir();
      const installed = join(base, "tool", "node_modules", ...name.split("/"));
      mkdirSync(installed, { recursive: true });
      const range = dependencySpec({ name, version, root: installed }, join(base, "my-server"));
      expect(range).toBe(`^${version}`);
      const parsed = semver.parse(version)!;
      const release = `${parsed.major}.${parsed.minor}.${parsed.patch}`;
      const taken = [
        version,
        release,
        semver.inc(release, "patch")!,
        semver.inc(release, "minor")!,
      ];
      if (parsed.prerelease.length > 0) taken.push(semver.inc(version, "prerelease")!);
      for (const later of taken) expect(semver.satisfies(later, range), `${later}`).toBe(true);
      const refused = [
        `${release}-0`, // a prerelease before this version
        `${semver.inc(release, "minor")!}-rc.1`, // the next minor's candidate: `next`, not ours
        semver.inc(release, "major")!,
      ];
      for (const other of refused) expect(semver.satisfies(other, range), `${other}`).toBe(false);
    },
  );

  it("generate --check accepts the release after this version's runtime, and names a next major", () => {
    const parsed = semver.parse(runtimeManifest.version)!;
    const release = `${parsed.major}.${parsed.minor}.${parsed.patch}`;
    const out = join(tempDir(), "project", "src", "mcp");
    mkdirSync(out, { recursive: true });
    const runtime = join(out, "..", "..", "node_modules", ...runtimeManifest.name.split("/"));
    mkdirSync(runtime, { recursive: true });
    const install = (version: string) =>
      writeFileSync(join(runtime, "package.json"), JSON.stringify({ ...runtimeManifest, version }));
    for (const version of [runtimeManifest.version, release, semver.inc(release, "patch")!]) {
      install(version);
      expect(runtimeProblem(out, RUNTIME_RANGE), version).toBeUndefined();
    }
    const major = semver.inc(release, "major")!;
    install(major);
    expect(runtimeProblem(out, RUNTIME_RANGE)).toContain(
      `${runtimeManifest.name} ${major} is installed, but the output was generated for ${RUNTIME_RANGE}`,
    );
  });
});

describe("the pack step: the released schemas, bundled with the spec's licence", () => {
  it("copies every dated revision's schema.ts unchanged, never a draft, with LICENSE and NOTICE.md", () => {
    const spec = tempDir("mcp-gen-spec-");
    cpSync(join(SPEC_DIR, "schema"), join(spec, "schema"), { recursive: true });
    mkdirSync(join(spec, "schema", "draft"));
    writeFileSync(join(spec, "schema", "draft", "schema.ts"), "export interface X {}\n");
    const into = join(tempDir(), "bundled-spec");
    const { revisions, licence } = bundleSpec({ spec, into });
    expect(revisions).toEqual(listRevisions(SPEC_DIR).map((r) => r.name));
    expect(revisions).toContain("2026-07-28");
    for (const r of revisions)
      expect(readFileSync(join(into, "schema", r, "schema.ts"), "utf8")).toBe(
        readFileSync(join(SPEC_DIR, "schema", r, "schema.ts"), "utf8"),
      );
    // Laid out as a checkout: mcp-gen reads it as one; schema.json and examples stay behind.
    expect(listRevisions(into).map((r) => r.name)).toEqual(revisions);
    expect(readdirSync(join(into, "schema", "2026-07-28"))).toEqual(["schema.ts"]);
    // The corpus has no LICENSE: the copy of the spec repository's published one is used.
    expect(licence).toBe("fallback");
    const text = readFileSync(join(into, "LICENSE"), "utf8");
    expect(text).toMatch(/Apache License\s+Version 2\.0/);
    expect(text).toMatch(/MIT License/);
    const notice = readFileSync(join(into, "NOTICE.md"), "utf8");
    expect(notice).toContain("github.com/modelcontextprotocol/modelcontextprotocol");
    expect(notice).toContain("the checkout packed from had no LICENSE file");
    // A checkout with its own LICENSE: that one.
    writeFileSync(join(spec, "LICENSE"), "the checkout's own licence\n");
    expect(bundleSpec({ spec, into }).licence).toBe("checkout");
    expect(readFileSync(join(into, "LICENSE"), "utf8")).toBe("the checkout's own licence\n");
  });

  it("refuses a folder that is no checkout, naming what to set", () => {
    expect(() => bundleSpec({ spec: tempDir(), into: join(tempDir(), "b") })).toThrow(
      /no spec checkout at .* \(no schema\/ folder\): set MCP_GEN_SPEC/,
    );
  });

  it("runs when the package is packed and cleans up after, so the checkout never holds the copy", () => {
    const pkg = JSON.parse(readFileSync(join(CLI_ROOT, "package.json"), "utf8"));
    expect(pkg.scripts.prepack).toMatch(/node \.\.\/\.\.\/tooling\/release\/bundle-spec\.mjs$/);
    expect(pkg.scripts.postpack).toBe("node ../../tooling/release/bundle-spec.mjs --clean");
    expect(pkg.files).toContain("bundled-spec");
    for (const path of ["bundled-spec/schema/2026-07-28/schema.ts", "mcp-gen-cli-1.0.0.tgz"])
      expect(spawnSync("git", ["check-ignore", "-q", path], { cwd: CLI_ROOT }).status, path).toBe(
        0,
      );
  });
});
