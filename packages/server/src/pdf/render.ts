import type { Heading, PhrasingContent, Root, RootContent } from "mdast";
import pdfmake from "pdfmake";
import type { Content, ContentImage, TDocumentDefinitions } from "pdfmake/interfaces.js";
import rehypeRaw from "rehype-raw";
import rehypeRemark from "rehype-remark";
import remarkRehype from "remark-rehype";
import { visit } from "unist-util-visit";
import { gitBookReader } from "../content/engine/gitbook.js";
import { headingAnchors } from "../content/engine/markdown.js";
import { fontRuns, fonts, isFontFile } from "./fonts.js";

/** What a PDF shows: its title, its pages in reading order, and the images they embed. */
export interface PdfContent {
  title: string;
  pages: readonly PdfPage[];
  /** Images by file id, as data URLs of PNG or JPEG bytes: what `{ image }` links name. */
  images: Readonly<Record<string, string>>;
}

/** One page of the export, in reading order. */
export interface PdfPage {
  title: string;
  /** 0 for a page at the top of the export, 1 for its children… */
  depth: number;
  markdown: string;
  /** Where each URL written in the body leads; a URL not here stays text (an image, its alt text). */
  links: Readonly<Record<string, PdfLink>>;
}

/**
 * A place in the PDF: a page of the export by index, at its heading with `anchor` when it has one; or
 * a web address, with the file id of its image when `PdfContent.images` may have it.
 */
export type PdfLink = { page: number; anchor?: string } | { url: string; image?: string };

/**
 * A body is read as the site reads it (GitBook's blocks and alerts, front matter, raw HTML), then
 * turned back into Markdown's nodes: the blocks' contents, the HTML's text and structure stay, their
 * tags and what the site never shows (scripts, styles) go.
 */
const toMarkdownTreeFor = gitBookReader({}, [
  [remarkRehype, { allowDangerousHtml: true }],
  rehypeRaw,
  rehypeRemark,
]);

pdfmake.setFonts(fonts);
// A page's markdown may name images or fonts anywhere: nothing is fetched, no other file is read.
pdfmake.setUrlAccessPolicy(() => false);
pdfmake.setLocalAccessPolicy(isFontFile);

/** A4 less pdfmake's default margins of 40 pt. */
const PAGE_WIDTH = 515;
const PAGE_HEIGHT = 720;

const STYLES: TDocumentDefinitions["styles"] = {
  title: { fontSize: 20, bold: true, margin: [0, 0, 0, 10] },
  h1: { fontSize: 16, bold: true, margin: [0, 10, 0, 6] },
  h2: { fontSize: 14, bold: true, margin: [0, 8, 0, 4] },
  h3: { fontSize: 12, bold: true, margin: [0, 6, 0, 4] },
  code: { font: "Courier", fontSize: 8.5 },
  quote: { italics: true, color: "#555555" },
  link: { color: "#1a5fb4", decoration: "underline" },
};

type Inline = Content & object;
type Style = Record<string, unknown>;

/** A page as laid out: its body, and its links' targets by the number its URLs were replaced with. */
interface PageLayout {
  tree: Root;
  targets: readonly PdfLink[];
  /** Ids of its top-level headings, by anchor, as the engine's analysis names them. */
  anchors: Map<string, string>;
  headingIds: Map<Heading, string>;
}

/** What every page's blocks are laid out with. */
interface Layout {
  images: Readonly<Record<string, string>>;
  /** The PDF destination of a link to a page of the export. */
  destination: (link: { page: number; anchor?: string }) => string | undefined;
}

const TARGET = /^pdf:(\d+)$/;

/**
 * The body parsed, each URL written in it replaced with `pdf:<n>` (n, its target's number) or with
 * nothing when it leads nowhere: Markdown's before the HTML conversion, which would encode them (the
 * targets' keys are URLs as written), and those of its raw HTML after, once it has made them nodes.
 */
function pageLayout(page: PdfPage, index: number): PageLayout {
  const toMarkdownTree = toMarkdownTreeFor(page.markdown);
  const source = toMarkdownTree.parse(page.markdown);
  const targets: PdfLink[] = [];
  const numberTargets = (tree: Root) =>
    visit(tree, (node) => {
      if (node.type !== "link" && node.type !== "image" && node.type !== "definition") return;
      if (TARGET.test(node.url)) return;
      const to = page.links[node.url.trim()];
      node.url = to ? `pdf:${targets.push(to) - 1}` : "";
    });
  numberTargets(source);
  const tree = toMarkdownTree.runSync(source) as Root;
  numberTargets(tree);
  // The engine's names for its headings, as its analysis gives them to sections and the site to ids.
  const anchors = new Map<string, string>();
  const headingIds = new Map<Heading, string>();
  for (const [node, anchor] of headingAnchors(tree)) {
    const id = `page-${index}-${anchor}`;
    anchors.set(anchor, id);
    headingIds.set(node, id);
  }
  return { tree, targets, anchors, headingIds };
}

const targetOf = (page: PageLayout, url: string): PdfLink | undefined => {
  const n = TARGET.exec(url)?.[1];
  return n === undefined ? undefined : page.targets[Number(n)];
};

/** Text in the fonts that cover it: Roboto or Courier, and the fallbacks for the rest. */
function textRuns(text: string, style: Style): Inline[] {
  const base = style.style === "code" ? "Courier" : "Roboto";
  return fontRuns(text, base).map((run) => ({
    text: run.text,
    ...style,
    ...(run.font && { font: run.font }),
  }));
}

function inlines(
  nodes: readonly PhrasingContent[],
  page: PageLayout,
  layout: Layout,
  style: Style = {},
): Inline[] {
  return nodes.flatMap((node): Inline[] => {
    switch (node.type) {
      case "text":
        return textRuns(node.value, style);
      case "emphasis":
        return inlines(node.children, page, layout, { ...style, italics: true });
      case "strong":
        return inlines(node.children, page, layout, { ...style, bold: true });
      case "delete":
        return inlines(node.children, page, layout, { ...style, decoration: "lineThrough" });
      case "inlineCode":
        return textRuns(node.value, { ...style, style: "code", background: "#f3f3f3" });
      case "break":
        return [{ text: "\n" }];
      case "link": {
        const target = targetOf(page, node.url);
        const destination = target && "page" in target ? layout.destination(target) : undefined;
        const to = destination
          ? { linkToDestination: destination }
          : target && "url" in target && { link: target.url };
        return inlines(node.children, page, layout, to ? { ...style, style: "link", ...to } : style);
      }
      // Images in text, or not in the export: their alt text.
      case "image":
        return node.alt ? textRuns(node.alt, { ...style, italics: true }) : [];
      default:
        return "children" in node ? inlines(node.children as PhrasingContent[], page, layout, style) : [];
    }
  });
}

/** A paragraph: its text, cut where an image of the export stands on its own. */
function paragraph(
  nodes: readonly PhrasingContent[],
  page: PageLayout,
  layout: Layout,
  width: number,
): Content[] {
  const parts: Content[] = [];
  let text: PhrasingContent[] = [];
  const flush = () => {
    const runs = inlines(text, page, layout);
    if (runs.length > 0) parts.push({ text: runs, margin: [0, 0, 0, 6] });
    text = [];
  };
  for (const node of nodes) {
    const target = node.type === "image" ? targetOf(page, node.url) : undefined;
    const image = target && "url" in target ? target.image : undefined;
    if (image === undefined || layout.images[image] === undefined) text.push(node);
    else {
      flush();
      // Never enlarged, shrunk to fit the sheet (pdfmake 0.3 reads `maxWidth`; the types, of 0.2, lack it).
      const node: ContentImage & { maxWidth: number; maxHeight: number } = {
        image,
        maxWidth: width,
        maxHeight: PAGE_HEIGHT,
        margin: [0, 2, 0, 8],
      };
      parts.push(node);
    }
  }
  flush();
  return parts;
}

/** A code block: each line of the source one line, spaces kept; a long one wraps on the sheet. */
function codeBlock(value: string, width: number): Content {
  return {
    table: {
      widths: [width - 10],
      body: [[{ text: textRuns(value, { style: "code" }), preserveLeadingSpaces: true }]],
    },
    layout: { hLineWidth: () => 0, vLineWidth: () => 0, fillColor: () => "#f3f3f3" },
    margin: [0, 2, 0, 8],
  };
}

/** A table as wide as the sheet, its columns shared evenly, its type smaller the more it has. */
function table(rows: Inline[][][]): Content {
  const columns = Math.max(...rows.map((row) => row.length));
  // pdfmake needs every row as wide as the widest.
  const body = rows.map((row) => {
    const cells = row.map((cell) => ({ text: cell }));
    while (cells.length < columns) cells.push({ text: [] });
    return cells;
  });
  const fontSize = columns > 6 ? 7 : columns > 3 ? 8.5 : 10;
  return {
    table: { headerRows: 1, widths: Array(columns).fill("*"), body },
    fontSize,
    margin: [0, 0, 0, 8],
  };
}

function blocks(nodes: readonly RootContent[], page: PageLayout, layout: Layout, width: number): Content[] {
  return nodes.flatMap((node): Content[] => {
    switch (node.type) {
      case "heading": {
        const id = page.headingIds.get(node);
        return [
          {
            text: inlines(node.children, page, layout),
            style: `h${Math.min(node.depth, 3)}`,
            ...(id && { id }),
          },
        ];
      }
      case "paragraph":
        return paragraph(node.children, page, layout, width);
      case "code":
        return [codeBlock(node.value, width)];
      case "blockquote":
        return [
          { stack: blocks(node.children, page, layout, width - 14), style: "quote", margin: [14, 0, 0, 6] },
        ];
      case "list": {
        const items = node.children.map((item) => ({
          stack: blocks(item.children, page, layout, width - 15),
        }));
        return [node.ordered ? { ol: items, margin: [0, 0, 0, 6] } : { ul: items, margin: [0, 0, 0, 6] }];
      }
      case "table":
        return [
          table(node.children.map((row) => row.children.map((cell) => inlines(cell.children, page, layout)))),
        ];
      case "thematicBreak":
        return [
          {
            canvas: [{ type: "line", x1: 0, y1: 4, x2: width, y2: 4, lineWidth: 0.5 }],
            margin: [0, 4, 0, 8],
          },
        ];
      default:
        return "children" in node ? blocks(node.children as RootContent[], page, layout, width) : [];
    }
  });
}

/**
 * The pages as one A4 PDF: each page's title as a heading (a new sheet for each top-level page) and a
 * bookmark under its parent's, then its body laid out by pdfmake, links between pages of the export
 * jumping inside the PDF, images of the export embedded.
 */
export async function renderPdf({ title, pages, images }: PdfContent): Promise<Buffer> {
  const layouts = pages.map(pageLayout);
  const pageId = (index: number) => `page-${index}`;
  const layout: Layout = {
    images,
    destination: ({ page, anchor }) => {
      const target = layouts[page];
      if (!target) return undefined;
      return (anchor !== undefined && target.anchors.get(anchor)) || pageId(page);
    },
  };
  // The last page seen at each depth: a page's bookmark goes under the one just above its depth.
  const parents: number[] = [];
  const content: Content[] = pages.flatMap((page, i): Content[] => {
    parents[page.depth] = i;
    const parent = page.depth > 0 ? parents[page.depth - 1] : undefined;
    return [
      {
        text: page.title,
        id: pageId(i),
        outline: true,
        ...(parent !== undefined && { outlineParentId: pageId(parent) }),
        style: page.depth === 0 ? "title" : `h${Math.min(page.depth, 3)}`,
        ...(i > 0 && page.depth === 0 && { pageBreak: "before" as const }),
      },
      ...blocks((layouts[i] as PageLayout).tree.children, layouts[i] as PageLayout, layout, PAGE_WIDTH),
    ];
  });
  const definition: TDocumentDefinitions = {
    info: { title },
    pageSize: "A4",
    content,
    images: { ...images },
    styles: STYLES,
    defaultStyle: { font: "Roboto", fontSize: 10, lineHeight: 1.2 },
    footer: (current, count) => ({
      text: `${current} / ${count}`,
      alignment: "center",
      fontSize: 8,
      margin: [0, 10, 0, 0],
    }),
  };
  return pdfmake.createPdf(definition).getBuffer();
}
