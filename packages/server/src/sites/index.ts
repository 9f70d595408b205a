/**
 * The public entry of the `sites` area: what other areas, `commands/` and the top level (`areas.ts`,
 * `app.ts`, `cli`, `bench`) may use. Its other modules (`store.ts`, `tables.ts`, `presenter.ts`, ...) are
 * private: the root `biome.json` fails the lint on an import of one from another area.
 */
export { siteHandling } from "./context.js";
export { canChangeSiteStructure } from "./policy.js";
export { lockSite } from "./store.js";
export {
  anchorOf,
  assertPathSegment,
  checkedCondition,
  generatedPath,
  placeInOrder,
  renumber,
  type SiteSpaceEntry,
  type SiteStructure,
  siteSpaceShown,
  siteSpacesIn,
  topEnd,
  topItemsOf,
  topKey,
} from "./structure.js";
export type { SiteTable } from "./tables.js";
export { type PublishedUrls, sectionUrlPath, siteSpaceUrlPath } from "./urls.js";
