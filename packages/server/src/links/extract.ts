import type { Nodes } from "mdast";
import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import { unified } from "unified";

const parser = unified().use(remarkParse).use(remarkGfm);

/**
 * The URLs a Markdown page body links to or embeds, in document order: links, images, and the
 * definitions that reference-style links use (GFM autolinks included). Parsed, never matched by a
 * regular expression, so code spans and code blocks hold no links.
 */
export function extractLinks(markdown: string): string[] {
  const urls: string[] = [];
  const walk = (node: Nodes) => {
    if (
      (node.type === "link" || node.type === "image" || node.type === "definition") &&
      node.url.trim() !== ""
    )
      urls.push(node.url.trim());
    if ("children" in node) for (const child of node.children) walk(child);
  };
  walk(parser.parse(markdown));
  return urls;
}
