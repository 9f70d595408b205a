import type { Schema } from "@quire/api-types";
import type { ElementContent } from "hast";
import { h } from "hastscript";
import { isSet } from "../db/codecs.js";
import { badRequest } from "../http/errors.js";
import type { SiteSpaceEntry, SiteStructure } from "./structure.js";

/**
 * The spaces a search of the site covers, by its request: its `scope` (each container's default
 * site space and the reader's current one, or all), else the `siteSpaceIds` listed, else every
 * site space. A site space the site does not have is a 400.
 */
export function searchedSpaceIds(
  structure: SiteStructure,
  { scope, siteSpaceIds }: Schema<"SearchSiteContentRequest">,
): string[] {
  const byId = new Map(structure.siteSpaces.map((entry) => [entry.row.id, entry]));
  const named = (id: string): SiteSpaceEntry => {
    const entry = byId.get(id);
    if (!entry) throw badRequest(`Site space "${id}" is not in this site.`);
    return entry;
  };
  let entries: SiteSpaceEntry[];
  if (scope?.mode === "default")
    entries = [
      ...structure.siteSpaces.filter((entry) => isSet(entry.row.is_default)),
      ...(scope.currentSiteSpace === undefined ? [] : [named(scope.currentSiteSpace)]),
    ];
  else if (scope === undefined && siteSpaceIds !== undefined) entries = siteSpaceIds.map(named);
  else entries = structure.siteSpaces;
  return [...new Set(entries.map((entry) => entry.space.id))];
}

/** A result of a site search as a reader follows it: where, what, and the text around the match. */
export interface SiteSearchHit {
  href: string;
  title: string;
  /** The section's heading, when the match is under one. */
  heading?: string;
  excerpt: string;
}

/**
 * The text with each occurrence of the terms (the words searched) marked, as hast: what the reader
 * sees of why a result matched. Terms are words of letters and digits (`termsOf`), matched as the
 * engines do, from the start of a word.
 */
export function markTerms(text: string, terms: readonly string[]): ElementContent[] {
  const words = terms
    .filter((term) => term.length > 0)
    .map((term) => term.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  if (words.length === 0) return [{ type: "text", value: text }];
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(?:${words.join("|")})`, "giu");
  const out: ElementContent[] = [];
  let from = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > from) out.push({ type: "text", value: text.slice(from, match.index) });
    out.push(h("mark", match[0]));
    from = match.index + match[0].length;
  }
  if (from < text.length) out.push({ type: "text", value: text.slice(from) });
  return out;
}

/** The results of a search as a list, or a line saying there are none. */
export function searchResultsContent(
  query: string,
  hits: readonly SiteSearchHit[],
  terms: readonly string[],
): ElementContent[] {
  if (query.trim() === "") return [h("p", "Type words to search for.")];
  if (hits.length === 0) return [h("p", `No results for “${query}”.`)];
  return [
    h("p", `${hits.length} result${hits.length === 1 ? "" : "s"} for “${query}”.`),
    h(
      "ol",
      { class: "search-results" },
      hits.map((hit) =>
        h("li", [
          h("a", { href: hit.href }, [hit.title, ...(hit.heading ? [` › ${hit.heading}`] : [])]),
          h("p", markTerms(hit.excerpt, terms)),
        ]),
      ),
    ),
  ];
}
