// The published packages' public API as API Extractor reports it: one report per typed subpath
// of each package's `exports` (API Extractor reads one entry point at a time), checked in under
// tooling/api-report/<package>/ (the runtime's subpaths; the CLI's plugin API), so a change to
// what a package exports shows in review as a diff of these files. Reads the packages' built
// declarations (dist/*.d.ts: run `npm run build`).
//
//   node tooling/release/api-report.mjs           check: exit 1 naming each report that
//                                                 differs from the package (CI)
//   node tooling/release/api-report.mjs --update  rewrite the reports
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, "..", "..");
const TOOLS = join(HERE, "tools");

/** The report's file name for a subpath: `./node/http` -> `node-http`, `.` -> `index`. */
export const reportName = (subpath) =>
  subpath.replace(/^\.\/?/, "").replaceAll("/", "-") || "index";

/** The runtime package's subpaths with the declaration file each resolves to. */
export function typedEntryPoints(pkgDir) {
  const pkg = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8"));
  return Object.entries(pkg.exports ?? {}).flatMap(([subpath, target]) => {
    const types = typeof target === "string" ? target : target.types;
    return typeof types === "string" && types.endsWith(".d.ts")
      ? [{ subpath, dts: resolve(pkgDir, types) }]
      : [];
  });
}

/** The packages whose API is reported: folder names under packages/ (and under api-report/). */
export const REPORTED_PACKAGES = ["runtime", "cli"];

export async function apiReports({ root = ROOT, update = false, out, pkg = "runtime" } = {}) {
  const pkgDir = join(root, "packages", pkg);
  if (!existsSync(join(pkgDir, "package.json")))
    throw new Error(`no ${pkg} package at ${pkgDir}: nothing to report yet`);
  if (!existsSync(join(TOOLS, "node_modules", "@microsoft", "api-extractor"))) {
    const installed = spawnSync("npm", ["ci", "--no-audit", "--no-fund"], {
      cwd: TOOLS,
      stdio: "inherit",
    });
    if (installed.status !== 0)
      throw new Error("cannot install the release tools (tooling/release/tools)");
  }
  const { Extractor, ExtractorConfig } = await import(
    join(TOOLS, "node_modules", "@microsoft", "api-extractor", "lib-commonjs", "index.js")
  );
  const reportFolder = out ?? join(root, "tooling", "api-report", pkg);
  mkdirSync(reportFolder, { recursive: true });
  const temp = mkdtempSync(join(tmpdir(), "mcp-gen-api-"));
  const changed = [];
  for (const { subpath, dts } of typedEntryPoints(pkgDir)) {
    if (!existsSync(dts)) throw new Error(`${subpath}: ${dts} is not built (npm run build)`);
    const config = ExtractorConfig.prepare({
      configObject: {
        projectFolder: pkgDir,
        mainEntryPointFilePath: dts,
        compiler: {
          overrideTsconfig: {
            compilerOptions: {
              target: "ES2022",
              module: "NodeNext",
              moduleResolution: "NodeNext",
              lib: ["ES2022", "DOM"],
              types: ["node"],
              typeRoots: [join(root, "node_modules", "@types")],
              skipLibCheck: true,
            },
            files: [dts],
          },
        },
        apiReport: {
          enabled: true,
          reportFolder,
          reportTempFolder: temp,
          reportFileName: `${reportName(subpath)}.api.md`,
        },
        docModel: { enabled: false },
        dtsRollup: { enabled: false },
        tsdocMetadata: { enabled: false },
        messages: {
          // Release tags (@public, @beta) are not used: the exports map is the contract.
          extractorMessageReporting: {
            "ae-missing-release-tag": { logLevel: "none" },
            "ae-forgotten-export": { logLevel: "none", addToApiReportFile: true },
          },
          tsdocMessageReporting: { default: { logLevel: "none" } },
        },
      },
      configObjectFullPath: undefined,
      packageJsonFullPath: join(pkgDir, "package.json"),
    });
    const result = Extractor.invoke(config, {
      localBuild: update,
      messageCallback: (message) => {
        // The report's own "created"/"changed" notes: this script says it once, its way.
        const aboutReport = String(message.messageId).startsWith("console-api-report");
        if (!aboutReport && (message.logLevel === "warning" || message.logLevel === "error")) {
          console.error(`api-report: ${subpath}: ${message.text}`);
        }
        message.handled = true;
      },
    });
    if (result.apiReportChanged && !update)
      changed.push(`${subpath} (${reportName(subpath)}.api.md)`);
    else if (!result.succeeded)
      throw new Error(`${subpath}: API Extractor failed (${result.errorCount} errors)`);
  }
  return { changed, reports: typedEntryPoints(pkgDir).length, reportFolder };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const update = process.argv.includes("--update");
  try {
    let failed = false;
    for (const pkg of REPORTED_PACKAGES) {
      const { changed, reports, reportFolder } = await apiReports({ update, pkg });
      if (changed.length > 0) {
        console.error(
          `api-report: the ${pkg} package's public API differs from the checked-in report for:\n  ${changed.join("\n  ")}\nIf the change is intended: npm run api:update, and commit tooling/api-report/ (a reviewer sees the change there).`,
        );
        failed = true;
        continue;
      }
      console.log(
        `api-report: ${pkg}: ${reports} entry points ${update ? "written to" : "match"} ${reportFolder}`,
      );
    }
    if (failed) process.exit(1);
  } catch (error) {
    console.error(`api-report: ${error.message}`);
    process.exit(1);
  }
}
