/**
 * The public entry of the `sites` area (sites, their sections and site spaces): what other areas,
 * `commands/` and the top level (`areas.ts`, `app.ts`, `cli`, `bench`) may use. Its other modules
 * (`store.ts`, `tables.ts`, `presenter.ts`, ...) are private: the root `biome.json` fails the lint on an
 * import of one from another area.
 */
export { readsSite } from "./access.js";
export { assetNamed, sendAsset } from "./assets.js";
export { createSiteIn } from "./create.js";
export { type RenderedPage, renderPage, siteLinkContext } from "./page-links.js";
export {
  CONTENT_SECURITY_POLICY,
  type PublishedPage,
  renderMessage,
  renderPublishedPage,
  type SiteChrome,
} from "./render.js";
export { unlinkSpaces } from "./site-spaces/store.js";
export { lockSiteOf } from "./store.js";
export { spacesPublishedBy } from "./structure.js";
