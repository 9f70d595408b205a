import type { Schema } from "@quire/api-types";
import type { Urls } from "../urls.js";
import { SECTIONS_PER_PAGE, type SectionHit, type SpaceHit } from "./store.js";

/** Longest text shown of a section. */
const EXCERPT_MAX = 300;

/** Up to `EXCERPT_MAX` characters of `text`, from a little before the first term found in it. */
export function excerpt(text: string, terms: readonly string[]): string {
  if (text.length <= EXCERPT_MAX) return text;
  const lower = text.toLowerCase();
  const found = terms.map((term) => lower.indexOf(term)).filter((at) => at >= 0);
  const first = found.length > 0 ? Math.min(...found) : 0;
  const start = Math.max(0, Math.min(first - 60, text.length - EXCERPT_MAX));
  const cut = text.slice(start, start + EXCERPT_MAX);
  return `${start > 0 ? "…" : ""}${cut}${start + EXCERPT_MAX < text.length ? "…" : ""}`;
}

function presentSection(
  hit: SectionHit,
  terms: readonly string[],
  urls: Urls,
): Schema<"SearchSectionResult"> {
  const path = hit.anchor ? `${hit.page_path}#${hit.anchor}` : hit.page_path;
  return {
    // The part before the first heading has no anchor: it is named after its page.
    id: hit.anchor || hit.page_id,
    title: hit.heading,
    path,
    body: excerpt(hit.body, terms),
    urls: { app: urls.app(`spaces/${hit.space_id}/${path}`) },
  };
}

/**
 * The spaces of a page of results with their pages and sections (from `searchSpaces`: pages in
 * order, best section first). A section that matched only through its page's title and holds no
 * text of its own is left out: the page stands for it.
 */
export function presentSearchResults(
  spaces: readonly SpaceHit[],
  terms: readonly string[],
  urls: Urls,
): Schema<"SearchSpaceResult">[] {
  return spaces.map((space) => {
    const pages = new Map<string, Schema<"SearchPageResult">>();
    for (const hit of space.sections) {
      let page = pages.get(hit.page_id);
      if (!page) {
        page = {
          id: hit.page_id,
          title: hit.page_title,
          path: hit.page_path,
          sections: [],
          urls: { app: urls.app(`spaces/${hit.space_id}/${hit.page_path}`) },
        };
        pages.set(hit.page_id, page);
      }
      const shown = page.sections as Schema<"SearchSectionResult">[];
      if (shown.length < SECTIONS_PER_PAGE && (hit.position > 0 || hit.body !== ""))
        shown.push(presentSection(hit, terms, urls));
    }
    return { id: space.id, title: space.title, pages: [...pages.values()] };
  });
}
