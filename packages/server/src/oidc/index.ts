/**
 * The public entry of the `oidc` area: what other areas, `commands/` and the top level (`areas.ts`,
 * `app.ts`, `cli`, `bench`) may use. Its other modules (`store.ts`, `tables.ts`, `presenter.ts`, ...) are
 * private: the root `biome.json` fails the lint on an import of one from another area.
 */
export { presentOidcLogins } from "./presenter.js";
export { organizationProviders as oidcProviders } from "./store.js";
