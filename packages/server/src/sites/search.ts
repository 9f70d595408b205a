import type { Schema } from "@quire/api-types";
import type { ElementContent } from "hast";
import { h } from "hastscript";
import { isSet } from "../db/codecs.js";
import { badRequest } from "../http/errors.js";
import type { SiteSpaceEntry, SiteStructure } from "./structure.js";

type SearchRequest = Schema<"SearchSiteContentRequest">;
type DefaultScope = Schema<"SiteSearchDefaultScope">;

/** The scope a request names: its `scope`, else GitBook's earlier `mode`/`siteSpaceIds`/`siteSpaceId`. */
function scopeOf(body: SearchRequest): Schema<"SiteSearchScope"> {
  if (body.scope !== undefined) return body.scope;
  const { mode, siteSpaceIds, siteSpaceId } = body;
  if (mode === "current") {
    if (siteSpaceId === undefined) throw badRequest("mode current searches from a `siteSpaceId`: give one.");
    return { mode: "default", currentSiteSpace: siteSpaceId };
  }
  if (mode === "specific" || (mode === undefined && siteSpaceIds !== undefined)) {
    if (siteSpaceIds === undefined) throw badRequest("mode specific searches the `siteSpaceIds`: list them.");
    return { mode: "specific", siteSpaceIds };
  }
  return { mode: "all" };
}

/**
 * GitBook's default scope: in each container (a section, or the site's root), the site space in the
 * current one's language when there is one, else the container's default; the current site space
 * always; `restrictTo` keeps only it, or only the others.
 */
function defaultScope(
  structure: SiteStructure,
  scope: DefaultScope,
  named: (id: string) => SiteSpaceEntry,
): SiteSpaceEntry[] {
  if (scope.restrictTo !== undefined && scope.currentSiteSpace === undefined)
    throw badRequest("scope.restrictTo is relative to the `currentSiteSpace`: give one.");
  const current = scope.currentSiteSpace === undefined ? undefined : named(scope.currentSiteSpace);
  if (current && scope.restrictTo === "currentSiteSpace") return [current];
  const language = current?.space.language ?? null;
  const containers = new Map<string | null, SiteSpaceEntry[]>();
  for (const entry of structure.siteSpaces)
    containers.set(entry.row.section_id, [...(containers.get(entry.row.section_id) ?? []), entry]);
  const picked = [...containers.values()].flatMap((entries) => {
    const inLanguage = language === null ? undefined : entries.find((e) => e.space.language === language);
    const chosen = inLanguage ?? entries.find((entry) => isSet(entry.row.is_default));
    return chosen ? [chosen] : [];
  });
  const withCurrent = current && !picked.includes(current) ? [...picked, current] : picked;
  return scope.restrictTo === "otherSiteSpaces" ? withCurrent.filter((e) => e !== current) : withCurrent;
}

/**
 * The spaces a search of the site covers, by its request's scope (see `SiteSearchScope`); every
 * site space when it names none. A site space the site does not have is a 400.
 */
export function searchedSpaceIds(structure: SiteStructure, body: SearchRequest): string[] {
  const byId = new Map(structure.siteSpaces.map((entry) => [entry.row.id, entry]));
  const named = (id: string): SiteSpaceEntry => {
    const entry = byId.get(id);
    if (!entry) throw badRequest(`Site space "${id}" is not in this site.`);
    return entry;
  };
  const scope = scopeOf(body);
  const entries =
    scope.mode === "default"
      ? defaultScope(structure, scope, named)
      : scope.mode === "specific"
        ? scope.siteSpaceIds.map(named)
        : structure.siteSpaces;
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
