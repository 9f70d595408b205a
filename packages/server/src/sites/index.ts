/**
 * The public entry of the `sites` area (sites, their sections and site spaces): what other areas,
 * `commands/` and the top level (`areas.ts`, `app.ts`, `cli`, `bench`) may use. Its other modules
 * (`store.ts`, `tables.ts`, `presenter.ts`, ...) are private: the root `biome.json` fails the lint on an
 * import of one from another area.
 */
import { type Expression, sql } from "kysely";
import { siteSpaceShown } from "./structure.js";

export { readsSite } from "./access.js";
export { assetNamed, sendAsset } from "./assets.js";
export { type RenderedPage, renderPage, siteLinkContext } from "./page-links.js";
export {
  CONTENT_SECURITY_POLICY,
  type PublishedPage,
  renderMessage,
  renderPublishedPage,
  type SiteChrome,
} from "./render.js";
export { unlinkSpaces } from "./site-spaces/store.js";

/**
 * SQL: the ids of the spaces the site of id `siteId` publishes (its shown site spaces: spaces of the
 * site's organization, not deleted), as a subquery for `in`; none for an unknown site.
 */
export function spacesPublishedBy(siteId: string | Expression<string>) {
  return sql<string>`(select ss.space_id from site_spaces ss where ss.site_id = ${siteId} and ${siteSpaceShown("ss")})`;
}
