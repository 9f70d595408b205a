import type { PageTree } from "../content/pages.js";
import { revisionOf, treeOf } from "../content/revisions.js";
import { ContentStorage } from "../content/storage.js";
import type { PageEntry } from "../content/trie.js";
import type { Db } from "../db/database.js";
import type { SiteSpaceEntry, SiteStructure } from "./structure.js";
import { sectionUrlPath, siteSpaceUrlPath } from "./urls.js";

/** The pages of the site space's space, as its main content stands. */
export async function mainContent(db: Db, siteSpace: SiteSpaceEntry) {
  const { space } = siteSpace;
  const storage = new ContentStorage(db, space.id);
  const revision = await revisionOf(db, space.id, space.revision_id);
  return { storage, revision, tree: await treeOf(storage, revision) };
}

/** The section a site space is in; none for a site without sections. */
export const sectionOf = (structure: SiteStructure, entry: SiteSpaceEntry) =>
  structure.sections.find((s) => s.id === entry.row.section_id);

/** The path of a site space's URLs under the site's root: its section's, then its own. */
export function siteSpaceSegments(structure: SiteStructure, entry: SiteSpaceEntry) {
  const section = sectionOf(structure, entry);
  return [section && sectionUrlPath(section), siteSpaceUrlPath(entry.row)];
}

/** The path of a page's URL under the site's root: its site space's, then its slugs. */
export const pageSegments = (
  structure: SiteStructure,
  entry: SiteSpaceEntry,
  tree: PageTree,
  page: PageEntry,
) => [...siteSpaceSegments(structure, entry), ...tree.path(page).split("/")];
