/**
 * The public entry of the `search` area: what other areas, `commands/` and the top level (`areas.ts`,
 * `app.ts`, `cli`, `bench`) may use. Its other modules (`store.ts`, `tables.ts`, `presenter.ts`, ...) are
 * private: the root `biome.json` fails the lint on an import of one from another area.
 */

export { termsOf } from "./engine.js";
export { indexMainContent } from "./indexer.js";
export { searchContent } from "./search.js";
