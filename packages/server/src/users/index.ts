/**
 * The public entry of the `users` area: what other areas, `commands/` and the top level (`areas.ts`,
 * `app.ts`, `cli`, `bench`) may use. Its other modules (`store.ts`, `tables.ts`, `presenter.ts`, ...) are
 * private: the root `biome.json` fails the lint on an import of one from another area.
 */
export { presentUser, presentUserIn } from "./presenter.js";
export { createUser, findUserByEmail, hasUsers, setDisplayName, usersByIds } from "./store.js";
