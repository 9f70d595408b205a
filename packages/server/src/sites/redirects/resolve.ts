import type { Schema } from "@quire/api-types";
import type { Response } from "express";
import type { PageTree } from "../../content/pages.js";
import { fromJson, isSet } from "../../db/codecs.js";
import type { Db } from "../../db/database.js";
import { MARKDOWN_SUFFIX } from "../discovery.js";
import { mainContent, pageSegments, siteSpaceSegments } from "../page-paths.js";
import type { SiteSpaceEntry, SiteStructure } from "../structure.js";
import type { SiteRedirectTable } from "../tables.js";
import { sectionUrlPath, urlsUnder } from "../urls.js";
import { liveRedirectsFrom } from "./store.js";

/** What a source segment may hold unencoded (GitBook's `SiteRedirectSourcePath`). */
const UNRESERVED = /^[A-Za-z0-9\-._~+]$/;
/** Sources are at most this long: longer prefixes of a path name no source. */
const SOURCE_MAX = 512;

const percent = (byte: number) => `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;

/**
 * A source in the one form it is stored and looked up in: a `%XX` of an unreserved character
 * decoded, any other in uppercase, so that `/a%2db` and `/a-b` are one source.
 */
export const canonicalSource = (source: string) =>
  source.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => {
    const char = String.fromCharCode(Number.parseInt(hex, 16));
    return UNRESERVED.test(char) ? char : percent(Number.parseInt(hex, 16));
  });

/** A visitor's path (decoded segments) in the form of sources. */
function visitorPath(segments: readonly string[]): string {
  const encoded = segments.map((segment) =>
    Array.from(Buffer.from(segment, "utf8"), (byte) => {
      const char = String.fromCharCode(byte);
      return UNRESERVED.test(char) ? char : percent(byte);
    }).join(""),
  );
  return `/${encoded.join("/")}`;
}

/**
 * The sources that match `path`, most specific first, each with the part of the path its wildcard
 * matched: `path` itself, then wildcards by decreasing prefix. `/x/*` matches `/x` and every path
 * under it (its suffix keeps the `/`); `/x*` every path starting with `/x`. A wildcard source is
 * looked up as it is, its `*` being no path's.
 */
function matchingSources(path: string): Array<{ source: string; suffix: string }> {
  const matches = [{ source: path, suffix: "" }];
  if (path.endsWith("*")) return matches;
  for (let end = path.length + 1; end >= 2; end -= 1) {
    const prefix = end > path.length ? `${path}/` : path.slice(0, end);
    if (prefix.length >= SOURCE_MAX) continue;
    const rest = path.slice(prefix.length);
    matches.push({ source: `${prefix}*`, suffix: prefix.endsWith("/") && rest ? `/${rest}` : rest });
  }
  return matches;
}

/** The page trees of a site's spaces as their main content stands, each read once. */
export function pageTrees(db: Db): (entry: SiteSpaceEntry) => Promise<PageTree> {
  const trees = new Map<string, Promise<PageTree>>();
  return (entry) => {
    let tree = trees.get(entry.space.id);
    if (!tree) {
      tree = mainContent(db, entry).then((content) => content.tree);
      trees.set(entry.space.id, tree);
    }
    return tree;
  };
}

/** The URL of a destination, by `urlAt` under the site's root; undefined when `structure` no longer has it. */
async function destinationUrl(
  db: Db,
  structure: SiteStructure,
  destination: Schema<"SiteRedirectDestination">,
  urlAt: (segments: ReadonlyArray<string | undefined>) => string,
): Promise<string | undefined> {
  if (destination.kind === "external") return destination.url;
  if (destination.kind === "site-section") {
    const section = structure.sections.find((s) => s.id === destination.siteSectionId);
    return section && urlAt([sectionUrlPath(section)]);
  }
  const entry = structure.siteSpaces.find((e) => e.row.id === destination.siteSpaceId);
  if (!entry) return undefined;
  if (destination.kind === "site-space") return urlAt(siteSpaceSegments(structure, entry));
  const { tree } = await mainContent(db, entry);
  const page = tree.get(destination.pageId);
  return page && urlAt(pageSegments(structure, entry, tree, page));
}

/** `url` with a wildcard's matched suffix appended to its path, with one `/` between them. */
function withSuffix(url: string, suffix: string): string {
  const target = new URL(url);
  target.pathname =
    target.pathname.endsWith("/") && suffix.startsWith("/")
      ? `${target.pathname}${suffix.slice(1)}`
      : `${target.pathname}${suffix}`;
  return target.toString();
}

export interface RedirectMatch {
  row: SiteRedirectTable;
  /** The absolute URL the visitor is sent to. */
  target: string;
}

/**
 * The live redirect of `path` (a source's form) in the site of `structure`, and its target by
 * `urlAt`: the most specific source whose destination `structure` still shows.
 */
export async function liveRedirect(
  db: Db,
  structure: SiteStructure,
  path: string,
  urlAt: (segments: ReadonlyArray<string | undefined>) => string,
): Promise<RedirectMatch | undefined> {
  const matches = matchingSources(path);
  const rows = await liveRedirectsFrom(
    db,
    structure.site.id,
    matches.map((m) => m.source),
  );
  const bySource = new Map(rows.map((row) => [row.source, row]));
  for (const { source, suffix } of matches) {
    const row = bySource.get(source);
    if (!row) continue;
    const url = await destinationUrl(db, structure, fromJson(row.destination), urlAt);
    if (url !== undefined)
      return { row, target: isSet(row.capture_wildcard) ? withSuffix(url, suffix) : url };
  }
  return undefined;
}

/** A visitor's request where no page answers: the path under the site's root as they asked for it. */
export interface UnansweredVisit {
  /** The structure the visitor is shown (their claims applied): a redirect leads only there. */
  structure: SiteStructure;
  /** Where the site is served from, for the visitor; its share key, which the target keeps. */
  root: URL;
  shareKey: string | undefined;
  asked: { kind: "page" | "markdown"; segments: readonly string[] };
}

/**
 * Sends the visitor on by the live redirect of the path they asked for, if one applies; false when
 * none does. A permanent redirect is a 308 on a public site only: elsewhere the audience may change,
 * and browsers keep a 308 for good.
 */
export async function redirectVisitor(db: Db, visit: UnansweredVisit, res: Response): Promise<boolean> {
  const { segments, kind } = visit.asked;
  // A page's Markdown was asked for by its `.md` path: that is the path redirected.
  const asked =
    kind === "markdown" ? [...segments.slice(0, -1), `${segments.at(-1)}${MARKDOWN_SUFFIX}`] : segments;
  const found = await liveRedirect(
    db,
    visit.structure,
    visitorPath(asked),
    urlsUnder(visit.root, visit.shareKey),
  );
  if (!found) return false;
  const permanent = isSet(found.row.permanent) && visit.structure.site.visibility === "public";
  res.redirect(permanent ? 308 : 307, found.target);
  return true;
}
