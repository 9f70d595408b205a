/**
 * The public entry of the `invites` area: what other areas, `commands/` and the top level (`areas.ts`,
 * `app.ts`, `cli`, `bench`) may use. Its other modules (`store.ts`, `tables.ts`, `presenter.ts`, ...) are
 * private: the root `biome.json` fails the lint on an import of one from another area.
 */
export { isRedundant } from "./policy.js";
export { type InvitedContent, joinWithRole } from "./store.js";
export type { InviteLinkTable } from "./tables.js";
