import type { Schema } from "@quire/api-types";
import { type Flag, flag, isSet } from "../db/codecs.js";
import type { Db } from "../db/database.js";
import { type Claims, conditionHolds } from "./conditions.js";
import { siteCustomizations } from "./customization/store.js";
import { presentSite } from "./presenter.js";
import { presentSection, presentSectionGroup } from "./sections/presenter.js";
import { presentSiteSpace, type SitePresentation } from "./site-spaces/presenter.js";
import type { SiteRow } from "./store.js";
import { loadSiteStructure, type SiteStructure } from "./structure.js";

/** A visitor of a published site: the claims of their verified token (none for anonymous visitors). */
export interface Visitor {
  claims: Claims;
}

/** `items` with the first marked default when none is (its default was hidden); rows are copied, not changed. */
function withDefault<T>(items: T[], isDefault: (item: T) => boolean, markDefault: (item: T) => T): T[] {
  const [first, ...rest] = items;
  if (first === undefined || items.some(isDefault)) return items;
  return [markDefault(first), ...rest];
}

/**
 * The structure as published: drafts (site spaces, sections, section groups with their sections)
 * are left out, and so are sections without a shown site space and groups without a shown section.
 * With a visitor, conditions are evaluated against their claims (an empty claim set when the site's
 * adaptive content is off, so claim-based conditions hide): a hidden section hides its site spaces,
 * and a hidden default falls back to the first item left in its container. Without one (the API's
 * preview), conditions are kept as data.
 */
export function publishedStructure(structure: SiteStructure, visitor?: Visitor): SiteStructure {
  const claims = isSet(structure.site.adaptive_content) ? (visitor?.claims ?? {}) : {};
  const shown = (item: { condition: string | null; draft: Flag }) =>
    !isSet(item.draft) && (visitor === undefined || conditionHolds(item.condition, claims));
  const liveGroups = new Map([...structure.groups].filter(([, group]) => !isSet(group.draft)));
  const siteSpaces = structure.siteSpaces.filter((entry) => shown(entry.row));
  const sections = withDefault(
    structure.sections.filter(
      (section) =>
        shown(section) &&
        (section.group_id === null || liveGroups.has(section.group_id)) &&
        siteSpaces.some((e) => e.row.section_id === section.id),
    ),
    (section) => isSet(section.is_default),
    (section) => ({ ...section, is_default: flag(true) }),
  );
  const groups = new Map([...liveGroups].filter(([id]) => sections.some((s) => s.group_id === id)));
  const containers = [null, ...sections.map((s) => s.id)];
  return {
    ...structure,
    groups,
    sections,
    top: structure.top.filter((item) =>
      item.kind === "site-section-group" ? groups.has(item.id) : sections.some((s) => s.id === item.id),
    ),
    siteSpaces: containers.flatMap((container) =>
      withDefault(
        siteSpaces.filter((entry) => entry.row.section_id === container),
        (entry) => isSet(entry.row.is_default),
        (entry) => ({ ...entry, row: { ...entry.row, is_default: flag(true) } }),
      ),
    ),
  };
}

/**
 * `SiteStructure` of the contract: when the site has sections, its top level (the sections outside
 * groups and the groups with theirs), else its root site spaces.
 */
export function presentStructure(
  structure: SiteStructure,
  presentation: SitePresentation,
  hasSections: boolean,
): Schema<"SiteStructure"> {
  if (hasSections)
    return {
      type: "sections",
      structure: structure.top.flatMap((item): Schema<"SiteSectionsStructureItem">[] => {
        if (item.kind === "site-section-group") {
          const group = structure.groups.get(item.id);
          return group ? [presentSectionGroup(group, structure, presentation)] : [];
        }
        const section = structure.sections.find((s) => s.id === item.id);
        return section ? [presentSection(section, structure, presentation)] : [];
      }),
    };
  return {
    type: "siteSpaces",
    structure: structure.siteSpaces
      .filter((entry) => entry.row.section_id === null)
      .map((entry) => presentSiteSpace(entry, structure, presentation)),
  };
}

/** Everything needed to render a published site, for a visitor when one is given (see `publishedStructure`). */
export async function publishedContentSite(
  db: Db,
  site: SiteRow,
  presentation: SitePresentation,
  visitor?: Visitor,
): Promise<Schema<"PublishedContentSite">> {
  const structure = await loadSiteStructure(db, site);
  const shown = publishedStructure(structure, visitor);
  return {
    object: "published-content-site",
    site: presentSite(site, presentation.urls, presentation.published, presentation.role),
    structure: presentStructure(shown, presentation, structure.sections.length > 0),
    customizations: await siteCustomizations(
      db,
      site.id,
      shown.siteSpaces.map((entry) => entry.row.id),
    ),
  };
}
