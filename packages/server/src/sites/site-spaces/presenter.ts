import type { Schema } from "@quire/api-types";
import { isSet } from "../../db/codecs.js";
import { type OrganizationRole, roleOnContent } from "../../policy.js";
import { presentSpace } from "../../spaces/index.js";
import type { Urls } from "../../urls.js";
import { type SiteSpaceEntry, type SiteStructure, siteSpaceTitle } from "../structure.js";
import { type PublishedUrls, sectionUrlPath, siteSpaceUrlPath } from "../urls.js";

/** What presenting site spaces needs besides the rows: the caller, and where the site is published. */
export interface SitePresentation {
  role: OrganizationRole;
  urls: Urls;
  published: PublishedUrls;
}

/** The space as a site space embeds it, with the caller's permissions on it. */
function embeddedSpace(entry: SiteSpaceEntry, { role, urls }: SitePresentation): Schema<"EmbeddedSpace"> {
  return presentSpace(entry.space, roleOnContent(role, entry.space.default_level), urls);
}

/**
 * A site space. Its published URL is its section's (left out for the default section) and its own
 * path (left out for its container's default).
 */
export function presentSiteSpace(
  entry: SiteSpaceEntry,
  structure: SiteStructure,
  presentation: SitePresentation,
): Schema<"SiteSpace"> {
  const { row } = entry;
  const isDefault = isSet(row.is_default);
  const section = structure.sections.find((s) => s.id === row.section_id);
  const published = presentation.published.at([section && sectionUrlPath(section), siteSpaceUrlPath(row)]);
  return {
    object: "site-space",
    id: row.id,
    path: row.path,
    ...(row.section_id !== null && { section: row.section_id }),
    space: embeddedSpace(entry, presentation),
    title: siteSpaceTitle(entry),
    default: isDefault,
    draft: isSet(row.draft),
    ...(row.condition !== null && { condition: row.condition }),
    urls: { ...(published !== undefined && { published }) },
  };
}
