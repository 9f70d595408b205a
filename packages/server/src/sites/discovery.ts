/**
 * What a published site tells crawlers and language models about itself, at its root:
 * `robots.txt`, `sitemap.xml`, `llms.txt` and `llms-full.txt` (the llmstxt.org formats), and each
 * page's Markdown at its URL with `.md` appended. These builders are pure: the server
 * (`serve.ts`) loads the pages the visitor may see and gives them here with their URLs.
 */

/** The files a site serves at its root, besides its pages. */
export const DISCOVERY_FILES = ["robots.txt", "sitemap.xml", "llms.txt", "llms-full.txt"] as const;
export type DiscoveryFile = (typeof DISCOVERY_FILES)[number];

export const isDiscoveryFile = (name: string): name is DiscoveryFile =>
  (DISCOVERY_FILES as readonly string[]).includes(name);

/** What a page's URL takes at its end to be served as Markdown. Slugs have no dots, so no page ends so. */
export const MARKDOWN_SUFFIX = ".md";

/** The most `llms-full.txt` holds of pages' Markdown, in bytes (UTF-8); past it, it says it was cut. */
export const LLMS_FULL_MAX_BYTES = 4 * 1024 * 1024;

/** A page of a site as listed: its title, URLs, description, and (for `llms-full.txt`) its body. */
export interface ListedPage {
  title: string;
  /** Its absolute URL on the site. */
  url: string;
  /** Its absolute URL as Markdown (see `markdownUrl`). */
  markdownUrl: string;
  description?: string;
  /** The page asks search engines not to index it: no sitemap lists it. */
  noRobotsIndex?: true;
  markdown?: string;
}

/** The pages of one site space, in order, under a heading naming its section and space. */
export interface ListedGroup {
  heading: string;
  pages: ListedPage[];
}

/** The Markdown URL of a page's URL: its path without the closing `/`, then `.md`; the query is kept. */
export function markdownUrl(pageUrl: string): string {
  const url = new URL(pageUrl);
  url.pathname = `${url.pathname.replace(/\/$/, "")}${MARKDOWN_SUFFIX}`;
  return url.toString();
}

/** `robots.txt`: crawlers are welcome on an indexable (public) site and pointed to its sitemap, else kept out. */
export function robotsText(indexable: boolean, sitemapUrl: string): string {
  return indexable ? `User-agent: *\nAllow: /\nSitemap: ${sitemapUrl}\n` : "User-agent: *\nDisallow: /\n";
}

const XML_ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
};

export const escapeXml = (text: string) => text.replace(/[&<>"']/g, (c) => XML_ENTITIES[c] ?? c);

/** `sitemap.xml` (sitemaps.org) of these URLs, in their order. */
export function sitemapXml(urls: readonly string[]): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls.map((url) => `<url><loc>${escapeXml(url)}</loc></url>`),
    "</urlset>",
    "",
  ].join("\n");
}

/** Text on one line, as a Markdown list item or heading needs it. */
const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();

/** Text inside a Markdown link's brackets: backslashes and brackets escaped. */
const linkText = (text: string) => oneLine(text).replace(/[\\[\]]/g, "\\$&");

/** A URL inside a Markdown link's parentheses: those it would close on, and spaces, percent-encoded. */
const linkDestination = (url: string) =>
  url.replace(/[()\s]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`);

/**
 * `llms.txt`: the site's title, then each group's heading and its pages, each a link to its
 * Markdown with its description when it has one.
 */
export function llmsText(siteTitle: string, groups: readonly ListedGroup[]): string {
  const lines = [`# ${oneLine(siteTitle)}`];
  for (const group of groups) {
    if (group.pages.length === 0) continue;
    lines.push("", `## ${oneLine(group.heading)}`, "");
    for (const page of group.pages) {
      const description = page.description && oneLine(page.description);
      const item = `- [${linkText(page.title)}](${linkDestination(page.markdownUrl)})`;
      lines.push(description ? `${item}: ${description}` : item);
    }
  }
  return `${lines.join("\n")}\n`;
}

/**
 * `llms-full.txt`: every page's Markdown in order, each under its title and URL, up to `maxBytes`
 * of UTF-8; the pages past it are left out, and the file ends saying so.
 */
export function llmsFullText(
  siteTitle: string,
  groups: readonly ListedGroup[],
  maxBytes = LLMS_FULL_MAX_BYTES,
): string {
  const parts = [`# ${oneLine(siteTitle)}\n`];
  let size = Buffer.byteLength(parts[0] as string);
  for (const page of groups.flatMap((group) => group.pages)) {
    const part = `\n# ${oneLine(page.title)}\n\nSource: ${page.markdownUrl}\n\n${(page.markdown ?? "").trimEnd()}\n`;
    size += Buffer.byteLength(part);
    if (size > maxBytes) {
      parts.push(
        `\n---\n\nThis file was cut at ${maxBytes} bytes: the pages after it are left out. Each page's Markdown is listed in llms.txt.\n`,
      );
      break;
    }
    parts.push(part);
  }
  return parts.join("");
}
