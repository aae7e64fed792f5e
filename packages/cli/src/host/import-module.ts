// Every import() of a module outside the CLI (a plugin, prettier, generated code the CLI runs)
// goes through here. The reason is the CLI's bundle (tooling/build/bundle-cli.mjs): main.js
// loads it through the compile cache, which compiles it with vm.Script, and on Node 20 an
// import() in code so compiled fails ("A dynamic import callback was not specified") once the
// code comes from the cache. main.js, a module Node compiled itself, hands in its own import().

type Importer = (specifier: string) => Promise<unknown>;

let importer: Importer = (specifier) => import(specifier);

/** Sets the import() the CLI's code uses; main.js calls it before running the bundle. */
export function useImporter(importFromHost: Importer): void {
  importer = importFromHost;
}

/** import(specifier), through the importer main.js handed in (a URL or a package name). */
export function importModule<M = Record<string, unknown>>(specifier: string): Promise<M> {
  return importer(specifier) as Promise<M>;
}
