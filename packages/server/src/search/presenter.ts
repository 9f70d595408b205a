import type { Schema } from "@quire/api-types";
import { fromJson } from "../db/codecs.js";
import type { Urls } from "../urls.js";
import { holdsTerms } from "./engine.js";
import { SECTIONS_PER_PAGE, type SectionHit, type SpaceHit } from "./store.js";

/** What was searched: the words, and the engine that matched them (see `holdsTerms`). */
export interface Searched {
  terms: readonly string[];
  sqlite: boolean;
}

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
    score: hit.score,
    urls: { app: urls.app(`spaces/${hit.space_id}/${path}`) },
  };
}

/**
 * The pages of `sections` (page by page, best section first, as the stores give them) with their
 * sections. A section that matched only through its page's title and holds no text of its own is
 * left out: the page stands for it.
 */
export function presentPages(
  sections: readonly SectionHit[],
  searched: Searched,
  urls: Urls,
): Schema<"SearchPageResult">[] {
  const pages = new Map<string, Schema<"SearchPageResult">>();
  for (const hit of sections) {
    let page = pages.get(hit.page_id);
    if (!page) {
      page = {
        id: hit.page_id,
        title: hit.page_title,
        description: hit.page_description,
        path: hit.page_path,
        ancestors: fromJson(hit.page_ancestors).map((title) => ({ title })),
        rank: hit.rank,
        resultType: holdsTerms(searched.sqlite, hit.page_title, searched.terms) ? "page" : "section",
        sections: [],
        score: hit.score,
        urls: { app: urls.app(`spaces/${hit.space_id}/${hit.page_path}`) },
      };
      pages.set(hit.page_id, page);
    }
    const shown = page.sections as Schema<"SearchSectionResult">[];
    if (shown.length < SECTIONS_PER_PAGE && (hit.position > 0 || hit.body !== ""))
      shown.push(presentSection(hit, searched.terms, urls));
  }
  return [...pages.values()];
}

/** The spaces of a page of results with their pages and sections (from `searchSpaces`). */
export function presentSearchResults(
  spaces: readonly SpaceHit[],
  searched: Searched,
  urls: Urls,
): Schema<"SearchSpaceResult">[] {
  return spaces.map((space) => ({
    type: "space",
    id: space.id,
    title: space.title,
    pages: presentPages(space.sections, searched, urls),
    score: space.score,
  }));
}
