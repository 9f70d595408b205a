import type { Schema } from "@quire/api-types";
import { isSet } from "../../db/codecs.js";
import { presentSiteSpace, type SitePresentation } from "../site-spaces/presenter.js";
import { type SiteStructure, siteSpacesIn } from "../structure.js";
import type { SiteSectionGroupTable, SiteSectionTable } from "../tables.js";
import { sectionUrlPath } from "../urls.js";

export function presentSection(
  section: SiteSectionTable,
  structure: SiteStructure,
  presentation: SitePresentation,
): Schema<"SiteSection"> {
  const path = sectionUrlPath(section);
  const published = presentation.published.at([path]);
  return {
    object: "site-section",
    id: section.id,
    title: section.title,
    ...(section.description !== null && { description: section.description }),
    default: isSet(section.is_default),
    draft: isSet(section.draft),
    path: section.path,
    ...(section.condition !== null && { condition: section.condition }),
    ...(section.group_id !== null && { sectionGroup: section.group_id }),
    siteSpaces: siteSpacesIn(structure, section.id).map((entry) =>
      presentSiteSpace(entry, structure, presentation),
    ),
    urls: { ...(published !== undefined && { published }) },
    ...(section.icon !== null && { icon: section.icon }),
  };
}

export function presentSectionGroup(
  group: SiteSectionGroupTable,
  structure: SiteStructure,
  presentation: SitePresentation,
): Schema<"SiteSectionGroup"> {
  const sections = structure.sections
    .filter((section) => section.group_id === group.id)
    .map((section) => presentSection(section, structure, presentation));
  return {
    object: "site-section-group",
    id: group.id,
    title: group.title,
    sections,
    draft: isSet(group.draft),
    children: sections,
    ...(group.icon !== null && { icon: group.icon }),
  };
}
