import type {
  DocumentBlock,
  DocumentFragment,
  DocumentInline,
  DocumentLeaf,
  DocumentMark,
  DocumentNode,
  DocumentText,
  JSONDocument,
} from "@quire/api-types";
import { decodeHTML } from "entities";
import GithubSlugger from "github-slugger";
import type { ElementContent } from "hast";
import { fromHtml } from "hast-util-from-html";
import { toHtml } from "hast-util-to-html";
import { h } from "hastscript";
import type {
  BlockContent,
  Code,
  Definition,
  Emphasis,
  Heading,
  Html,
  Image,
  Link,
  List,
  ListItem,
  Nodes,
  Paragraph,
  Parents,
  PhrasingContent,
  Root,
  RootContent,
  Table,
  TableCell,
} from "mdast";
import type {} from "mdast-util-math";
import { defaultHandlers, type Options as ToMarkdownOptions, type Unsafe } from "mdast-util-to-markdown";
import { toString as textOf } from "mdast-util-to-string";
import remarkFrontmatter from "remark-frontmatter";
import remarkGfm from "remark-gfm";
import remarkMath from "remark-math";
import remarkStringify from "remark-stringify";
import { type Processor, unified } from "unified";
import { visit } from "unist-util-visit";
import type { MarkdownOutcome } from "./document-model.js";
import { FRONT_MATTER } from "./front-matter.js";
import { type GitBookTag, gitBookReader, integrationOf, literalLinkText, MATH } from "./gitbook.js";

/**
 * A page body as GitBook's JSON document and back, in a worker thread of the content engine's pool
 * (these functions parse; see `ContentEngine.toDocument`). The document is made from the mdast tree
 * of the body with GitBook's blocks as written; Markdown is written from it as GitBook's Git Sync
 * writes a page (its `{% %}` blocks, `<details>` for expandables, `$$` lines around a formula).
 *
 * What Markdown has and GitBook's document has not is kept as near as it goes: a heading below level 3
 * is a `heading-3` with its level, HTML is Quire's `html` inline or block, a footnote its text.
 * Converting a body to a document and back gives a body that converts to the same document again
 * (document.test.ts).
 */

const parserFor = gitBookReader({ blocks: "tags" });

function parse(markdown: string): Root {
  const parser = parserFor(markdown);
  // The text, for what reading it again needs (see `remarkGitBook`).
  return parser.runSync(parser.parse(markdown), markdown);
}

const HINT_STYLES = new Set(["info", "success", "warning", "danger"]);

/**
 * The options of a code block that `{% code %}` writes, in the order GitBook's Git Sync writes them:
 * a title, and how it shows (`overflow="wrap"`, `lineNumbers="true"`, `expandable="true"`).
 */
const CODE_OPTIONS = ["title", "overflow", "lineNumbers", "expandable"] as const;
const FLAG_OPTIONS = new Set(["lineNumbers", "expandable"]);

/** Whether `value` is one an option of a code block takes, written as a tag's attribute is. */
const isCodeOption = (name: string, value: string) =>
  FLAG_OPTIONS.has(name)
    ? value === "true" || value === "false"
    : value !== "" && (name !== "overflow" || value === "wrap" || value === "scroll");

/** A code block's options from its tag's attributes: flags as booleans, values it cannot take left out. */
function codeOptions(attributes: Record<string, string>): Record<string, string | boolean> {
  const options: Record<string, string | boolean> = {};
  for (const name of CODE_OPTIONS) {
    const value = attributes[name];
    if (value !== undefined && isCodeOption(name, value))
      options[name] = FLAG_OPTIONS.has(name) ? value === "true" : value;
  }
  return options;
}

/** A code block's tag attributes from its data (see `codeOptions`). */
function codeAttributes(data: Record<string, unknown>): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const name of CODE_OPTIONS) {
    const value = data[name];
    const written = typeof value === "boolean" || typeof value === "string" ? String(value) : undefined;
    if (
      written !== undefined &&
      isCodeOption(name, written) &&
      typeof value === (FLAG_OPTIONS.has(name) ? "boolean" : "string")
    )
      attributes[name] = written;
  }
  return attributes;
}

/** Where a reference points, as GitBook's `ContentRef`s say it. */
type ContentRef =
  | { kind: "url"; url: string }
  | { kind: "file"; file: string }
  | { kind: "page"; page: string }
  | { kind: "anchor"; anchor: string; page?: string }
  | { kind: "reusable-content"; reusableContent: string };

const PAGE_URL = /^\/pages\/([^/?#\s]+)(?:#(.+))?$/;
const FILE_URL = /^\/files\/([^/?#\s]+)$/;

/** Quire's own URLs as GitBook's references (`/pages/<id>`, `/files/<id>`, `#anchor`); other URLs as URLs. */
function refOf(url: string): ContentRef {
  const page = PAGE_URL.exec(url);
  if (page?.[1])
    return page[2] ? { kind: "anchor", anchor: page[2], page: page[1] } : { kind: "page", page: page[1] };
  const file = FILE_URL.exec(url);
  if (file?.[1]) return { kind: "file", file: file[1] };
  if (url.startsWith("#") && url.length > 1) return { kind: "anchor", anchor: url.slice(1) };
  return { kind: "url", url };
}

// ---------------------------------------------------------------------------------------------------
// Markdown → document

const MARK_ORDER = ["bold", "italic", "strikethrough", "code", "keyboard"] as const;
type MarkType = (typeof MARK_ORDER)[number];
/** Marks written around a leaf's own text (`` `x` ``, `<kbd>x</kbd>`) rather than as nodes around leaves. */
type LeafMark = "code" | "keyboard";

const MARK_OF: Partial<Record<Nodes["type"], MarkType>> = {
  strong: "bold",
  emphasis: "italic",
  delete: "strikethrough",
};

function leaf(text: string, marks: readonly MarkType[]): DocumentLeaf {
  const sorted = MARK_ORDER.filter((mark) => marks.includes(mark));
  return { object: "leaf", text, marks: sorted.map((type) => ({ object: "mark", type })) };
}

/** HTML's tags as CommonMark reads them inline: an opening or closing tag, or a comment. */
const HTML_TAG =
  /^(?:<[A-Za-z][A-Za-z0-9-]*(?:\s+[A-Za-z_:][\w.:-]*(?:\s*=\s*(?:[^\s"'=<>`]+|'[^']*'|"[^"]*"))?)*\s*\/?>|<\/[A-Za-z][A-Za-z0-9-]*\s*>|<!--(?:-?[^>-])(?:-?[^-])*-->)$/;

/**
 * Text and inlines of a paragraph or heading, adjacent leaves of the same marks made one. HTML is kept
 * as HTML: `<kbd>…</kbd>` as GitBook's keyboard mark, any other tag as an inline of its own (`html`,
 * Quire's: GitBook's document has none) so that it is written back as it was, never as visible text.
 */
class InlineBuilder {
  readonly nodes: (DocumentText | DocumentInline)[] = [];
  readonly definitions: ReadonlyMap<string, Definition>;

  constructor(definitions: ReadonlyMap<string, Definition>) {
    this.definitions = definitions;
  }

  add(node: PhrasingContent, marks: readonly MarkType[] = []): void {
    switch (node.type) {
      case "text":
        // A line ending inside a paragraph reads as a space; a hard break is GitBook's "\n".
        this.text(node.value.replace(/[ \t]*\r?\n[ \t]*/g, " "), marks);
        return;
      case "break":
        this.text("\n", marks);
        return;
      case "inlineCode":
        this.text(node.value, [...marks, "code"]);
        return;
      case "strong":
      case "emphasis":
      case "delete":
        this.addAll(node.children, [...marks, MARK_OF[node.type] as MarkType]);
        return;
      case "link":
      case "linkReference": {
        const url = node.type === "link" ? node.url : (this.definitions.get(node.identifier)?.url ?? "");
        const inner = new InlineBuilder(this.definitions);
        inner.addAll(node.children, marks);
        // GitBook writes a mention of a page or a file as a link titled "mention".
        const type = node.type === "link" && node.title === "mention" ? "mention" : "link";
        // A link written as its address alone is written so again (`literal`, Quire's).
        const literal = type === "link" && literalLinkText(node) !== undefined;
        this.nodes.push({
          object: "inline",
          type,
          data: { ref: refOf(url), ...(literal && { literal: true }) },
          ...(type === "mention" && { isVoid: true }),
          nodes: inner.nodes,
        });
        return;
      }
      case "image":
      case "imageReference": {
        const url = node.type === "image" ? node.url : (this.definitions.get(node.identifier)?.url ?? "");
        this.nodes.push({
          object: "inline",
          type: "inline-image",
          data: { ref: refOf(url), ...(node.alt && { alt: node.alt }) },
          isVoid: true,
        });
        return;
      }
      case "footnoteReference":
        this.text(`[^${node.label ?? node.identifier}]`, marks);
        return;
      case "inlineMath":
        this.nodes.push({
          object: "inline",
          type: "inline-math",
          data: { formula: node.value },
          isVoid: true,
        });
        return;
      case "html":
        this.nodes.push({ object: "inline", type: "html", data: { html: node.value }, isVoid: true });
        return;
    }
  }

  /**
   * HTML's text (a summary's): its phrasing elements as GitBook's marks, other elements as their tags
   * written (`html` inlines), its character references decoded.
   */
  addHtml(html: string): void {
    const add = (nodes: readonly ElementContent[], marks: readonly MarkType[]) => {
      for (const node of nodes) {
        if (node.type === "text") this.text(node.value, marks);
        if (node.type !== "element") continue;
        const mark = HTML_MARK[node.tagName];
        if (mark) {
          add(node.children, [...marks, mark]);
          continue;
        }
        const { start, end } = node.position ?? {};
        const first = node.children[0]?.position?.start.offset;
        const last = node.children.at(-1)?.position?.end.offset;
        const tag = (from?: number, to?: number) => {
          if (from !== undefined && to !== undefined && to > from)
            this.nodes.push({
              object: "inline",
              type: "html",
              data: { html: html.slice(from, to) },
              isVoid: true,
            });
        };
        tag(start?.offset, first ?? end?.offset);
        add(node.children, marks);
        if (first !== undefined) tag(last, end?.offset);
      }
    };
    add(fromHtml(html, { fragment: true }).children as ElementContent[], []);
  }

  /** Siblings in order, what is between `<kbd>` and the first `</kbd>` after it with the keyboard mark. */
  addAll(children: readonly PhrasingContent[], marks: readonly MarkType[] = []): void {
    for (let i = 0; i < children.length; i++) {
      const child = children[i] as PhrasingContent;
      const end = isHtml(child, "<kbd>")
        ? children.findIndex((next, j) => j > i && isHtml(next, "</kbd>"))
        : -1;
      if (end > i + 1) {
        this.addAll(children.slice(i + 1, end), [...marks, "keyboard"]);
        i = end;
      } else this.add(child, marks);
    }
  }

  text(value: string, marks: readonly MarkType[]): void {
    if (value === "") return;
    const next = leaf(value, marks);
    const last = this.nodes.at(-1);
    if (last?.object !== "text") {
      this.nodes.push({ object: "text", leaves: [next] });
      return;
    }
    const previous = last.leaves.at(-1);
    if (previous && sameMarks(previous.marks, next.marks)) previous.text += value;
    else last.leaves.push(next);
  }
}

/** HTML's phrasing elements that are GitBook's marks, as a summary may have them. */
const HTML_MARK: Readonly<Record<string, MarkType>> = {
  strong: "bold",
  b: "bold",
  em: "italic",
  i: "italic",
  s: "strikethrough",
  del: "strikethrough",
  code: "code",
  kbd: "keyboard",
};

function isHtml(node: PhrasingContent | undefined, value: string): boolean {
  return node?.type === "html" && node.value.toLowerCase() === value;
}

function sameMarks(a: readonly DocumentMark[], b: readonly DocumentMark[]): boolean {
  return a.length === b.length && a.every((mark, i) => mark.type === b[i]?.type);
}

function block(type: string, data: Record<string, unknown>, nodes?: DocumentNode[]): DocumentBlock {
  return { object: "block", type, data, ...(nodes && { nodes }) };
}

function voidBlock(type: string, data: Record<string, unknown>): DocumentBlock {
  return { object: "block", type, data, isVoid: true };
}

const DETAILS_OPEN = /^<details(?:\s+open)?>\s*(?:<summary>([\s\S]*?)<\/summary>\s*)?$/i;
const SUMMARY = /^<summary>([\s\S]*?)<\/summary>\s*$/i;
const DETAILS_CLOSE = /^<\/details>\s*$/i;
const FIGURE =
  /^<figure>\s*<img\s+src="([^"]*)"(?:\s+alt="([^"]*)")?\s*\/?>\s*(?:<figcaption>(?:<p>)?([\s\S]*?)(?:<\/p>)?<\/figcaption>)?\s*<\/figure>\s*$/i;

/** HTML that opens or closes an expandable when written as a block (with its other end). */
function isDetailsBoundary(html: string): boolean {
  return DETAILS_OPEN.test(html) || DETAILS_CLOSE.test(html);
}

/** Text of HTML with its character references decoded (`&#x26;`, as GitBook writes `&`, and `&amp;` alike). */
const unescapeHtml = (text: string) => decodeHTML(text);

/** An anchor GitBook's headings may have (`data.id`). */
const ANCHOR_ID = /^[-a-z0-9.+_]+$/;

/**
 * A heading's own anchor, as Git Sync writes it after the heading's text (`## Title <a href="#id"
 * id="id"></a>`), and the text before it; undefined when it has none.
 */
function ownAnchor(
  children: readonly PhrasingContent[],
): { id: string; text: PhrasingContent[] } | undefined {
  const [open, close] = children.slice(-2);
  if (open?.type !== "html" || close?.type !== "html" || close.value !== "</a>") return undefined;
  const [, id, named] = /^<a href="#([^"]+)" id="([^"]+)">$/.exec(open.value) ?? [];
  if (!id || id !== named || !ANCHOR_ID.test(id)) return undefined;
  const text = children.slice(0, -2);
  const last = text.at(-1);
  if (last?.type === "text") {
    const value = last.value.replace(/ $/, "");
    text.splice(-1, 1, ...(value ? [{ ...last, value }] : []));
  }
  return { id, text };
}

/** Converts the blocks of one body, its headings given their anchors in order. */
class BlockConverter {
  readonly #slugger = new GithubSlugger();
  readonly definitions: ReadonlyMap<string, Definition>;

  constructor(definitions: ReadonlyMap<string, Definition>) {
    this.definitions = definitions;
  }

  /**
   * The blocks of a list of siblings, by the siblings that give them: one node each, but an
   * expandable, `<details>` up to the first `</details>` after it (as GitBook writes one).
   */
  groups(
    nodes: readonly RootContent[],
  ): { first: RootContent; last: RootContent; blocks: DocumentBlock[] }[] {
    // Where the first `</details>` after each sibling is, found in one pass from the end.
    const closes: number[] = new Array(nodes.length);
    for (let i = nodes.length - 1, next = -1; i >= 0; i--) {
      closes[i] = next;
      const node = nodes[i];
      if (node?.type === "html" && DETAILS_CLOSE.test(node.value)) next = i;
    }
    const out: { first: RootContent; last: RootContent; blocks: DocumentBlock[] }[] = [];
    for (let i = 0; i < nodes.length; i++) {
      const node = nodes[i] as RootContent;
      const details = node.type === "html" ? DETAILS_OPEN.exec(node.value) : null;
      // Its summary on the same lines, or (as Git Sync writes it) as the block after.
      const next = nodes[i + 1];
      const summary =
        details && details[1] === undefined && next?.type === "html" && SUMMARY.exec(next.value);
      const title = summary ? summary[1] : details?.[1];
      const end = closes[i] ?? -1;
      const body = i + (summary ? 2 : 1);
      if (title !== undefined && end >= body) {
        const open = /^<details\s+open/i.test((node as Html).value);
        const blocks = [this.expandable(title.trim(), nodes.slice(body, end), open)];
        out.push({ first: node, last: nodes[end] as RootContent, blocks });
        i = end;
      } else out.push({ first: node, last: node, blocks: this.block(node) });
    }
    return out;
  }

  blocks(nodes: readonly RootContent[]): DocumentBlock[] {
    return this.groups(nodes).flatMap(({ blocks }) => blocks);
  }

  expandable(title: string, body: readonly RootContent[], open: boolean): DocumentBlock {
    const inline = new InlineBuilder(this.definitions);
    inline.addHtml(title);
    return {
      object: "block",
      type: "expandable",
      data: open ? { defaultExpanded: true } : {},
      isVoid: true,
      fragments: [
        fragment("expandable-title", [block("paragraph", {}, inline.nodes)], "expandable-title"),
        fragment("expandable-body", this.blocks(body), "expandable-body"),
      ],
    };
  }

  block(node: RootContent): DocumentBlock[] {
    switch (node.type) {
      case "paragraph":
        return [this.paragraph(node)];
      case "heading":
        return [this.heading(node)];
      case "list":
        return [this.list(node)];
      case "blockquote":
        return [block("blockquote", {}, this.blocks(node.children))];
      case "code":
        return [this.code(node)];
      case "math":
        return [voidBlock("math", { formula: node.value })];
      case "thematicBreak":
        return [voidBlock("divider", {})];
      case "table":
        return [this.table(node)];
      case "html":
        return [this.html(node)];
      case "footnoteDefinition":
        return this.blocks([
          { type: "paragraph", children: [{ type: "text", value: `[^${node.label ?? node.identifier}]: ` }] },
          ...node.children,
        ]);
      case "gitbookTag":
        return this.tag(node);
      default:
        // Front matter is the page's metadata, definitions are read into their links.
        return [];
    }
  }

  inlines(children: readonly PhrasingContent[]): (DocumentText | DocumentInline)[] {
    const builder = new InlineBuilder(this.definitions);
    builder.addAll(children);
    return builder.nodes;
  }

  /**
   * A paragraph; its images, an images block. Tags alone (once marks around them, holding no text, are
   * gone) would be read as an HTML block when written: so they are one, but as a task's text.
   */
  paragraph(node: Paragraph, taskText = false): DocumentBlock {
    const nodes = this.inlines(node.children);
    const tagsAlone = nodes.every(
      (inline) =>
        (inline.object === "inline" && inline.type === "html") ||
        (inline.object === "text" && inline.leaves.every((l) => !l.text.trim())),
    );
    if (tagsAlone && !taskText) {
      const html = nodes
        .map((inline) =>
          inline.object === "text" ? inline.leaves.map((l) => l.text).join("") : String(inline.data?.html),
        )
        .join("");
      const [only, ...more] = parse(html).children;
      if (only?.type === "html" && only.value === html && more.length === 0 && !isDetailsBoundary(html))
        return voidBlock("html", { html });
    }
    const images = node.children.filter((child) => child.type !== "text" || child.value.trim() !== "");
    if (images.length > 0 && images.every((child) => child.type === "image"))
      return block(
        "images",
        {},
        (images as Image[]).map((image) => this.image(image)),
      );
    return block("paragraph", {}, nodes);
  }

  image(image: Pick<Image, "url" | "alt" | "title">): DocumentBlock {
    return {
      object: "block",
      type: "image",
      data: { ref: refOf(image.url), ...(image.alt && { alt: image.alt }) },
      isVoid: true,
      fragments: image.title ? [fragment("caption", [this.textParagraph(image.title)])] : [],
    };
  }

  textParagraph(value: string): DocumentBlock {
    const builder = new InlineBuilder(this.definitions);
    builder.text(value, []);
    return block("paragraph", {}, builder.nodes);
  }

  /**
   * A heading, its anchor GitBook's own (`data.id`) when Git Sync wrote one after its text. GitBook's
   * headings go to level 3; one below is its `heading-3` with the level it was written at (`data.level`,
   * Quire's), so that it is written back at that level.
   */
  heading(node: Heading): DocumentBlock {
    const slug = this.#slugger.slug(textOf(node).trim());
    const own = ownAnchor(node.children);
    return {
      object: "block",
      type: `heading-${Math.min(node.depth, 3)}`,
      data: { ...(own && { id: own.id }), ...(node.depth > 3 && { level: node.depth }) },
      nodes: this.inlines(own?.text ?? node.children),
      meta: { id: own?.id ?? slug },
    };
  }

  list(node: List): DocumentBlock {
    const tasks = node.children.some((item) => typeof item.checked === "boolean");
    const items = node.children.map((item) => {
      if (!tasks) return block("list-item", {}, this.blocks(item.children));
      // A task's box is written before its first paragraph: that stays one.
      const [head, ...rest] = item.children;
      const blocks =
        head?.type === "paragraph"
          ? [this.paragraph(head, true), ...this.blocks(rest)]
          : this.blocks(item.children);
      return block("list-item", { checked: item.checked === true }, blocks);
    });
    if (tasks) return block("list-tasks", {}, items);
    if (node.ordered)
      return block("list-ordered", node.start && node.start !== 1 ? { start: node.start } : {}, items);
    return block("list-unordered", {}, items);
  }

  code(node: Code): DocumentBlock {
    if (node.lang === "math") return voidBlock("math", { formula: node.value });
    return block(
      "code",
      node.lang ? { syntax: node.lang } : {},
      node.value.split("\n").map((line) => block("code-line", {}, line ? [textNode(line)] : [])),
    );
  }

  table(node: Table): DocumentBlock {
    const [header, ...rows] = node.children;
    const columns = (header?.children ?? []).map((_, i) => `c${i}`);
    const definition = Object.fromEntries(
      columns.map((id, i) => [
        id,
        {
          id,
          title: textOf(header?.children[i] as TableCell),
          type: "text",
          textAlignment: node.align?.[i] ?? "left",
        },
      ]),
    );
    const fragments: DocumentFragment[] = [];
    const records = Object.fromEntries(
      rows.map((row, r) => {
        const values = Object.fromEntries(
          columns.map((column, c) => {
            const cell = row.children[c];
            const id = `r${r}${column}`;
            fragments.push(fragment(id, [block("paragraph", {}, this.inlines(cell?.children ?? []))]));
            return [column, id];
          }),
        );
        return [`r${r}`, { orderIndex: String(r).padStart(6, "0"), values }];
      }),
    );
    return {
      object: "block",
      type: "table",
      data: { view: { type: "grid", columns, hideHeader: false }, records, definition },
      isVoid: true,
      fragments,
    };
  }

  /**
   * HTML as GitBook's document has it: `<figure>` images are images; other HTML is a block of its own
   * (`html`, Quire's: GitBook's document has none), written back as it was. A `<details>` without its
   * end, or an end without its start, is shown as its source: as HTML, it would pair with another.
   */
  html(node: Html): DocumentBlock {
    const figure = FIGURE.exec(node.value);
    if (figure)
      return block("images", {}, [
        this.image({
          url: unescapeHtml(figure[1] ?? ""),
          alt: unescapeHtml(figure[2] ?? ""),
          title: figure[3] ? unescapeHtml(figure[3].trim()) : null,
        }),
      ]);
    if (isDetailsBoundary(node.value))
      return block(
        "code",
        { syntax: "html" },
        node.value.split("\n").map((line) => block("code-line", {}, line ? [textNode(line)] : [])),
      );
    return voidBlock("html", { html: node.value });
  }

  /** GitBook's blocks as its document has them; a part written outside its block (`{% tab %}` alone) in one. */
  tag(node: GitBookTag): DocumentBlock[] {
    const a = node.attributes;
    const body = () => this.blocks(node.children);
    const items = ITEM_BLOCKS[node.name];
    if (items) {
      const nodes = this.items(node, items.item, items.type, (item) => items.data(item.attributes));
      return [block(node.name, items.parent?.(a) ?? {}, nodes)];
    }
    const parent = PARENT_OF_ITEM.get(node.name);
    if (parent) {
      const { type, data, parent: parentData } = ITEM_BLOCKS[parent] as ItemBlock;
      return [block(parent, parentData?.({}) ?? {}, [block(type, data(a), body())])];
    }
    switch (node.name) {
      case "hint":
        return [
          block(
            "hint",
            { style: HINT_STYLES.has(a.style ?? "") ? a.style : "info", ...(a.icon && { icon: a.icon }) },
            body(),
          ),
        ];
      case "if":
        return [block("if", { expression: node.argument ?? "" }, body())];
      case "prompt":
        return [
          block(
            "prompt",
            {
              description: a.description ?? "",
              ...(a.icon && { icon: a.icon }),
              ...(PROMPT_EXPANSIONS.has(a.defaultExpanded ?? "") && { defaultExpanded: a.defaultExpanded }),
            },
            body(),
          ),
        ];
      case "content-ref":
        return [voidBlock("content-ref", { ref: refOf(a.url ?? "") })];
      case "page-ref":
        return [voidBlock("content-ref", { ref: refOf(a.page ?? "") })];
      case "embed":
        return [voidBlock("embed", { url: a.url ?? "" })];
      case "file": {
        // Its body, when it has an end tag, is its caption.
        const caption = body();
        return [
          {
            ...voidBlock("file", { ref: refOf(a.src ?? "") }),
            ...(caption.length > 0 && { fragments: [fragment("caption", caption)] }),
          },
        ];
      }
      case "include":
        return [
          voidBlock("reusable-content", {
            ref: { kind: "reusable-content", reusableContent: node.argument ?? a.src ?? "" },
          }),
        ];
      case "swagger":
      case "openapi":
        return [
          voidBlock("swagger", {
            ref: refOf(a.src ?? ""),
            ...(a.path !== undefined && { path: a.path }),
            ...(a.method !== undefined && { method: a.method }),
          }),
        ];
      case "code": {
        const blocks = body();
        const [only] = blocks;
        const options = codeOptions(a);
        if (blocks.length === 1 && only?.type === "code" && Object.keys(options).length > 0)
          return [{ ...only, data: { ...only.data, ...options } }];
        return blocks;
      }
      default: {
        const integration = integrationOf(node.name);
        if (!integration) return body();
        // GitBook keeps the URL of a block made from one (an unfurled link) in `url` as well.
        return [
          voidBlock("integration", { ...integration, props: a, ...(a.url !== undefined && { url: a.url }) }),
        ];
      }
    }
  }

  /** The items of a tabs or stepper block: its `item` tags, and what is between them in items of their own. */
  items(
    node: GitBookTag,
    item: string,
    type: string,
    dataOf: (tag: GitBookTag) => Record<string, unknown>,
  ): DocumentBlock[] {
    const out: DocumentBlock[] = [];
    let loose: RootContent[] = [];
    const flush = () => {
      if (loose.length > 0) out.push(block(type, LOOSE_ITEM_DATA[type] ?? {}, this.blocks(loose)));
      loose = [];
    };
    for (const child of node.children) {
      if (child.type === "gitbookTag" && child.name === item) {
        flush();
        out.push(block(type, dataOf(child), this.blocks(child.children)));
      } else loose.push(child);
    }
    flush();
    return out;
  }
}

/** How an update block may show its updates. */
const UPDATE_FORMATS = new Set(["full", "numeric", "short"]);
/** How much of a prompt block is shown at first. */
const PROMPT_EXPANSIONS = new Set(["hidden", "partial", "full"]);

/** GitBook's blocks of items, by tag: their items' tag and block, and the data tags give them. */
interface ItemBlock {
  item: string;
  type: string;
  data: (attributes: Record<string, string>) => Record<string, unknown>;
  parent?: (attributes: Record<string, string>) => Record<string, unknown>;
}

const ITEM_BLOCKS: Readonly<Record<string, ItemBlock>> = {
  tabs: { item: "tab", type: "tabs-item", data: (a) => tabData(a) },
  stepper: { item: "step", type: "stepper-step", data: () => ({}) },
  columns: { item: "column", type: "column", data: (a) => columnData(a) },
  updates: {
    item: "update",
    type: "update",
    data: (a) => updateData(a),
    parent: (a) => ({ format: UPDATE_FORMATS.has(a.format ?? "") ? a.format : "full" }),
  },
};

/** The block an item written alone (`{% tab %}` without `{% tabs %}`) is given, by the item's tag. */
const PARENT_OF_ITEM: ReadonlyMap<string, string> = new Map(
  Object.entries(ITEM_BLOCKS).map(([parent, { item }]) => [item, parent]),
);

/** What an item written outside its own tag (between two) has. */
const LOOSE_ITEM_DATA: Readonly<Record<string, Record<string, unknown>>> = {
  "tabs-item": { title: "" },
  update: { date: "" },
};

/** A column's width as its tag gives it (`50%`), GitBook's length (`{ value: 50, unit: "%" }`). */
function columnData(attributes: Record<string, string>): Record<string, unknown> {
  const [, value, unit] = /^(\d+(?:\.\d+)?)(%|px)?$/.exec(attributes.width ?? "") ?? [];
  if (value === undefined) return {};
  return { width: unit ? { value: Number(value), unit } : Number(value) };
}

/** An update's date and tags (`tags="beta,ui"`: GitBook's tag references) as its tag gives them. */
function updateData(attributes: Record<string, string>): Record<string, unknown> {
  const tags = (attributes.tags ?? "")
    .split(",")
    .map((tag) => tag.trim())
    .filter(Boolean);
  return {
    date: attributes.date ?? "",
    ...(tags.length > 0 && { tags: tags.map((tag) => ({ kind: "tag", tag })) }),
  };
}

/** The attributes an item's tag is written with, from its block's data. */
const ITEM_ATTRIBUTES: Readonly<Record<string, (data: Record<string, unknown>) => Record<string, string>>> = {
  tab: (data) => ({ title: typeof data.title === "string" ? data.title : "", ...iconOf(data) }),
  column: (data): Record<string, string> => {
    const width = data.width;
    if (typeof width === "number") return { width: String(width) };
    if (isObject(width) && typeof width.value === "number" && typeof width.unit === "string")
      return { width: `${width.value}${width.unit}` };
    return {};
  },
  update: (data) => {
    const tags = Array.isArray(data.tags)
      ? data.tags.flatMap((tag) => (isObject(tag) && typeof tag.tag === "string" ? [tag.tag] : []))
      : [];
    return {
      date: typeof data.date === "string" ? data.date : "",
      ...(tags.length > 0 && { tags: tags.join(",") }),
    };
  },
};

/** A tab's title and icon, as its tag gives them. */
function tabData(attributes: Record<string, string>): Record<string, string> {
  return { title: attributes.title ?? "", ...(attributes.icon && { icon: attributes.icon }) };
}

/** What Git Sync shows a content reference's link as: the last part of its path (`./` is "."). */
function lastSegment(url: string): string {
  return url.split(/[?#]/, 1)[0]?.split("/").filter(Boolean).at(-1) ?? url;
}

function textNode(value: string): DocumentText {
  return { object: "text", leaves: [leaf(value, [])] };
}

/** A named part of a block; GitBook types an expandable's parts by their name too. */
function fragment(name: string, nodes: DocumentBlock[], type?: string): DocumentFragment {
  return { object: "fragment", fragment: name, ...(type && { type }), nodes };
}

function definitionsOf(tree: Root): Map<string, Definition> {
  const definitions = new Map<string, Definition>();
  const walk = (node: Nodes) => {
    if (node.type === "definition" && !definitions.has(node.identifier))
      definitions.set(node.identifier, node);
    if ("children" in node) for (const child of node.children) walk(child);
  };
  walk(tree);
  return definitions;
}

/** Where a body's text runs from one node to another, when the parser says. */
interface Span {
  start: number;
  end: number;
}

function spanOf(first: RootContent, last: RootContent): Span | undefined {
  const start = first.position?.start.offset;
  const end = last.position?.end.offset;
  return start !== undefined && end !== undefined ? { start, end } : undefined;
}

/** The blocks of the body, by the top-level nodes that give them, with where those were written. */
function topLevelBlocks(
  tree: Root,
  converter = new BlockConverter(definitionsOf(tree)),
): { first: RootContent; last: RootContent; span?: Span; blocks: DocumentBlock[] }[] {
  return spanned(converter.groups(tree.children));
}

/** Groups of siblings with where each was written, when the parser says. */
function spanned(groups: ReturnType<BlockConverter["groups"]>) {
  return groups.map((group) => {
    const span = spanOf(group.first, group.last);
    return { ...group, ...(span && { span }) };
  });
}

export function toDocument(markdown: string): JSONDocument {
  return {
    object: "document",
    data: {},
    nodes: topLevelBlocks(parse(markdown)).flatMap(({ blocks }) => blocks),
  };
}

// ---------------------------------------------------------------------------------------------------
// Document → Markdown

/** Why a document cannot be read, at the path of the node at fault. */
class InvalidDocument extends Error {}

const MARK_NODE: Record<Exclude<MarkType, LeafMark>, "strong" | "emphasis" | "delete"> = {
  bold: "strong",
  italic: "emphasis",
  strikethrough: "delete",
};

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function stringField(data: Record<string, unknown>, field: string, path: string): string {
  const value = data[field];
  if (typeof value !== "string") throw new InvalidDocument(`${path}.data.${field} must be a string`);
  return value;
}

function urlOfRef(value: unknown, path: string): string {
  if (!isObject(value)) throw new InvalidDocument(`${path} must be a content reference`);
  switch (value.kind) {
    case "url":
      return stringField(value, "url", path).trim();
    case "file":
      return `/files/${stringField(value, "file", path)}`;
    case "page":
      return `/pages/${stringField(value, "page", path)}`;
    case "anchor": {
      const anchor = stringField(value, "anchor", path);
      return typeof value.page === "string" ? `/pages/${value.page}#${anchor}` : `#${anchor}`;
    }
    default:
      throw new InvalidDocument(
        `${path}: a reference of kind ${JSON.stringify(value.kind)} cannot be written in Markdown`,
      );
  }
}

/** One leaf's text with its marks, before marks become nested nodes. */
interface MarkedText {
  text: string;
  marks: Set<string>;
}

type InlineItem = MarkedText | PhrasingContent;

/** Leaves as nested phrasing nodes: a run of leaves sharing a mark becomes one node of it. */
function phrasing(items: readonly InlineItem[], order: readonly MarkType[] = MARK_ORDER): PhrasingContent[] {
  const [mark, ...rest] = order;
  if (mark === undefined) return items.flatMap((item) => ("marks" in item ? leafNodes(item) : [item]));
  const out: PhrasingContent[] = [];
  for (let i = 0; i < items.length; ) {
    const marked = (item: InlineItem | undefined) =>
      item !== undefined && "marks" in item && item.marks.has(mark) && mark in MARK_NODE;
    let j = i;
    if (marked(items[i])) {
      while (marked(items[j])) j++;
      out.push({
        type: MARK_NODE[mark as Exclude<MarkType, LeafMark>],
        children: phrasing(items.slice(i, j), rest),
      } as PhrasingContent);
    } else {
      while (j < items.length && !marked(items[j])) j++;
      out.push(...phrasing(items.slice(i, j), rest));
    }
    i = j;
  }
  return out;
}

/** A leaf's text: code, or text with its line breaks as hard breaks; in `<kbd>` when a key. */
function leafNodes({ text, marks }: MarkedText): PhrasingContent[] {
  const nodes: PhrasingContent[] = marks.has("code")
    ? [{ type: "inlineCode", value: text }]
    : text
        .split("\n")
        .flatMap((line, i): PhrasingContent[] => [
          ...(i > 0 ? [{ type: "break" } as const] : []),
          ...(line ? [{ type: "text", value: line } as const] : []),
        ]);
  return marks.has("keyboard")
    ? [{ type: "html", value: "<kbd>" }, ...nodes, { type: "html", value: "</kbd>" }]
    : nodes;
}

/** Reads documents into mdast, every node checked. */
class DocumentReader {
  nodesOf(node: Record<string, unknown>, path: string): Record<string, unknown>[] {
    const { nodes } = node;
    if (nodes === undefined) return [];
    if (!Array.isArray(nodes)) throw new InvalidDocument(`${path}.nodes must be a list`);
    return nodes.map((child, i) => {
      if (!isObject(child)) throw new InvalidDocument(`${path}.nodes[${i}] must be a node`);
      return child;
    });
  }

  dataOf(node: Record<string, unknown>, path: string): Record<string, unknown> {
    if (node.data === undefined) return {};
    if (!isObject(node.data)) throw new InvalidDocument(`${path}.data must be an object`);
    return node.data;
  }

  blocks(nodes: readonly Record<string, unknown>[], path: string): BlockContent[] {
    return nodes.flatMap((node, i) => this.block(node, `${path}.nodes[${i}]`));
  }

  childBlocks(node: Record<string, unknown>, path: string): BlockContent[] {
    return this.blocks(this.nodesOf(node, path), path);
  }

  fragmentBlocks(node: Record<string, unknown>, name: string, path: string): BlockContent[] {
    const { fragments } = node;
    if (fragments === undefined) return [];
    if (!Array.isArray(fragments)) throw new InvalidDocument(`${path}.fragments must be a list`);
    const index = fragments.findIndex((f) => isObject(f) && f.fragment === name);
    const found = fragments[index];
    return isObject(found) ? this.childBlocks(found, `${path}.fragments[${index}]`) : [];
  }

  block(node: Record<string, unknown>, path: string): BlockContent[] {
    if (node.object !== "block") throw new InvalidDocument(`${path} must be a block (object "block")`);
    const data = this.dataOf(node, path);
    const type = node.type;
    switch (type) {
      case "paragraph":
        return [{ type: "paragraph", children: this.inlines(node, path) }];
      case "heading-1":
      case "heading-2":
      case "heading-3": {
        const id = typeof data.id === "string" && ANCHOR_ID.test(data.id) ? data.id : undefined;
        const anchor: PhrasingContent[] = id
          ? [
              { type: "text", value: " " },
              { type: "html", value: `<a href="#${id}" id="${id}"></a>` },
            ]
          : [];
        const level = data.level;
        const depth = (
          type === "heading-3" && typeof level === "number" && [4, 5, 6].includes(level)
            ? level
            : Number(type.slice(-1))
        ) as Heading["depth"];
        return [{ type: "heading", depth, children: [...this.inlines(node, path), ...anchor] }];
      }
      case "list-ordered":
      case "list-unordered":
      case "list-tasks":
        return [this.list(node, type, data, path)];
      case "blockquote":
        return [{ type: "blockquote", children: this.childBlocks(node, path) }];
      case "divider":
        return [{ type: "thematicBreak" }];
      case "code":
        return [this.code(node, data, path)];
      case "math":
        return [{ type: "math", value: stringField(data, "formula", path) }];
      case "hint": {
        const style = typeof data.style === "string" && HINT_STYLES.has(data.style) ? data.style : "info";
        return [tag("hint", { style, ...iconOf(data) }, this.childBlocks(node, path))];
      }
      case "images":
        return this.images(
          this.nodesOf(node, path).map((image, i) => ({ image, path: `${path}.nodes[${i}]` })),
        );
      case "image":
        return this.images([{ image: node, path }]);
      case "file":
        return [
          tag(
            "file",
            { src: urlOfRef(data.ref, `${path}.data.ref`) },
            this.fragmentBlocks(node, "caption", path),
          ),
        ];
      case "embed":
        return [tag("embed", { url: stringField(data, "url", path) }, [])];
      case "content-ref": {
        const url = urlOfRef(data.ref, `${path}.data.ref`);
        return [
          tag("content-ref", { url }, [
            {
              type: "paragraph",
              children: [{ type: "link", url, children: [{ type: "text", value: lastSegment(url) }] }],
            },
          ]),
        ];
      }
      case "reusable-content": {
        const ref = data.ref;
        if (!isObject(ref)) throw new InvalidDocument(`${path}.data.ref must be a content reference`);
        const include: GitBookTag = {
          type: "gitbookTag",
          name: "include",
          attributes: {},
          argument: stringField(ref, "reusableContent", `${path}.data.ref`),
          children: [],
        };
        return [include];
      }
      case "swagger": {
        const src = urlOfRef(data.ref, `${path}.data.ref`);
        const attributes: Record<string, string> = { src };
        if (typeof data.path === "string") attributes.path = data.path;
        if (typeof data.method === "string") attributes.method = data.method;
        return [
          tag("openapi", attributes, [
            {
              type: "paragraph",
              children: [{ type: "link", url: src, children: [{ type: "text", value: src }] }],
            },
          ]),
        ];
      }
      case "tabs":
        return [tag("tabs", {}, this.items(node, "tabs-item", "tab", path))];
      case "stepper":
        return [tag("stepper", {}, this.items(node, "stepper-step", "step", path))];
      case "expandable": {
        const [title] = this.fragmentBlocks(node, "expandable-title", path);
        const summary = title?.type === "paragraph" ? htmlOf(title.children) : "";
        return [
          { type: "html", value: data.defaultExpanded === true ? "<details open>" : "<details>" },
          { type: "html", value: `<summary>${summary}</summary>` },
          ...this.fragmentBlocks(node, "expandable-body", path),
          { type: "html", value: "</details>" },
        ];
      }
      case "table":
        return [this.table(node, data, path)];
      case "integration":
        return [this.integration(data, path)];
      case "html": {
        const html = stringField(data, "html", path);
        const [only, ...more] = parse(html).children;
        if (only?.type !== "html" || only.value !== html || more.length > 0)
          throw new InvalidDocument(`${path}.data.html must be HTML that Markdown reads as one block`);
        if (isDetailsBoundary(html))
          throw new InvalidDocument(`${path}.data.html: a <details> is GitBook's expandable block`);
        return [{ type: "html", value: html }];
      }
      case "columns":
        return [tag("columns", {}, this.items(node, "column", "column", path))];
      case "updates": {
        const format =
          typeof data.format === "string" && UPDATE_FORMATS.has(data.format) ? data.format : "full";
        return [tag("updates", { format }, this.items(node, "update", "update", path))];
      }
      case "if":
        return [
          { ...tag("if", {}, this.childBlocks(node, path)), argument: stringField(data, "expression", path) },
        ];
      case "prompt": {
        const attributes: Record<string, string> = { description: stringField(data, "description", path) };
        if (typeof data.icon === "string" && data.icon) attributes.icon = data.icon;
        if (typeof data.defaultExpanded === "string" && PROMPT_EXPANSIONS.has(data.defaultExpanded))
          attributes.defaultExpanded = data.defaultExpanded;
        return [tag("prompt", attributes, this.childBlocks(node, path))];
      }
      default:
        throw new InvalidDocument(
          `${path}: Quire cannot store a block of type ${JSON.stringify(type)} as Markdown`,
        );
    }
  }

  list(node: Record<string, unknown>, type: string, data: Record<string, unknown>, path: string): List {
    const children: ListItem[] = this.nodesOf(node, path).map((item, i) => {
      const itemPath = `${path}.nodes[${i}]`;
      if (item.object !== "block" || item.type !== "list-item")
        throw new InvalidDocument(`${itemPath} must be a list-item block`);
      const itemData = this.dataOf(item, itemPath);
      const children = this.childBlocks(item, itemPath);
      return {
        type: "listItem",
        // As Git Sync writes an item of blocks (a paragraph and a nested list aside): loose, indented 4.
        spread: children.slice(1).some((child) => child.type !== "list"),
        checked: type === "list-tasks" ? itemData.checked === true : null,
        children,
      };
    });
    const start =
      typeof data.start === "number" && Number.isInteger(data.start) && data.start >= 0 ? data.start : 1;
    return { type: "list", ordered: type === "list-ordered", start, spread: false, children };
  }

  code(node: Record<string, unknown>, data: Record<string, unknown>, path: string): BlockContent {
    const lines = this.nodesOf(node, path).map((line, i) => this.plainText(line, `${path}.nodes[${i}]`));
    const code: Code = {
      type: "code",
      lang: typeof data.syntax === "string" && data.syntax ? data.syntax : null,
      value: lines.join("\n"),
    };
    const attributes = codeAttributes(data);
    return Object.keys(attributes).length > 0 ? tag("code", attributes, [code]) : code;
  }

  /**
   * An image alone as GitBook's Git Sync writes it, a figure (`<figure><img src alt><figcaption>`);
   * several side by side as Markdown's images in one paragraph.
   */
  images(images: readonly { image: Record<string, unknown>; path: string }[]): BlockContent[] {
    const nodes: Image[] = images.map(({ image, path: imagePath }) => {
      if (image.type !== "image") throw new InvalidDocument(`${imagePath} must be an image block`);
      const data = this.dataOf(image, imagePath);
      const [caption] = this.fragmentBlocks(image, "caption", imagePath);
      return {
        type: "image",
        url: urlOfRef(data.ref, `${imagePath}.data.ref`),
        alt: typeof data.alt === "string" ? data.alt : null,
        title: caption ? textOf(caption) || null : null,
      };
    });
    const [only] = nodes;
    if (only && nodes.length === 1) {
      const caption = only.title ? [h("p", only.title)] : [];
      const figure = h("figure", [
        h("img", { src: only.url, alt: only.alt ?? "" }),
        h("figcaption", caption),
      ]);
      return [{ type: "html", value: toHtml(figure) }];
    }
    const children = nodes.flatMap((node, i): PhrasingContent[] =>
      i === 0 ? [node] : [{ type: "text", value: " " }, node],
    );
    return children.length > 0 ? [{ type: "paragraph", children }] : [];
  }

  /** An integration's block as Git Sync writes it, `{% @integration/block key="value"… %}`. */
  integration(data: Record<string, unknown>, path: string): GitBookTag {
    const name = `@${stringField(data, "integration", path)}/${stringField(data, "block", path)}`;
    if (!integrationOf(name))
      throw new InvalidDocument(
        `${path}.data: an integration's and its block's names must be letters, digits, "-" or "_"`,
      );
    if (!isObject(data.props)) throw new InvalidDocument(`${path}.data.props must be an object`);
    const attributes = Object.entries(data.props).map(([key, value]) => {
      // What a tag's attribute can be, and read back as.
      if (!/^[\w-]+$/.test(key))
        throw new InvalidDocument(`${path}.data.props: ${JSON.stringify(key)} cannot be an attribute's name`);
      if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean")
        throw new InvalidDocument(`${path}.data.props.${key} must be a string, a number or a boolean`);
      return [key, String(value)];
    });
    return tag(name, Object.fromEntries(attributes), []);
  }

  /** The `item` blocks of tabs or a stepper as the `tag`s that write them. */
  items(node: Record<string, unknown>, item: string, tagName: string, path: string): BlockContent[] {
    return this.nodesOf(node, path).map((child, i) => {
      const childPath = `${path}.nodes[${i}]`;
      if (child.type !== item) throw new InvalidDocument(`${childPath} must be a ${item} block`);
      const data = this.dataOf(child, childPath);
      const attributes = ITEM_ATTRIBUTES[tagName]?.(data) ?? {};
      return tag(tagName, attributes, this.childBlocks(child, childPath));
    });
  }

  table(node: Record<string, unknown>, data: Record<string, unknown>, path: string): Table {
    const view = isObject(data.view) ? data.view : {};
    const definition = isObject(data.definition) ? data.definition : {};
    const records = isObject(data.records) ? data.records : {};
    const columns = Array.isArray(view.columns)
      ? view.columns.filter((c): c is string => typeof c === "string")
      : Object.keys(definition);
    const fragments = new Map<string, Record<string, unknown>>();
    if (Array.isArray(node.fragments))
      for (const f of node.fragments)
        if (isObject(f) && typeof f.fragment === "string") fragments.set(f.fragment, f);
    const columnOf = (id: string) => (isObject(definition[id]) ? definition[id] : {});
    const header = columns.map(
      (id): TableCell => ({ type: "tableCell", children: textChildren(String(columnOf(id).title ?? "")) }),
    );
    const sorted = Object.values(records)
      .filter(isObject)
      .sort((a, b) => String(a.orderIndex ?? "").localeCompare(String(b.orderIndex ?? "")));
    const rows = sorted.map((record) => {
      const values = isObject(record.values) ? record.values : {};
      return {
        type: "tableRow" as const,
        children: columns.map((id): TableCell => {
          const value = values[id];
          const cellFragment = typeof value === "string" ? fragments.get(value) : undefined;
          if (cellFragment) {
            const blocks = this.childBlocks(cellFragment, `${path}.fragments`);
            return {
              type: "tableCell",
              children: blocks.flatMap((b) =>
                b.type === "paragraph" ? b.children : textChildren(textOf(b)),
              ),
            };
          }
          return {
            type: "tableCell",
            children: textChildren(
              value === undefined || value === null ? "" : typeof value === "object" ? "" : String(value),
            ),
          };
        }),
      };
    });
    // Left is the default, which Git Sync writes `---`.
    const align = columns.map((id) => {
      const alignment = columnOf(id).textAlignment;
      return alignment === "center" || alignment === "right" ? alignment : null;
    });
    return { type: "table", align, children: [{ type: "tableRow", children: header }, ...rows] };
  }

  /** The text and inlines of a paragraph or heading as phrasing nodes. */
  inlines(node: Record<string, unknown>, path: string): PhrasingContent[] {
    const items: InlineItem[] = [];
    const add = (children: readonly Record<string, unknown>[], childPath: string) => {
      for (const [i, child] of children.entries()) {
        const at = `${childPath}.nodes[${i}]`;
        if (child.object === "text") items.push(...this.leaves(child, at));
        else if (child.object === "inline") items.push(...this.inline(child, at));
        else throw new InvalidDocument(`${at} must be a text or an inline`);
      }
    };
    add(this.nodesOf(node, path), path);
    return phrasing(mergeLeaves(items));
  }

  leaves(node: Record<string, unknown>, path: string): MarkedText[] {
    const { leaves } = node;
    if (!Array.isArray(leaves)) throw new InvalidDocument(`${path}.leaves must be a list`);
    return leaves.map((leafValue, i) => {
      const at = `${path}.leaves[${i}]`;
      if (!isObject(leafValue) || typeof leafValue.text !== "string")
        throw new InvalidDocument(`${at} must be a leaf with a text`);
      const marks = Array.isArray(leafValue.marks) ? leafValue.marks : [];
      return {
        text: leafValue.text,
        marks: new Set(
          marks.flatMap((mark) => (isObject(mark) && typeof mark.type === "string" ? [mark.type] : [])),
        ),
      };
    });
  }

  plainText(node: Record<string, unknown>, path: string): string {
    return this.nodesOf(node, path)
      .map((child, i) =>
        child.object === "text"
          ? this.leaves(child, `${path}.nodes[${i}]`)
              .map((l) => l.text)
              .join("")
          : "",
      )
      .join("");
  }

  inline(node: Record<string, unknown>, path: string): InlineItem[] {
    const data = this.dataOf(node, path);
    switch (node.type) {
      case "link": {
        const children = this.inlines(node, path);
        const url = urlOfRef(data.ref, `${path}.data.ref`);
        return [{ type: "link", url, children, ...(data.literal === true && { data: { literal: true } }) }];
      }
      case "inline-image":
        return [
          {
            type: "image",
            url: urlOfRef(data.ref, `${path}.data.ref`),
            alt: typeof data.alt === "string" ? data.alt : null,
          },
        ];
      case "emoji":
        return [{ text: emojiOf(stringField(data, "code", path)), marks: new Set() }];
      case "inline-math":
        return [{ type: "inlineMath", value: stringField(data, "formula", path) }];
      case "mention": {
        const url = urlOfRef(data.ref, `${path}.data.ref`);
        const children = this.inlines(node, path);
        return [
          {
            type: "link",
            url,
            title: "mention",
            children: children.length > 0 ? children : [{ type: "text", value: url }],
          },
        ];
      }
      case "html": {
        const html = stringField(data, "html", path);
        if (!HTML_TAG.test(html))
          throw new InvalidDocument(`${path}.data.html must be one HTML tag or comment`);
        return [{ type: "html", value: html }];
      }
      case "annotation":
      case "expression":
      case "button":
      case "icon":
        return this.nodesOf(node, path).flatMap((child, i) =>
          child.object === "text" ? this.leaves(child, `${path}.nodes[${i}]`) : [],
        );
      default:
        throw new InvalidDocument(
          `${path}: Quire cannot store an inline of type ${JSON.stringify(node.type)} as Markdown`,
        );
    }
  }
}

/** Phrasing as HTML, as Git Sync writes a summary's: marks as their elements, `html` as it was. */
function htmlOf(nodes: readonly PhrasingContent[]): string {
  return nodes
    .map((node) => {
      switch (node.type) {
        case "html":
          return node.value;
        case "strong":
          return `<strong>${htmlOf(node.children)}</strong>`;
        case "emphasis":
          return `<em>${htmlOf(node.children)}</em>`;
        case "delete":
          return `<s>${htmlOf(node.children)}</s>`;
        case "inlineCode":
          return toHtml(h("code", node.value));
        case "break":
          return "<br>";
        case "link":
          return toHtml(h("a", { href: node.url }, textOf(node)));
        default:
          return toHtml({ type: "text", value: textOf(node) });
      }
    })
    .join("");
}

/** A block's icon (a hint's, a tab's) as its tag's attribute. */
function iconOf(data: Record<string, unknown>): Record<string, string> {
  return typeof data.icon === "string" && data.icon ? { icon: data.icon } : {};
}

/** GitBook's emoji code, a code point in hex (`1f600`), as the character. */
function emojiOf(code: string): string {
  const points = code.split("-").map((part) => Number.parseInt(part, 16));
  return points.every((point) => Number.isInteger(point) && point >= 0 && point <= 0x10ffff)
    ? String.fromCodePoint(...points)
    : "";
}

/** Adjacent texts of the same marks as one, empty ones dropped: what the document's leaves mean. */
function mergeLeaves(items: readonly InlineItem[]): InlineItem[] {
  const out: InlineItem[] = [];
  for (const item of items) {
    if ("marks" in item && item.text === "") continue;
    const last = out.at(-1);
    if (
      last &&
      "marks" in last &&
      "marks" in item &&
      [...last.marks].sort().join() === [...item.marks].sort().join()
    )
      out[out.length - 1] = { text: last.text + item.text, marks: last.marks };
    else out.push(item);
  }
  return out;
}

function textChildren(value: string): PhrasingContent[] {
  return value ? [{ type: "text", value }] : [];
}

function tag(name: string, attributes: Record<string, string>, children: RootContent[]): GitBookTag {
  return { type: "gitbookTag", name, attributes, children };
}

function attributeText(value: string): string {
  return `"${value.replace(/"/g, "&quot;")}"`;
}

/** Text ending, or starting, where an `_` can close, or open, emphasis: at a space or ASCII punctuation. */
const WORD_BOUNDARY_BEFORE = /(?:^|[\s!-/:-@[-`{-~])$/;
const WORD_BOUNDARY_AFTER = /^(?:$|[\s!-/:-@[-`{-~])/;

/** Emphasis beside a letter, a digit or a symbol, where `_` can neither open nor close. */
const emphasisInWords = new WeakSet<Emphasis>();

function markEmphasisInWords(root: Root): void {
  visit(root, "emphasis", (node, index, parent) => {
    const before = index !== undefined ? parent?.children[index - 1] : undefined;
    const after = index !== undefined ? parent?.children[index + 1] : undefined;
    if (
      (before?.type === "text" && !WORD_BOUNDARY_BEFORE.test(before.value)) ||
      (after?.type === "text" && !WORD_BOUNDARY_AFTER.test(after.value))
    )
      emphasisInWords.add(node);
  });
}

/**
 * Emphasis as GitBook writes it, `_` but in words, `*` there; the writer chooses with the text around
 * it, and where neither can open or close writes a character reference (`edite&#x64;*#tag*`).
 */
const emphasis = Object.assign(
  (...args: Parameters<typeof defaultHandlers.emphasis>) => defaultHandlers.emphasis(...args),
  {
    peek: defaultHandlers.emphasis.peek,
    attention: (node: Emphasis) => ({
      construct: "emphasis",
      markers: emphasisInWords.has(node) ? ["*", "_"] : ["_", "*"],
      sizes: [1],
    }),
  },
);

declare module "mdast" {
  interface LinkData {
    /** Written as its address alone (`https://x.y`), as it was read. */
    literal?: boolean;
  }
}

/**
 * remark-gfm's writer without its escapes of the characters that make a literal link (`Lambda\@Edge`,
 * `new\...`, which GitBook does not write): they protect nothing, as remark-gfm links the addresses
 * of a text once it is parsed, escaped or not.
 */
function escapingOnlyLiteralLinks(this: Processor): void {
  const literal = (unsafe: Unsafe) =>
    unsafe.notInConstruct?.includes("autolink") && ["@", ".", ":"].includes(unsafe.character);
  const strip = (extension: ToMarkdownOptions): ToMarkdownOptions => ({
    ...extension,
    ...(extension.unsafe && { unsafe: extension.unsafe.filter((unsafe) => !literal(unsafe)) }),
    ...(extension.extensions && { extensions: extension.extensions.map(strip) }),
  });
  const data = this.data();
  data.toMarkdownExtensions = (data.toMarkdownExtensions ?? []).map(strip);
}

/**
 * A link GFM reads from its address alone (`https://x.y`, `support@x.y`, `www.x.y`), where what is
 * around it ends it as it ends there.
 */
function mayBeLiteral(node: Link, parent: Parents | undefined): boolean {
  const text = textOf(node);
  if (node.title || !(node.url === text || node.url === `mailto:${text}` || node.url === `http://${text}`))
    return false;
  const siblings: readonly Nodes[] = parent?.children ?? [];
  const at = siblings.indexOf(node);
  const before = siblings[at - 1];
  const after = siblings[at + 1];
  return (
    (before === undefined || (before.type === "text" && /(?:^|[\s(])$/.test(before.value))) &&
    (after === undefined || (after.type === "text" && /^(?:$|\s|[.,:;!?)]+(?:\s|$))/.test(after.value)))
  );
}

/** Whether Markdown written for a link without its brackets reads as that link. */
function readsAsLink(markdown: string, node: Link): boolean {
  const [paragraph, ...more] = parse(markdown).children;
  if (paragraph?.type !== "paragraph" || more.length > 0) return false;
  let link: Link | undefined;
  visit(paragraph, "link", (found) => {
    link ??= found;
  });
  return link?.url === node.url && textOf(paragraph) === textOf(node);
}

/**
 * Markdown as GitBook's Git Sync writes it: `*` bullets (an item of several blocks loose, indented 4),
 * `_` emphasis, links as `[text](url)`, and its blocks as the tag, the body and the end tag, each on
 * lines of their own with no blank line between.
 */
const writer = unified()
  .use(remarkGfm)
  .use(remarkMath, MATH)
  .use(escapingOnlyLiteralLinks)
  .use(remarkFrontmatter)
  .use(remarkStringify, {
    bullet: "*",
    emphasis: "_",
    resourceLink: true,
    fence: "`",
    fences: true,
    // Not `---`: opening a body, it would start front matter.
    rule: "*",
    listItemIndent: "mixed",
    handlers: {
      emphasis,
      link(node: Link, parent, state, info) {
        if (node.data?.literal && mayBeLiteral(node, parent)) {
          const bare = state.containerPhrasing(node, info);
          if (readsAsLink(bare, node)) return bare;
        }
        return defaultHandlers.link(node, parent, state, info);
      },
      gitbookTag(node: GitBookTag, _parent, state, info) {
        const attributes = Object.entries(node.attributes).map(
          ([key, value]) => ` ${key}=${attributeText(value)}`,
        );
        // A condition is written as it is; another tag's value without a name, quoted.
        const argument =
          node.argument === undefined
            ? ""
            : ` ${node.name === "if" ? node.argument : attributeText(node.argument)}`;
        const open = `{% ${node.name}${argument}${attributes.join("")} %}`;
        const bodiless = ["include", "embed"].includes(node.name) || integrationOf(node.name);
        if (bodiless || (node.name === "file" && node.children.length === 0)) return open;
        const body = node.children.length > 0 ? `${state.containerFlow(node, info)}\n` : "";
        return `${open}\n${body}{% end${node.name} %}`;
      },
    },
  });

function write(nodes: RootContent[]): string {
  const root: Root = { type: "root", children: nodes };
  markEmphasisInWords(root);
  return writer.stringify(root);
}

/** A block's meaning, for finding it again: keys and output-only `meta` left out. */
function canonical(node: unknown): string {
  return JSON.stringify(node, (key, value) =>
    key === "key" || key === "meta" || (key === "data" && isObject(value) && Object.keys(value).length === 0)
      ? undefined
      : value,
  );
}

/** The front matter `previous` opens with, a blank line after it when a body `follows`; "" without one. */
function frontMatterOf(previous: string, follows: boolean, tree = parse(previous)): string {
  // Only what reads as front matter (YAML of keys): `---` lines around other text are the body's.
  const frontMatter = tree.children[0]?.type === "yaml" ? (FRONT_MATTER.exec(previous)?.[0] ?? "") : "";
  return frontMatter && follows && !frontMatter.endsWith("\n\n") ? `${frontMatter}\n` : frontMatter;
}

/** A block of the previous body: what it means, and where it was written. */
interface WrittenBlock extends Span {
  canonical: string;
  /** One of GitBook's blocks written as its tag, its body and its end tag: what an edit inside keeps. */
  inner?: InnerText;
}

/** Where a block's tags and body were written, its kind and data (its body's blocks aside). */
interface InnerText {
  type: string;
  data: string;
  /** Of a block of items (tabs…): the tag its items are written with. */
  itemTag?: string;
  open: Span;
  close: Span;
  children: WrittenBlock[];
}

/** GitBook's blocks of blocks, by tag, whose body is written between their tags at the margin. */
const BODY_TAGS = new Set(["hint", "if", "prompt", "tab", "step", "column", "update"]);

/**
 * The blocks of siblings, each with the text it was written as where one node (or one expandable)
 * gave it, and within GitBook's blocks of blocks their body's blocks so (`inner`).
 */
function writtenOf(
  groups: ReturnType<typeof topLevelBlocks>,
  converter: BlockConverter,
  markdown: string,
): WrittenBlock[] {
  return groups.flatMap(({ first, last, span, blocks }) => {
    const [only] = blocks;
    if (blocks.length !== 1 || !only || !span) return [];
    const inner =
      first === last && first.type === "gitbookTag" ? innerOf(first, only, converter, markdown) : undefined;
    return [{ canonical: canonical(only), ...span, ...(inner && { inner }) }];
  });
}

function innerOf(
  tag: GitBookTag,
  block: DocumentBlock,
  converter: BlockConverter,
  markdown: string,
): InnerText | undefined {
  const span = spanOf(tag, tag);
  const first = tag.children[0];
  const last = tag.children.at(-1);
  const body = first && last && spanOf(first, last);
  // Written as its tags (not a GitHub alert, say), its body at the margin between them.
  const tags = span && markdown.startsWith("{%", span.start) && markdown.slice(0, span.end).endsWith("%}");
  if (!span || !body || !tags) return undefined;
  let children: WrittenBlock[];
  const item = ITEM_BLOCKS[tag.name]?.item;
  if (item) {
    // Items, each its own tag: paired with the item blocks they give, in order.
    const items = block.nodes ?? [];
    if (items.length !== tag.children.length) return undefined;
    children = tag.children.flatMap((child, i) => {
      const itemSpan = spanOf(child, child);
      const itemBlock = items[i] as DocumentBlock;
      if (child.type !== "gitbookTag" || child.name !== item || !itemSpan) return [];
      const inner = innerOf(child, itemBlock, converter, markdown);
      return [{ canonical: canonical(itemBlock), ...itemSpan, ...(inner && { inner }) }];
    });
    if (children.length !== items.length) return undefined;
  } else if (BODY_TAGS.has(tag.name)) {
    children = writtenOf(spanned(converter.groups(tag.children)), converter, markdown);
  } else return undefined;
  return {
    type: block.type,
    data: canonical(block.data ?? {}),
    ...(item && { itemTag: item }),
    open: { start: span.start, end: body.start },
    close: { start: body.end, end: span.end },
    children,
  };
}

export function fromDocument({
  document,
  previous,
}: {
  document: unknown;
  previous?: string;
}): MarkdownOutcome {
  try {
    if (!isObject(document) || document.object !== "document")
      throw new InvalidDocument('document must be a document (object "document")');
    const reader = new DocumentReader();
    const nodes = reader.nodesOf(document, "document");
    const fresh = () => (nodes.length > 0 ? write(reader.blocks(nodes, "document")) : "");
    if (previous === undefined) return { markdown: fresh() };
    const kept = rewrite(reader, nodes, previous);
    if (canonical(toDocument(kept).nodes) === canonical(nodes)) return { markdown: kept };
    // Kept text beside new text can read differently (two lists in a row make one): then all is new
    // but the front matter, which a document does not hold.
    const body = fresh();
    return { markdown: `${frontMatterOf(previous, body !== "")}${body}` };
  } catch (error) {
    if (error instanceof InvalidDocument)
      return { invalid: `The document is not one Quire can store: ${error.message}.` };
    throw error;
  }
}

/**
 * The document written over `previous`: each block it kept (the same block, in the same order) keeps its
 * text, and the text between two kept neighbours; the front matter stays. Others are written anew, but
 * for one of GitBook's blocks of blocks edited inside, which keeps its tags and, so, its body's blocks.
 */
function rewrite(
  reader: DocumentReader,
  nodes: readonly Record<string, unknown>[],
  previous: string,
): string {
  const tree = parse(previous);
  const converter = new BlockConverter(definitionsOf(tree));
  const topLevel = topLevelBlocks(tree, converter);
  if (canonical(topLevel.flatMap(({ blocks }) => blocks)) === canonical(nodes)) return previous;
  const written = writtenOf(topLevel, converter, previous);
  const definitions = tree.children.flatMap((node) => {
    const span = node.type === "definition" && spanOf(node, node);
    return span ? [span] : [];
  });
  const pieces = keptPieces(reader, nodes, previous, written, "document");
  let markdown = frontMatterOf(previous, pieces.length > 0, tree) + joined(pieces, previous);
  const last = pieces.at(-1);
  markdown +=
    last?.block && last.at === written.length - 1
      ? previous.slice(last.block.end)
      : pieces.length > 0
        ? "\n"
        : "";
  const lost = definitions
    .map(({ start, end }) => previous.slice(start, end))
    .filter((text) => !markdown.includes(text));
  return lost.length > 0 ? `${markdown.replace(/\n*$/, "\n\n")}${lost.join("\n")}\n` : markdown;
}

/** A block's text over the previous body: kept (with where it was) or new. */
interface Piece {
  text: string;
  at?: number;
  block?: WrittenBlock;
}

function keptPieces(
  reader: DocumentReader,
  nodes: readonly Record<string, unknown>[],
  previous: string,
  written: readonly WrittenBlock[],
  path: string,
  itemTag?: string,
): Piece[] {
  let from = 0;
  return nodes.map((node, i): Piece => {
    const at = written.findIndex((block, j) => j >= from && block.canonical === canonical(node));
    const block = written[at];
    if (block) {
      from = at + 1;
      return { text: previous.slice(block.start, block.end), at, block };
    }
    // The block in its place, of the same kind and data, edited inside.
    const next = written[from];
    const inner = next?.inner;
    const nodePath = `${path}.nodes[${i}]`;
    if (next && inner && inner.type === node.type && inner.data === canonical(node.data ?? {})) {
      const children = reader.nodesOf(node, nodePath);
      const body = keptPieces(reader, children, previous, inner.children, nodePath, inner.itemTag);
      const text =
        previous.slice(inner.open.start, inner.open.end) +
        joined(body, previous) +
        previous.slice(inner.close.start, inner.close.end);
      return { text, at: from++, block: next };
    }
    const blocks = itemTag
      ? reader.items({ nodes: [node] }, String(node.type), itemTag, path)
      : reader.block(node, nodePath);
    return { text: write(blocks).replace(/\n+$/, "") };
  });
}

/** Pieces one after the other: two kept neighbours with the text that was between them. */
function joined(pieces: readonly Piece[], previous: string): string {
  return pieces
    .map((piece, i) => {
      const before = pieces[i - 1];
      if (!before) return piece.text;
      const kept = before.block && piece.block && piece.at === (before.at ?? -2) + 1;
      const between = kept ? previous.slice(before.block?.end, piece.block?.start) : "\n\n";
      return between + piece.text;
    })
    .join("");
}
