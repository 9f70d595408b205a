import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import rehypeParse from "rehype-parse";
import rehypeRemark from "rehype-remark";
import remarkGfm from "remark-gfm";
import remarkStringify from "remark-stringify";
import { unified } from "unified";

/** Markdown from HTML, in the style the rest of Quire writes (GFM tables, `-` bullets, fenced code). */
const toMarkdown = unified()
  .use(rehypeParse, { fragment: true })
  .use(rehypeRemark)
  .use(remarkGfm)
  .use(remarkStringify, { bullet: "-", fences: true, emphasis: "_", rule: "-" });

/** A web page as a page of Quire. */
export interface ConvertedPage {
  title: string;
  markdown: string;
}

/**
 * What an import reads of a fetched page, in a worker thread of the content engine's pool (parsing
 * HTML costs as much as the page is large and nested): its links and images, then its conversion.
 */

type HtmlDocument = ReturnType<typeof parseHTML>["document"];

/** A fetched HTML page and the URL it came from, which its relative URLs resolve against. */
export interface HtmlPage {
  html: string;
  base: string;
}

/** `value` as an absolute http(s) URL, relative to `base`; undefined for anything else. */
function resolveUrl(value: string | null, base: string): URL | undefined {
  if (!value) return undefined;
  try {
    const url = new URL(value, base);
    return url.protocol === "http:" || url.protocol === "https:" ? url : undefined;
  } catch {
    return undefined;
  }
}

/** The absolute http(s) URLs of the document's `selector` elements' `attribute`, relative to `base`. */
function urlsIn(document: HtmlDocument, selector: string, attribute: string, base: string): string[] {
  return Array.from(document.querySelectorAll(selector)).flatMap((element) => {
    const url = resolveUrl(element.getAttribute(attribute), base);
    return url ? [url.href] : [];
  });
}

/** The absolute http(s) URLs a page links to and the images it shows, in document order. */
export function readReferences({ html, base }: HtmlPage): { links: string[]; images: string[] } {
  const { document } = parseHTML(html);
  return { links: urlsIn(document, "a[href]", "href", base), images: urlsIn(document, "img", "src", base) };
}

/** What frames a page rather than being its content. */
const CHROME = "nav, header, footer, aside, script, style, noscript, template, form";

const textOf = (document: HtmlDocument, selector: string) =>
  document.querySelector(selector)?.textContent?.replace(/\s+/g, " ").trim() ?? "";

/**
 * The page of an HTML document: the title from its first `<h1>` or else its `<title>`, the body
 * without navigation, headers, footers and scripts, through Readability (which drops what else is
 * not the article), converted to markdown without the title heading it starts with.
 * `imageSources` gives each image's new `src` (a file of the change request) by its URL; an image
 * without one is dropped. `pageSources` gives the page of the import each imported URL became (its
 * `/pages/<id>`): a link to one of them goes to that page, its `#fragment` kept.
 */
export function convertHtml({
  html,
  base,
  imageSources,
  pageSources,
}: HtmlPage & {
  imageSources: Readonly<Record<string, string>>;
  pageSources: Readonly<Record<string, string>>;
}): ConvertedPage {
  const { document } = parseHTML(html);
  const title = textOf(document, "h1") || textOf(document, "title") || new URL(base).pathname;
  for (const image of Array.from(document.querySelectorAll("img"))) {
    const url = resolveUrl(image.getAttribute("src"), base);
    const source = url && imageSources[url.href];
    if (source) image.setAttribute("src", source);
    else image.remove();
  }
  // Links to other imported pages go to them; the rest stay absolute (a relative one would point into Quire).
  for (const link of Array.from(document.querySelectorAll("a[href]"))) {
    const url = resolveUrl(link.getAttribute("href"), base);
    if (!url) continue;
    const page = pageSources[`${url.origin}${url.pathname}${url.search}`];
    link.setAttribute("href", page ? `${page}${url.hash}` : url.href);
  }
  // Site chrome goes first: Readability keeps it on a page too short for it to find an article.
  for (const chrome of Array.from(document.querySelectorAll(CHROME))) chrome.remove();
  const article = new Readability(document as unknown as Document, { keepClasses: true }).parse();
  const content = article?.content ?? document.body?.innerHTML ?? "";
  let markdown = String(toMarkdown.processSync(content)).trim();
  // The title is the page's own: a copy of it as the first heading would show twice.
  const heading = /^#{1,6} +(.*)\n*/.exec(markdown);
  if (heading && heading[1]?.trim() === title) markdown = markdown.slice(heading[0].length);
  return { title, markdown: markdown.trim() };
}
