// The documentation site (VitePress): pages are the Markdown files of docs/; code shown in
// them is included from files under examples/ (`<<< @/../examples/...`); the API reference
// under reference/api/ is written by TypeDoc at build time (scripts/docs/api-reference.mjs).
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineConfig, type DefaultTheme } from "vitepress";

const apiSidebarFile = fileURLToPath(
  new URL("../reference/api/typedoc-sidebar.json", import.meta.url),
);
const apiSidebar: DefaultTheme.SidebarItem[] = existsSync(apiSidebarFile)
  ? JSON.parse(readFileSync(apiSidebarFile, "utf8"))
  : [];

export default defineConfig({
  title: "mcp-gen",
  description: "Typed MCP servers and clients generated from the Model Context Protocol schema",
  cleanUrls: true,
  lastUpdated: false,
  // Dead internal links fail the build (VitePress's own check); anchors and assets are
  // checked on the built pages by scripts/docs/check-links.mjs.
  ignoreDeadLinks: false,
  srcExclude: ["README.md", "**/node_modules/**"],
  themeConfig: {
    nav: [
      { text: "Guide", link: "/guide/get-started" },
      { text: "Reference", link: "/reference/cli" },
      { text: "API", link: "/reference/api/" },
      { text: "Contributing", link: "/contributing/how-to-test" },
    ],
    search: { provider: "local" },
    outline: [2, 3],
    sidebar: [
      {
        text: "Guide",
        items: [
          { text: "Get started", link: "/guide/get-started" },
          { text: "The generated output and what is yours", link: "/guide/generated-output" },
          { text: "The dispatcher: serving requests", link: "/guide/dispatcher" },
          { text: "Typed clients for a server's tools", link: "/guide/typed-client" },
          { text: "Serving every era", link: "/guide/eras" },
          { text: "Authorization", link: "/guide/authorization" },
          { text: "Security model", link: "/guide/security" },
          { text: "Deployment", link: "/guide/deployment" },
          { text: "Testing a server", link: "/guide/testing" },
          { text: "Writing a transport", link: "/guide/writing-a-transport" },
          { text: "Plugins: generators of your own", link: "/guide/plugins" },
          { text: "Telemetry (OpenTelemetry)", link: "/guide/telemetry" },
          { text: "Spec bumps", link: "/guide/spec-bumps" },
          { text: "What generating the spec taught us", link: "/guide/spec-findings" },
          { text: "Migrating from the official SDK", link: "/guide/migration" },
          { text: "mcp-gen and the v2 SDK, side by side", link: "/guide/side-by-side" },
          { text: "Troubleshooting", link: "/guide/troubleshooting" },
        ],
      },
      {
        text: "Server features",
        items: [
          { text: "Overview", link: "/guide/server/" },
          { text: "Tools", link: "/guide/server/tools" },
          { text: "Resources", link: "/guide/server/resources" },
          { text: "Prompts", link: "/guide/server/prompts" },
          { text: "Logging", link: "/guide/server/logging" },
          { text: "Progress and cancellation", link: "/guide/server/progress" },
          { text: "Elicitation, sampling and roots", link: "/guide/server/input" },
          { text: "Request state", link: "/guide/server/request-state" },
          { text: "One tool, every feature", link: "/guide/server/one-tool" },
          { text: "Completions", link: "/guide/server/completions" },
          { text: "Subscriptions and list changes", link: "/guide/server/subscriptions" },
          { text: "Tasks", link: "/guide/server/tasks" },
          { text: "Middleware", link: "/guide/server/middleware" },
        ],
      },
      {
        text: "Client features",
        items: [
          { text: "The client: calling servers", link: "/guide/client/" },
          { text: "Connecting", link: "/guide/client/connecting" },
          { text: "Tools", link: "/guide/client/tools" },
          { text: "Listing and pagination", link: "/guide/client/pagination" },
          { text: "Resources and subscriptions", link: "/guide/client/resources" },
          { text: "Prompts and completions", link: "/guide/client/prompts" },
          { text: "Logging", link: "/guide/client/logging" },
          { text: "Progress, cancellation and timeouts", link: "/guide/client/progress" },
          { text: "Elicitation, sampling and roots", link: "/guide/client/input" },
          { text: "Tasks", link: "/guide/client/tasks" },
          { text: "OAuth", link: "/guide/client/oauth" },
          { text: "Errors and recovery", link: "/guide/client/errors" },
        ],
      },
      {
        text: "Reference",
        items: [
          { text: "CLI", link: "/reference/cli" },
          { text: "Lint rules", link: "/reference/lint" },
          { text: "Config file", link: "/reference/config" },
          { text: "Validators", link: "/reference/validators" },
          { text: "Validators and schema.json", link: "/schema-json-deviations" },
          { text: "Limits and defaults", link: "/reference/limits" },
          { text: "Conformance", link: "/reference/conformance" },
          { text: "Fault tests", link: "/reference/faults" },
          { text: "API (runtime)", link: "/reference/api/", collapsed: true, items: apiSidebar },
        ],
      },
      { text: "Benchmarks", link: "/benchmarks" },
      {
        text: "Contributing",
        items: [
          { text: "How to test", link: "/contributing/how-to-test" },
          { text: "Architecture", link: "/contributing/architecture" },
        ],
      },
      {
        text: "Project",
        items: [
          { text: "Roadmap", link: "/project/ROADMAP" },
          { text: "Versioning", link: "/project/VERSIONING" },
          { text: "Changelog", link: "/project/CHANGELOG" },
          { text: "Dependency policy", link: "/project/DEPENDENCY_POLICY" },
          { text: "Security", link: "/project/SECURITY" },
          { text: "Contributing", link: "/project/CONTRIBUTING" },
        ],
      },
    ],
  },
});
