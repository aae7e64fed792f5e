// Lint rules for mcp-gen's own source and tests (generated output is checked by tsc and
// prettier in the tests instead). typescript-eslint's recommended set, without type
// information: a type-aware run costs minutes on the 2-core CI machine and tsc already
// runs strict over every file.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

/**
 * The runtime's layers (docs/contributing/architecture.md), lowest first: core/ (protocol,
 * errors, the transport contract, URI templates, task wire shapes); client/, server/ and auth/
 * on core; extensions/ on server; transport/ (stdio/, http/client/, http/server/) on those;
 * stores/ (Redis) on the HTTP server's store contracts. Each folder lists the folders its
 * modules must not import, so an import pointing up a layer, or across to the other side,
 * fails lint. The entry modules (src/*.ts, transport/index.ts) gather subpaths and are freer.
 */
const RUNTIME_SRC = "packages/runtime/src";
const RUNTIME_LAYERS = [
  {
    folder: "core",
    forbidden: ["client", "server", "auth", "extensions", "transport", "stores", "otel"],
  },
  { folder: "client", forbidden: ["server", "auth", "extensions", "transport", "stores", "otel"] },
  { folder: "server", forbidden: ["client", "auth", "extensions", "transport", "stores", "otel"] },
  { folder: "auth", forbidden: ["client", "server", "extensions", "transport", "stores", "otel"] },
  { folder: "extensions", forbidden: ["client", "auth", "transport", "stores", "otel"] },
  // transport/'s own modules (direct, sse, server-requests) serve every transport below.
  {
    folder: "transport",
    files: ["*.ts"],
    ignores: ["index.ts"],
    forbidden: ["client", "server", "auth", "extensions", "stores", "stdio", "http", "otel"],
  },
  { folder: "transport", files: ["index.ts"], forbidden: ["server", "stdio", "stores", "otel"] },
  {
    folder: "transport/memory",
    forbidden: ["client", "server", "auth", "extensions", "stores", "stdio", "http"],
  },
  {
    folder: "transport/stdio",
    forbidden: ["client", "server", "auth", "extensions", "stores", "http", "otel"],
  },
  // transport/http/'s own modules (headers) serve both sides.
  {
    folder: "transport/http",
    files: ["*.ts"],
    forbidden: ["client", "server", "auth", "extensions", "stores", "stdio", "otel"],
  },
  {
    folder: "transport/http/client",
    forbidden: ["server", "extensions", "stores", "stdio", "otel"],
  },
  {
    folder: "transport/http/server",
    forbidden: ["client", "extensions", "stores", "stdio", "otel"],
  },
  { folder: "stores", forbidden: ["client", "auth", "extensions", "stdio", "otel"] },
  // otel/ (the OpenTelemetry hooks, on @opentelemetry/api) fills core's tracing seams only.
  {
    folder: "otel",
    forbidden: ["client", "server", "auth", "extensions", "transport", "stores"],
  },
  { folder: "transport/http/client", forbidden: ["server", "extensions", "stores", "stdio"] },
  {
    folder: "transport/http/server",
    ignores: ["server.ts"],
    forbidden: ["client", "extensions", "stores", "stdio"],
  },
  // server.ts is the node:http entry point (`@mcp-gen/runtime/node/http`): it wires the
  // server's default stores, in memory, as src/fetch.ts does for the fetch handler.
  {
    folder: "transport/http/server",
    files: ["server.ts"],
    forbidden: ["client", "extensions", "stores/redis", "stdio"],
  },
  // Stores implement the HTTP server's store contracts; neither kind imports the other.
  { folder: "stores/memory", forbidden: ["client", "auth", "extensions", "stdio", "redis"] },
  { folder: "stores/redis", forbidden: ["client", "auth", "extensions", "stdio", "memory"] },
];

export default tseslint.config(
  {
    ignores: [
      "**/node_modules/**",
      "**/dist/**",
      "out/**",
      ".tmp/**",
      "tooling/bench/.work-*/**",
      "tooling/conformance/.work*/**",
      "packages/cli/test/golden/**",
      "packages/cli/bundled-spec/**",
      "docs/.vitepress/dist/**",
      "docs/.vitepress/cache/**",
      // Schema fixtures are input data written as the spec writes schema.ts.
      "packages/cli/test/fixtures/*-schema.ts",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: {
        // Node.js and the web-standard globals the runtime uses (fetch, Request, crypto...).
        process: "readonly",
        console: "readonly",
        Buffer: "readonly",
        URL: "readonly",
        URLSearchParams: "readonly",
        TextEncoder: "readonly",
        TextDecoder: "readonly",
        AbortController: "readonly",
        AbortSignal: "readonly",
        setTimeout: "readonly",
        clearTimeout: "readonly",
        setInterval: "readonly",
        clearInterval: "readonly",
        setImmediate: "readonly",
        queueMicrotask: "readonly",
        structuredClone: "readonly",
        fetch: "readonly",
        Request: "readonly",
        Response: "readonly",
        Headers: "readonly",
        ReadableStream: "readonly",
        WritableStream: "readonly",
        TransformStream: "readonly",
        crypto: "readonly",
        performance: "readonly",
        globalThis: "readonly",
      },
    },
    rules: {
      // `_`-prefixed names are deliberately unused (a handler's ignored context, say).
      "@typescript-eslint/no-unused-vars": [
        "error",
        {
          argsIgnorePattern: "^_",
          varsIgnorePattern: "^_",
          caughtErrors: "none",
          ignoreRestSiblings: true,
        },
      ],
      eqeqeq: ["error", "always", { null: "ignore" }],
      // The generator and the validators escape and test control characters on purpose.
      "no-control-regex": "off",
      "no-var": "error",
      "prefer-const": "error",
    },
  },
  {
    // The house rules of size (CONTRIBUTING.md): a file a reader can hold, a function that
    // does one thing. Comments and blank lines do not count against a file.
    files: ["packages/*/src/**/*.ts"],
    rules: {
      "max-lines": ["error", { max: 400, skipBlankLines: true, skipComments: true }],
      "max-lines-per-function": ["error", { max: 150 }],
    },
  },
  {
    // Tests import generated modules at run time, whose types only exist after generation.
    files: ["packages/*/test/**", "tools/**", "deploy/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  ...RUNTIME_LAYERS.map(({ folder, files = ["**/*.ts"], ignores = [], forbidden }) => ({
    files: files.map((f) => `${RUNTIME_SRC}/${folder}/${f}`),
    ignores: ignores.map((f) => `${RUNTIME_SRC}/${folder}/${f}`),
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: forbidden.map((name) => ({
            group: [`**/${name}/**`],
            message: `${folder}/ sits below ${name}/ (or beside it) in the runtime's layers: see RUNTIME_LAYERS in eslint.config.js`,
          })),
        },
      ],
    },
  })),
);
