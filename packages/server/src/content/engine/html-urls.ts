import type { Element, ElementContent, Root as HtmlRoot } from "hast";
import { fromHtml } from "hast-util-from-html";
import { normalizeUri } from "micromark-util-sanitize-uri";
import { SKIP, visit } from "unist-util-visit";

/**
 * The URLs a body's HTML holds (`<img src>`, `<a href>`, `<picture><source srcset>`), as GitBook's Git
 * Sync writes its images (`<figure><img src="../.gitbook/assets/x.png">`): read for the analysis, and
 * pointed where the reader goes when the body is rendered, as Markdown's links and images are.
 */

/**
 * The attribute naming a URL, by element: those the sanitizer keeps (GitHub's rules), so that every URL
 * a reader's page holds is one the analysis listed.
 */
const URL_PROPERTY: Readonly<Record<string, "href" | "src" | "srcSet">> = {
  a: "href",
  img: "src",
  source: "srcSet",
};

/** A `srcset`'s candidates: each a URL and its descriptor (`2x`, `480w`), or "" without one. */
function candidates(srcset: string): { url: string; descriptor: string }[] {
  return srcset.split(",").flatMap((candidate) => {
    const [url = "", ...descriptor] = candidate.trim().split(/\s+/);
    return url ? [{ url, descriptor: descriptor.join(" ") }] : [];
  });
}

/** The URLs `element` names, in the order written; none for an element that names none. */
function urlsOf(element: Element): string[] {
  const property = URL_PROPERTY[element.tagName];
  const value = property && element.properties[property];
  if (typeof value !== "string") return [];
  const urls = property === "srcSet" ? candidates(value).map(({ url }) => url) : [value.trim()];
  return urls.filter((url) => url !== "");
}

/** The URLs written in a piece of a body's raw HTML (one `html` node of its tree), in order. */
export function htmlUrls(html: string): string[] {
  const urls: string[] = [];
  visit(fromHtml(html, { fragment: true }), "element", (element) => {
    urls.push(...urlsOf(element));
  });
  return urls;
}

/**
 * Where a URL as written goes: looked up as written (raw HTML keeps it so) or as Markdown's conversion
 * to HTML encodes it (`normalizeUri`: spaces and non-ASCII percent-encoded).
 */
function lookup(rewrite: Readonly<Record<string, string>>): (url: string) => string | undefined {
  const encoded = new Map<string, string>();
  for (const [url, to] of Object.entries(rewrite)) encoded.set(normalizeUri(url), to);
  return (url) => rewrite[url.trim()] ?? encoded.get(url.trim());
}

/** What stands for an element whose URL leads nowhere: a link's content, an image's alt text. */
function withoutUrl(element: Element): ElementContent[] {
  if (element.tagName === "a") return element.children;
  const alt = element.properties.alt;
  return element.tagName === "img" && typeof alt === "string" && alt ? [{ type: "text", value: alt }] : [];
}

/**
 * Points every link, image and source of a rendered body (sanitized HTML, from Markdown and raw HTML
 * alike) where `rewrite` says, keyed by the URLs as the analysis lists them: an empty string takes the
 * element away, its text kept (see `withoutUrl`). URLs not listed stay as written.
 */
export function rewriteHtmlUrls(tree: HtmlRoot, rewrite: Readonly<Record<string, string>>): void {
  if (Object.keys(rewrite).length === 0) return;
  const target = lookup(rewrite);
  visit(tree, "element", (element, index, parent) => {
    const property = URL_PROPERTY[element.tagName];
    const value = property && element.properties[property];
    if (!property || typeof value !== "string") return;
    if (property === "srcSet") {
      const kept = candidates(value).flatMap(({ url, descriptor }) => {
        const to = target(url) ?? url;
        return to ? [descriptor ? `${to} ${descriptor}` : to] : [];
      });
      element.properties[property] = kept.join(", ");
      if (kept.length > 0 || !parent || index === undefined) return;
    } else {
      const to = target(value);
      if (to === undefined) return;
      if (to !== "" || !parent || index === undefined) {
        element.properties[property] = to;
        return;
      }
    }
    parent.children.splice(index, 1, ...withoutUrl(element));
    // The content put in its place is visited next (a link's images).
    return [SKIP, index];
  });
}
