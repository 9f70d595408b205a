import { isSet } from "../db/codecs.js";
import type { Urls } from "../urls.js";
import type { SiteSectionTable, SiteSpaceTable, SiteTable } from "./tables.js";

/**
 * Where a published site is served: `<public URL>/s/<site id>/`, then the section's path and the
 * site space's path, each left out for the default one (served at its container's root). A share
 * key travels as the `share` query parameter. The pages themselves are served by the renderer of
 * published sites, which resolves the same paths.
 */
export const PUBLISHED_PREFIX = "s";
export const SHARE_KEY_PARAMETER = "share";

export interface PublishedUrls {
  /** The site's root, published or not: where a proxy forwards to. */
  root: string;
  /** The published URL of a path under the site (`""` for its root), or undefined when unpublished. */
  at(segments: ReadonlyArray<string | undefined>): string | undefined;
}

/** Published URLs of a site, with `shareKey` when the visitor holds an active share link's key. */
export function publishedUrls(urls: Urls, site: SiteTable, shareKey?: string): PublishedUrls {
  const root = publishedRoot(urls, site.id);
  const at = urlsUnder(root, shareKey);
  return { root: root.toString(), at: (segments) => (isSet(site.published) ? at(segments) : undefined) };
}

/** Where the server serves a site itself: `<public URL>/s/<site id>/`. */
export function publishedRoot(urls: Urls, siteId: string): URL {
  // `urls.api("")` is `<public URL>/v1/`: its parent is the public URL, with any base path kept.
  return new URL(`../${PUBLISHED_PREFIX}/${encodeURIComponent(siteId)}/`, urls.api(""));
}

/** The URL of a path under `root` (segments left undefined are skipped), with the share key if any. */
export function urlsUnder(root: URL, shareKey?: string) {
  return (segments: ReadonlyArray<string | undefined>): string => {
    const path = segments
      .filter((segment) => segment !== undefined)
      .map((segment) => `${encodeURIComponent(segment)}/`)
      .join("");
    const url = new URL(path, root);
    if (shareKey !== undefined) url.searchParams.set(SHARE_KEY_PARAMETER, shareKey);
    return url.toString();
  };
}

/** The path a site space's URLs take: none for the default one, served at its container's root. */
export const siteSpaceUrlPath = (siteSpace: SiteSpaceTable) =>
  isSet(siteSpace.is_default) ? undefined : siteSpace.path;

/** The path a section's URLs take: none for the default section, served at the site's root. */
export const sectionUrlPath = (section: SiteSectionTable) =>
  isSet(section.is_default) ? undefined : section.path;
