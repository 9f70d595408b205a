/**
 * The public entry of the `accounts` area: what other areas, `commands/` and the top level (`areas.ts`,
 * `app.ts`, `cli`, `bench`) may use. Its other modules (`store.ts`, `tables.ts`, `routes.ts`, ...) are
 * private: the root `biome.json` fails the lint on an import of one from another area.
 */
export { hasSecondFactor } from "./factors-store.js";
export { alert, field, form, link, paragraph, sendPage } from "./pages.js";
export { setPassword } from "./password-change.js";
export { hashPassword, passwordProblem } from "./passwords.js";
export { FIRST_START_LINK_MS, signInLinkUrl } from "./routes.js";
export { landingAfterSignIn, signInBrowser } from "./sign-in.js";
export { createLinkToken } from "./store.js";
