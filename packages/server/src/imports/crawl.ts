import type { Schema } from "@quire/api-types";
import { contentEngine } from "../content/engine/index.js";
import { fileMarkdownUrl } from "../content/engine/references.js";
import { inspectFile } from "../files/index.js";
import { badRequest } from "../http/errors.js";
import { FetchError, type Fetcher } from "../net/fetch.js";
import { siblingModule } from "../workers/pool.js";
import type { ConvertedPage, HtmlPage } from "./convert.js";
import { robotsRules } from "./robots.js";

/** GitBook's limits for one import: at most 20 pages and 20 files. */
export const MAX_PAGES = 20;
export const MAX_FILES = 20;
const PAGE_LIMITS = {
  timeoutMs: 10_000,
  maxBytes: 5 * 1024 * 1024,
  accept: "text/html,text/markdown,text/plain,*/*;q=0.5",
};
/**
 * How long one import may spend fetching: past it, the pages and images read so far are imported
 * and the rest is left (so that a slow site cannot hold a request for 20 × 10 s).
 */
export const IMPORT_BUDGET_MS = 60_000;
const HTML_TYPES = new Set(["text/html", "application/xhtml+xml"]);

/** A page ready to insert, with the id it gets: `url` decides where it nests. */
export interface ImportedPage {
  id: string;
  url: URL;
  title: string;
  markdown: string;
}

/** An image fetched and checked, to add as a file of the change request with the id its page uses. */
export interface ImportedFile {
  id: string;
  name: string;
  contentType: string;
  bytes: Buffer;
}

export interface Imported {
  pages: ImportedPage[];
  files: ImportedFile[];
  /** Pages and files fetched or tried. */
  total: number;
}

/**
 * A markdown document as a page: its first `#` heading is the title, or else the URL's file name. Its
 * body is kept as written, so one match of its first line is all the reading done here, not in a pool.
 */
function convertMarkdown(markdown: string, url: string): ConvertedPage {
  const heading = /^\s*# +(.*)\n*/.exec(markdown);
  if (heading?.[1]) return { title: heading[1].trim(), markdown: markdown.slice(heading[0].length).trim() };
  const name = decodeURIComponent(new URL(url).pathname.split("/").at(-1) ?? "");
  return { title: name.replace(/\.(md|markdown)$/i, "") || "Imported", markdown: markdown.trim() };
}

interface FetchedPage {
  url: URL;
  html: string;
  /** The http(s) URLs it links to and the images it shows. */
  links: string[];
  images: string[];
}

const convertModule = siblingModule(import.meta.url, "convert");

/** Runs a function of convert.ts on a page in the content engine's pool (422 for a page too complex to read). */
function inPool<Result>(
  name: "readReferences" | "convertHtml",
  input: HtmlPage & {
    imageSources?: Readonly<Record<string, string>>;
    pageSources?: Readonly<Record<string, string>>;
  },
): Promise<Result> {
  return contentEngine().process<Result>(
    "content",
    convertModule,
    name,
    { value: input },
    { what: "imported page" },
  );
}

const withoutHash = (url: URL) => {
  const copy = new URL(url);
  copy.hash = "";
  return copy;
};

/** The directory of a URL's path: pages under it are the website's. */
const directoryOf = (url: URL) => url.pathname.slice(0, url.pathname.lastIndexOf("/") + 1);

/** What the site's robots.txt allows Quire to fetch: everything when it has none or cannot be read. */
async function robotsOf(
  fetcher: Fetcher,
  origin: string,
  signal: AbortSignal,
): Promise<(path: string) => boolean> {
  try {
    const { text } = await fetcher.text(`${origin}/robots.txt`, {
      timeoutMs: 5_000,
      maxBytes: 512 * 1024,
      signal,
    });
    return robotsRules(text);
  } catch {
    return () => true;
  }
}

/** Fetches one HTML page, or says why it could not. */
async function fetchHtml(
  fetcher: Fetcher,
  url: URL,
  signal: AbortSignal,
): Promise<FetchedPage | { failure: string }> {
  try {
    const fetched = await fetcher.bytes(url.href, { ...PAGE_LIMITS, signal });
    if (fetched.contentType !== "" && !HTML_TYPES.has(fetched.contentType))
      return { failure: `it answered ${fetched.contentType}, not HTML` };
    const page = { html: fetched.bytes.toString("utf8"), base: fetched.url };
    const references = await inPool<{ links: string[]; images: string[] }>("readReferences", page);
    return { url: new URL(fetched.url), html: page.html, ...references };
  } catch (err) {
    if (err instanceof FetchError) return { failure: err.message };
    if (signal.aborted) return { failure: `the import took longer than ${IMPORT_BUDGET_MS / 1000} s` };
    throw err;
  }
}

interface Fetched {
  pages: FetchedPage[];
  tried: number;
  /** Why the first page could not be read, if it could not. */
  failure?: string;
}

/**
 * The website from `start`: pages of the same origin under the start page's directory, found by
 * following links breadth first, as robots.txt allows, at most `MAX_PAGES` fetched.
 */
async function crawl(fetcher: Fetcher, start: URL, signal: AbortSignal): Promise<Fetched> {
  const allowed = await robotsOf(fetcher, start.origin, signal);
  if (!allowed(start.pathname + start.search))
    return { pages: [], tried: 0, failure: "the site's robots.txt does not allow it" };
  const directory = directoryOf(start);
  const queue = [withoutHash(start)];
  const seen = new Set(queue.map((url) => url.href));
  const result: Fetched = { pages: [], tried: 0 };
  while (queue.length > 0 && result.tried < MAX_PAGES && !signal.aborted) {
    const url = queue.shift() as URL;
    if (!allowed(url.pathname + url.search)) continue;
    result.tried += 1;
    const page = await fetchHtml(fetcher, url, signal);
    if ("failure" in page) {
      if (result.tried === 1) result.failure = page.failure;
      continue;
    }
    result.pages.push(page);
    for (const link of page.links) {
      const next = withoutHash(new URL(link));
      if (next.origin !== start.origin || !next.pathname.startsWith(directory) || seen.has(next.href))
        continue;
      seen.add(next.href);
      queue.push(next);
    }
  }
  return result;
}

/** A file name for an image URL: its last path segment, or `image`. */
function fileNameOf(url: URL): string {
  const name = decodeURIComponent(url.pathname.split("/").at(-1) ?? "").replace(/[/\\\p{Cc}]/gu, "");
  return name.slice(0, 255) || "image";
}

/**
 * Fetches the images of the pages (each URL once, at most `MAX_FILES`), keeping those whose bytes
 * are a file Quire accepts; each gets an id from `nextId`.
 */
async function fetchImages(
  fetcher: Fetcher,
  pages: readonly FetchedPage[],
  maxBytes: number,
  nextId: () => string,
  signal: AbortSignal,
): Promise<{ files: Map<string, ImportedFile>; tried: number }> {
  const urls = [...new Set(pages.flatMap((page) => page.images))];
  const files = new Map<string, ImportedFile>();
  let tried = 0;
  for (const url of urls.slice(0, MAX_FILES)) {
    if (signal.aborted) break;
    tried += 1;
    try {
      const fetched = await fetcher.bytes(url, { timeoutMs: 10_000, maxBytes, signal });
      const { contentType } = inspectFile(fetched.bytes, fetched.contentType || "application/octet-stream");
      if (!contentType.startsWith("image/")) continue;
      files.set(url, { id: nextId(), name: fileNameOf(new URL(url)), contentType, bytes: fetched.bytes });
    } catch {
      // A broken or refused image is counted, not imported: the page keeps its text.
    }
  }
  return { files, tried };
}

/**
 * Reads what an import brings, before anything is written: the pages (converted to markdown) and
 * their images. Nothing readable at `url` is a 400 naming why.
 */
export async function readImport(
  fetcher: Fetcher,
  source: Schema<"ImportSource">,
  url: URL,
  {
    maxFileBytes,
    nextId,
    budgetMs = IMPORT_BUDGET_MS,
  }: { maxFileBytes: number; nextId: () => string; budgetMs?: number },
): Promise<Imported> {
  const signal = AbortSignal.timeout(budgetMs);
  if (source === "markdown") {
    try {
      const fetched = await fetcher.text(url.href, { ...PAGE_LIMITS, signal });
      const page = { id: nextId(), url, ...convertMarkdown(fetched.text, fetched.url) };
      return { pages: [page], files: [], total: 1 };
    } catch (err) {
      if (err instanceof FetchError || signal.aborted)
        throw badRequest(
          `Nothing could be imported from ${url.href}: ${err instanceof Error ? err.message : err}`,
        );
      throw err;
    }
  }
  let fetched: Fetched;
  if (source === "website") fetched = await crawl(fetcher, url, signal);
  else {
    const page = await fetchHtml(fetcher, url, signal);
    fetched =
      "failure" in page ? { pages: [], tried: 1, failure: page.failure } : { pages: [page], tried: 1 };
  }
  if (fetched.pages.length === 0)
    throw badRequest(
      `Nothing could be imported from ${url.href}: ${(fetched.failure ?? "no page could be read.").replace(/\.?$/, ".")}`,
    );
  const images = await fetchImages(fetcher, fetched.pages, maxFileBytes, nextId, signal);
  const imageSources = Object.fromEntries(
    [...images.files].map(([src, file]) => [src, fileMarkdownUrl(file.id)] as const),
  );
  const pageIds = fetched.pages.map(() => nextId());
  const pageSources = Object.fromEntries(
    fetched.pages.map((page, i) => [withoutHash(page.url).href, `/pages/${pageIds[i]}`] as const),
  );
  const pages: ImportedPage[] = [];
  for (const [i, page] of fetched.pages.entries()) {
    const converted = await inPool<ConvertedPage>("convertHtml", {
      html: page.html,
      base: page.url.href,
      imageSources,
      pageSources,
    });
    pages.push({ id: pageIds[i] as string, url: page.url, ...converted });
  }
  return {
    pages,
    files: [...images.files.values()],
    total: fetched.tried + images.tried,
  };
}

/** The key of a page's URL for nesting: its path without a trailing `/`, `index.html` or `.html`. */
function nestingKey(url: URL): string {
  return url.pathname
    .replace(/\/index\.html?$/i, "")
    .replace(/\.html?$/i, "")
    .replace(/\/+$/, "");
}

/**
 * Where each page goes: under the imported page whose URL path is the nearest directory above its
 * own (`parent`, an index in `pages`), or at the top level. Parents come first, in the crawl's order
 * otherwise.
 */
export function nestPages(pages: readonly { url: URL }[]): { index: number; parent: number | null }[] {
  const keys = pages.map((page) => nestingKey(page.url));
  const firstWithKey = new Map<string, number>();
  keys.forEach((key, i) => {
    if (!firstWithKey.has(key)) firstWithKey.set(key, i);
  });
  const parents = keys.map((key) => {
    for (let cut = key.lastIndexOf("/"); cut > 0; cut = key.lastIndexOf("/", cut - 1)) {
      const found = firstWithKey.get(key.slice(0, cut));
      if (found !== undefined) return found;
    }
    // The site's root page ("" once `/` is cut) is the parent of every other one.
    const root = firstWithKey.get("");
    return key !== "" && root !== undefined ? root : null;
  });
  const depthOf = (i: number): number => {
    const parent = parents[i] ?? null;
    return parent === null ? 0 : 1 + depthOf(parent);
  };
  return parents
    .map((parent, index) => ({ index, parent, depth: depthOf(index) }))
    .sort((a, b) => a.depth - b.depth || a.index - b.index)
    .map(({ index, parent }) => ({ index, parent }));
}
