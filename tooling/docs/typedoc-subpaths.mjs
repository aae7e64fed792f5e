// A TypeDoc plugin: names each module of the runtime's API reference by the subpath users
// import it from (`@mcp-gen/runtime/auth/client` is the module "auth/client"), not by its
// source file (src/auth/oauth-client.ts). The map comes from api-reference.mjs through the
// environment: subpath by the module name TypeDoc gives the source file. Written without
// importing typedoc (it is installed in docs/, not beside this file): TypeDoc's event name
// and ReflectionKind.Module's value are used as they are.
const RESOLVE_BEGIN = "resolveBegin";
const MODULE = 2;

export function load(app) {
  const names = JSON.parse(process.env.MCP_GEN_TYPEDOC_MODULE_NAMES ?? "{}");
  app.converter.on(RESOLVE_BEGIN, (context) => {
    for (const module of context.project.getReflectionsByKind(MODULE)) {
      const subpath = names[module.name];
      if (subpath !== undefined) module.name = subpath;
    }
  });
}
