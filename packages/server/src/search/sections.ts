import GithubSlugger from "github-slugger";
import type { RootContent } from "mdast";
import { toString as textOf } from "mdast-util-to-string";
import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import { unified } from "unified";

const parser = unified().use(remarkParse).use(remarkGfm);

/** A part of a page under one heading (the first one: before any heading). */
export interface Section {
  /** The heading's anchor; "" for the part before the first heading. */
  anchor: string;
  heading: string;
  /** Plain text, blocks separated by line breaks. */
  text: string;
}

/**
 * A page body split at its headings, whatever their level. Anchors come from one slugger per
 * page, as the page's rendered headings get theirs, so that a repeated heading gets `-1`, `-2`….
 */
export function sectionsOf(markdown: string): Section[] {
  const slugger = new GithubSlugger();
  const sections: Section[] = [];
  let current: Section = { anchor: "", heading: "", text: "" };
  let blocks: string[] = [];
  const close = () => {
    current.text = blocks.join("\n");
    sections.push(current);
  };
  for (const node of parser.parse(markdown).children as RootContent[]) {
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
