import GithubSlugger from "github-slugger";
import type { Root as HtmlRoot } from "hast";
import { toHtml } from "hast-util-to-html";
import { toText } from "hast-util-to-text";
import type { Heading, Nodes, Root, RootContent } from "mdast";
import { toString as textOf } from "mdast-util-to-string";
import rehypeRaw from "rehype-raw";
import rehypeSanitize, { defaultSchema, type Options as SanitizeSchema } from "rehype-sanitize";
import remarkRehype from "remark-rehype";
import { unified } from "unified";
import { visit } from "unist-util-visit";
import { BLOCK_CLASSES, type FrontMatter, gitBookReader } from "./gitbook.js";
import { htmlUrls, rewriteHtmlUrls } from "./html-urls.js";
import { interactiveBlocks } from "./interactive-blocks.js";

/**
 * What the content engine reads from a page body, in a worker thread of its pool: these functions
 * parse, so the event loop never calls them (see `ContentEngine`).
 */

/**
 * Markdown as GitBook writes it: CommonMark, GFM, front matter, and GitBook's blocks and alerts. Its
 * tree is what both the analysis and the HTML are made from.
 */
const parserFor = gitBookReader();

function parse(markdown: string): Root {
  const parser = parserFor(markdown);
  // The text, for what reading it again needs (see `remarkGitBook`).
  return parser.runSync(parser.parse(markdown), markdown);
}

/** A part of a page under one heading (the first one: before any heading). */
export interface Section {
  /** The heading's anchor; "" for the part before the first heading. */
  anchor: string;
  heading: string;
  /** The heading's level, 1 to 6; 0 for the part before the first heading. */
  depth: number;
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
  /**
   * Every place a `#fragment` can land on the rendered page: the headings' anchors, and the ids and
   * names written in its HTML (`<a id="…">`).
   */
  anchors: string[];
  /** What GitBook reads from the front matter, when the body opens with one. */
  frontMatter?: FrontMatter;
}

const EXPLICIT_ANCHOR = /\b(?:id|name)\s*=\s*(?:"([^"]+)"|'([^']+)')/gi;

function explicitAnchors(tree: Root): string[] {
  const anchors: string[] = [];
  visit(tree, "html", (node) => {
    for (const match of node.value.matchAll(EXPLICIT_ANCHOR)) anchors.push((match[1] ?? match[2]) as string);
  });
  return anchors;
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
    if (node.type === "html") urls.push(...htmlUrls(node.value));
    if ("children" in node) for (const child of node.children) walk(child);
  };
  walk(tree);
  return urls;
}

/** The blocks of a body in order, GitBook's blocks opened: their headings are the page's too, as rendered. */
function flowOf(nodes: readonly RootContent[]): RootContent[] {
  return nodes.flatMap((node) => (node.type === "gitbookBlock" ? flowOf(node.children) : [node]));
}

/**
 * The anchor of each heading of a body, in order (GitBook's blocks opened): one slugger per page, so
 * that a repeated heading gets `-1`, `-2`…. What search sections, the site's heading ids and the PDF's
 * destinations are named by.
 */
export function headingAnchors(tree: Root): Map<Heading, string> {
  const slugger = new GithubSlugger();
  const anchors = new Map<Heading, string>();
  for (const node of flowOf(tree.children))
    if (node.type === "heading") anchors.set(node, slugger.slug(textOf(node).trim()));
  return anchors;
}

function sectionsOf(tree: Root): Section[] {
  const anchors = headingAnchors(tree);
  const sections: Section[] = [];
  let current: Section = { anchor: "", heading: "", depth: 0, text: "" };
  let blocks: string[] = [];
  const close = () => {
    current.text = blocks.join("\n");
    sections.push(current);
  };
  for (const node of flowOf(tree.children)) {
    if (node.type === "yaml") continue;
    if (node.type === "heading") {
      close();
      current = {
        anchor: anchors.get(node) ?? "",
        heading: textOf(node).trim(),
        depth: node.depth,
        text: "",
      };
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
  const tree = parse(markdown);
  const leadingTitle = leadingTitleOf(markdown, tree);
  const sections = sectionsOf(tree);
  const anchors = [...sections.flatMap(({ anchor }) => (anchor ? [anchor] : [])), ...explicitAnchors(tree)];
  const frontMatter = tree.data?.frontMatter;
  return {
    ...(leadingTitle && { leadingTitle }),
    links: linksOf(tree),
    sections,
    anchors,
    ...(frontMatter && { frontMatter }),
  };
}

/** GitHub's attributes, with the classes GitBook's blocks carry (and their role, `note`) allowed too. */
function attributesWithBlockClasses(): SanitizeSchema["attributes"] {
  const attributes = { ...defaultSchema.attributes };
  for (const [tagName, classes] of Object.entries(BLOCK_CLASSES)) {
    const own = attributes[tagName] ?? [];
    const allowed = own.find((definition) => Array.isArray(definition) && definition[0] === "className");
    const others = own.filter((definition) => definition !== allowed);
    attributes[tagName] = [
      ...others,
      ["className", ...(Array.isArray(allowed) ? allowed.slice(1) : []), ...classes],
      ...(tagName === "div" ? [["role", "note"] as [string, string]] : []),
    ];
  }
  return attributes;
}

/**
 * Page bodies are written by a space's editors and read by anonymous visitors. HTML written in them
 * is parsed as HTML, then everything is sanitized (GitHub's rules: no scripts, no event handlers, no
 * `javascript:` URLs); elements it refuses are unwrapped, their text kept, except those listed in
 * `strip`, dropped whole: their content is code or markup source, which unwrapping would print.
 */
const toSafeHtml = unified()
  .use(remarkRehype, { allowDangerousHtml: true })
  .use(rehypeRaw)
  .use(rehypeSanitize, {
    ...defaultSchema,
    attributes: attributesWithBlockClasses(),
    // GitBook writes its images as figures, their captions in `<figcaption>`.
    tagNames: [...(defaultSchema.tagNames ?? []), "figure", "figcaption"],
    clobberPrefix: "",
    strip: [
      ...(defaultSchema.strip ?? []),
      ...["style", "title", "textarea", "iframe", "noembed", "noframes", "noscript", "template", "xmp"],
    ],
  });

const HEADING = /^h[1-6]$/;

/** A body to render, and where its links and images go for the reader. */
export interface RenderInput {
  markdown: string;
  /**
   * URLs as written in the body (as `Analysis.links` lists them) → the URL the reader's link or image
   * gets; an empty string takes the link away (its text stays) or the image (its alt text stays).
   * URLs not listed stay as written.
   */
  rewrite?: Readonly<Record<string, string>>;
}

/**
 * The body as the HTML a reader is shown: links and images pointed where `rewrite` says, sanitized
 * (ids kept as written, no prefix: the pages run no script a clobbered id could mislead), and each
 * heading with the id its section's anchor has, so that `#anchor` links and search results land.
 */
export function renderHtml(
  { markdown, rewrite = {} }: RenderInput,
  highlight?: (tree: HtmlRoot) => void,
): string {
  const tree = toSafeHtml.runSync(parse(markdown)) as HtmlRoot;
  // Links and images of Markdown, of GitBook's blocks and of raw HTML alike, once the HTML is safe.
  rewriteHtmlUrls(tree, rewrite);
  const slugger = new GithubSlugger();
  visit(tree, "element", (element) => {
    if (HEADING.test(element.tagName)) {
      const id = slugger.slug(toText(element).trim());
      element.properties.id = id;
      // A link to the section, for readers to copy: below the page's title, which has its own.
      if (element.tagName !== "h1")
        element.children.push({
          type: "element",
          tagName: "a",
          properties: { href: `#${id}`, className: ["permalink"], ariaLabel: "Link to this section" },
          children: [{ type: "text", value: "#" }],
        });
    }
    // Wide code and tables scroll sideways inside themselves: a keyboard reaches them too.
    if (element.tagName === "pre" || element.tagName === "table") element.properties.tabIndex = 0;
  });
  interactiveBlocks(tree);
  // After the sanitizer: the classes of the tokens are ours, made from the code's text.
  highlight?.(tree);
  return toHtml(tree);
}

/** Where a URL is written whole: after `(`, `<`, a quote, `=` or a space, and before `)`, `>`, a quote or a space. */
const urlWrittenAt = (url: string) =>
  `(?<=[(<"'=\\s])${url.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?=[)>"'\\s]|$)`;

/**
 * The body with its URLs where `rewrite` says (keys as `Analysis.links` lists them), for readers of
 * the Markdown itself: each replaced where it is written whole (a Markdown destination or definition,
 * an HTML attribute, a GitBook block's attribute), never in code or front matter; the rest stays as
 * written, byte for byte. An empty target leaves the URL as written: Markdown has no link to take away.
 */
export function markdownWithUrls({ markdown, rewrite = {} }: RenderInput): string {
  const targets = Object.entries(rewrite).filter(([url, to]) => url !== "" && to !== "");
  if (targets.length === 0) return markdown;
  const kept: [number, number][] = [];
  visit(parse(markdown), (node) => {
    const { start, end } = node.position ?? {};
    if ((node.type === "code" || node.type === "inlineCode" || node.type === "yaml") && start && end)
      kept.push([start.offset ?? 0, end.offset ?? 0]);
  });
  const to = new Map(targets);
  // The longest first, so that `a.md#part` is not taken for `a.md`.
  const urls = [...to.keys()].sort((a, b) => b.length - a.length);
  const written = new RegExp(urls.map(urlWrittenAt).join("|"), "g");
  return markdown.replace(written, (url, at: number) =>
    kept.some(([start, end]) => at >= start && at < end) ? url : (to.get(url) ?? url),
  );
}

/** A fence naming a language: only a body with one needs the highlighter loaded. */
const FENCE_WITH_LANGUAGE = /^ {0,3}(?:`{3,}|~{3,})[ \t]*[^\s`]/m;

/**
 * `renderHtml` as the engine calls it: code blocks highlighted, the highlighter (its grammars take
 * a thread a few hundred milliseconds to load) loaded only for a body whose code names a language.
 */
export async function renderHighlightedHtml(input: RenderInput): Promise<string> {
  const highlight = FENCE_WITH_LANGUAGE.test(input.markdown)
    ? (await import("./highlight.js")).highlightCode
    : undefined;
  return renderHtml(input, highlight);
}
