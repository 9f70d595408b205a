import GithubSlugger from "github-slugger";
import type { Root as HtmlRoot } from "hast";
import { toHtml } from "hast-util-to-html";
import { toText } from "hast-util-to-text";
import type { Nodes, Root } from "mdast";
import { toString as textOf } from "mdast-util-to-string";
import rehypeRaw from "rehype-raw";
import rehypeSanitize, { defaultSchema } from "rehype-sanitize";
import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import remarkRehype from "remark-rehype";
import { unified } from "unified";
import { visit } from "unist-util-visit";

/**
 * What the content engine reads from a page body, in a worker thread of its pool: these functions
 * parse, so the event loop never calls them (see `ContentEngine`).
 */

const parser = unified().use(remarkParse).use(remarkGfm);

/** A part of a page under one heading (the first one: before any heading). */
export interface Section {
  /** The heading's anchor; "" for the part before the first heading. */
  anchor: string;
  heading: string;
  /** Plain text, blocks separated by line breaks. */
  text: string;
}

/** Everything the server needs of a body but its HTML, from one parse. */
export interface Analysis {
  /**
   * A level-1 heading opening the body, as GitBook reads a page's title from it: its text, and where
   * the body after it starts (the line breaks that followed it skipped).
   */
  leadingTitle?: { title: string; bodyStart: number };
  /** The URLs it links to or embeds, in document order: links, images, and reference definitions. */
  links: string[];
  /** The body split at its headings, whatever their level, anchors as the rendered headings have them. */
  sections: Section[];
}

function leadingTitleOf(markdown: string, tree: Root): Analysis["leadingTitle"] {
  const first = tree.children[0];
  if (first?.type !== "heading" || first.depth !== 1) return undefined;
  const title = textOf(first).trim();
  let bodyStart = first.position?.end.offset;
  if (!title || bodyStart === undefined) return undefined;
  while (markdown[bodyStart] === "\n" || markdown[bodyStart] === "\r") bodyStart++;
  return { title, bodyStart };
}

// Parsed, never matched by a regular expression, so code spans and code blocks hold no links.
function linksOf(tree: Root): string[] {
  const urls: string[] = [];
  const walk = (node: Nodes) => {
    if (
      (node.type === "link" || node.type === "image" || node.type === "definition") &&
      node.url.trim() !== ""
    )
      urls.push(node.url.trim());
    if ("children" in node) for (const child of node.children) walk(child);
  };
  walk(tree);
  return urls;
}

// One slugger per page, as the page's rendered headings get theirs, so that a repeated heading gets `-1`, `-2`….
function sectionsOf(tree: Root): Section[] {
  const slugger = new GithubSlugger();
  const sections: Section[] = [];
  let current: Section = { anchor: "", heading: "", text: "" };
  let blocks: string[] = [];
  const close = () => {
    current.text = blocks.join("\n");
    sections.push(current);
  };
  for (const node of tree.children) {
    if (node.type === "heading") {
      close();
      const heading = textOf(node).trim();
      current = { anchor: slugger.slug(heading), heading, text: "" };
      blocks = [];
    } else {
      const text = textOf(node, { includeHtml: false }).trim();
      if (text) blocks.push(text);
    }
  }
  close();
  return sections;
}

export function analyze(markdown: string): Analysis {
  const tree = parser.parse(markdown);
  const leadingTitle = leadingTitleOf(markdown, tree);
  return { ...(leadingTitle && { leadingTitle }), links: linksOf(tree), sections: sectionsOf(tree) };
}

/**
 * Page bodies are written by a space's editors and read by anonymous visitors. HTML written in them
 * is parsed as HTML, then everything is sanitized (GitHub's rules: no scripts, no event handlers, no
 * `javascript:` URLs); elements it refuses are unwrapped, their text kept, except those listed in
 * `strip`, dropped whole: their content is code or markup source, which unwrapping would print.
 */
const toSafeHtml = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(remarkRehype, { allowDangerousHtml: true })
  .use(rehypeRaw)
  .use(rehypeSanitize, {
    ...defaultSchema,
    strip: [
      ...(defaultSchema.strip ?? []),
      ...["style", "title", "textarea", "iframe", "noembed", "noframes", "noscript", "template", "xmp"],
    ],
  });

const HEADING = /^h[1-6]$/;

/**
 * The body as the HTML a reader is shown: sanitized, each heading with the id its section's anchor
 * has (given after sanitizing, which would prefix it), so that `#anchor` links and search results land.
 */
export function renderHtml(markdown: string): string {
  const tree = toSafeHtml.runSync(toSafeHtml.parse(markdown)) as HtmlRoot;
  const slugger = new GithubSlugger();
  visit(tree, "element", (element) => {
    if (HEADING.test(element.tagName)) element.properties.id = slugger.slug(toText(element).trim());
  });
  return toHtml(tree);
}
