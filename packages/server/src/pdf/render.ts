import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { PhrasingContent, RootContent } from "mdast";
import pdfmake from "pdfmake";
import type { Content, TDocumentDefinitions } from "pdfmake/interfaces.js";
import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import { unified } from "unified";

const parser = unified().use(remarkParse).use(remarkGfm);

/** What a PDF shows: its title and its pages, in reading order. */
export interface PdfContent {
  title: string;
  pages: readonly PdfPage[];
}

/** One page of the export, in reading order. */
export interface PdfPage {
  title: string;
  /** 0 for a page at the top of the export, 1 for its children… */
  depth: number;
  markdown: string;
}

// The fonts pdfmake ships (Roboto), read from its own folder: the only files it may open. Code is
// set in the PDF standard font Courier, which needs no file.
const robotoDir = join(dirname(createRequire(import.meta.url).resolve("pdfmake")), "..", "fonts", "Roboto");
const roboto = (file: string) => join(robotoDir, file);
const courier = {
  normal: "Courier",
  bold: "Courier-Bold",
  italics: "Courier-Oblique",
  bolditalics: "Courier-BoldOblique",
};
pdfmake.setFonts({
  Roboto: {
    normal: roboto("Roboto-Regular.ttf"),
    bold: roboto("Roboto-Medium.ttf"),
    italics: roboto("Roboto-Italic.ttf"),
    bolditalics: roboto("Roboto-MediumItalic.ttf"),
  },
  Courier: courier,
});
// A page's markdown may name images or fonts anywhere: nothing is fetched, no other file is read
// (pdfmake asks about the standard fonts' names too).
const standardFonts = new Set(Object.values(courier));
pdfmake.setUrlAccessPolicy(() => false);
pdfmake.setLocalAccessPolicy((path) => path.startsWith(robotoDir) || standardFonts.has(path));

const STYLES: TDocumentDefinitions["styles"] = {
  title: { fontSize: 20, bold: true, margin: [0, 0, 0, 10] },
  h1: { fontSize: 16, bold: true, margin: [0, 10, 0, 6] },
  h2: { fontSize: 14, bold: true, margin: [0, 8, 0, 4] },
  h3: { fontSize: 12, bold: true, margin: [0, 6, 0, 4] },
  code: { font: "Courier", fontSize: 9, background: "#f3f3f3" },
  quote: { italics: true, color: "#555555" },
  link: { color: "#1a5fb4", decoration: "underline" },
};

type Inline = Content & object;

function inlines(nodes: readonly PhrasingContent[], style: Record<string, unknown> = {}): Inline[] {
  return nodes.flatMap((node): Inline[] => {
    switch (node.type) {
      case "text":
        return [{ text: node.value, ...style }];
      case "emphasis":
        return inlines(node.children, { ...style, italics: true });
      case "strong":
        return inlines(node.children, { ...style, bold: true });
      case "delete":
        return inlines(node.children, { ...style, decoration: "lineThrough" });
      case "inlineCode":
        return [{ text: node.value, ...style, style: "code" }];
      case "break":
        return [{ text: "\n" }];
      case "link":
        // Only web addresses become live links; any other scheme stays text.
        return inlines(node.children, {
          ...style,
          style: "link",
          ...(/^https?:\/\//i.test(node.url) && { link: node.url }),
        });
      case "image":
        return [{ text: `[${node.alt || "image"}]`, ...style, italics: true }];
      case "html":
        return [{ text: node.value, ...style }];
      default:
        return "children" in node ? inlines(node.children as PhrasingContent[], style) : [];
    }
  });
}

function blocks(nodes: readonly RootContent[]): Content[] {
  return nodes.flatMap((node): Content[] => {
    switch (node.type) {
      case "heading":
        return [{ text: inlines(node.children), style: `h${Math.min(node.depth, 3)}` }];
      case "paragraph":
        return [{ text: inlines(node.children), margin: [0, 0, 0, 6] }];
      case "code":
        return [{ text: node.value, style: "code", margin: [0, 2, 0, 8], preserveLeadingSpaces: true }];
      case "blockquote":
        return [{ stack: blocks(node.children), style: "quote", margin: [14, 0, 0, 6] }];
      case "list": {
        const items = node.children.map((item) => ({ stack: blocks(item.children) }));
        return [node.ordered ? { ol: items, margin: [0, 0, 0, 6] } : { ul: items, margin: [0, 0, 0, 6] }];
      }
      case "table": {
        const body = node.children.map((row) =>
          row.children.map((cell) => ({ text: inlines(cell.children) })),
        );
        const width = Math.max(...body.map((row) => row.length));
        // pdfmake needs every row as wide as the widest.
        for (const row of body) while (row.length < width) row.push({ text: [] });
        return [{ table: { headerRows: 1, body }, margin: [0, 0, 0, 8] }];
      }
      case "thematicBreak":
        return [
          { canvas: [{ type: "line", x1: 0, y1: 4, x2: 515, y2: 4, lineWidth: 0.5 }], margin: [0, 4, 0, 8] },
        ];
      case "html":
        return [{ text: node.value, margin: [0, 0, 0, 6] }];
      default:
        return [];
    }
  });
}

/**
 * The pages as one A4 PDF: each page's title as a heading (a new sheet for each top-level page),
 * then its body, markdown parsed (with GFM tables and strikethrough) and laid out by pdfmake.
 */
export async function renderPdf({ title, pages }: PdfContent): Promise<Buffer> {
  const content: Content[] = pages.flatMap((page, i): Content[] => [
    {
      text: page.title,
      style: page.depth === 0 ? "title" : `h${Math.min(page.depth, 3)}`,
      ...(i > 0 && page.depth === 0 && { pageBreak: "before" as const }),
    },
    ...blocks(parser.parse(page.markdown).children),
  ]);
  const definition: TDocumentDefinitions = {
    info: { title },
    pageSize: "A4",
    content,
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
