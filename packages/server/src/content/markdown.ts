import { toString as textOf } from "mdast-util-to-string";
import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import { unified } from "unified";

const parser = unified().use(remarkParse).use(remarkGfm);

/**
 * A level-1 heading opening a Markdown document, as GitBook reads a page's title from it: the
 * heading's text, and the body after it (the line breaks that followed it dropped). Undefined when
 * the document does not open with one.
 */
export function leadingTitle(markdown: string): { title: string; body: string } | undefined {
  const first = parser.parse(markdown).children[0];
  if (first?.type !== "heading" || first.depth !== 1) return undefined;
  const title = textOf(first).trim();
  const end = first.position?.end.offset;
  if (!title || end === undefined) return undefined;
  let start = end;
  while (markdown[start] === "\n" || markdown[start] === "\r") start++;
  return { title, body: markdown.slice(start) };
}
