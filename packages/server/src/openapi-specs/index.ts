/**
 * The public entry of the `openapi-specs` area: what other areas, `commands/` and the top level (`areas.ts`,
 * `app.ts`, `cli`, `bench`) may use. Its other modules (`store.ts`, `tables.ts`, `presenter.ts`, ...) are
 * private: the root `biome.json` fails the lint on an import of one from another area.
 */
// No other area uses the specifications today.
export {};
