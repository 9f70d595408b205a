import type { Literal, Paragraph, Parent, PhrasingContent, Root, RootContent, Text } from "mdast";
import type { Extension as FromMarkdownExtension } from "mdast-util-from-markdown";
import type { Code, Construct, Effects, State } from "micromark-util-types";
import remarkFrontmatter from "remark-frontmatter";
import remarkGfm from "remark-gfm";
import remarkMath, { type Options as MathOptions } from "remark-math";
import remarkParse from "remark-parse";
import { type PluggableList, type Plugin, type Processor, unified } from "unified";
import type { Position } from "unist";
import { visit } from "unist-util-visit";
import { parse as parseYaml } from "yaml";
import { isMapping } from "../mapping.js";
import { FRONT_MATTER } from "./front-matter.js";

/**
 * GitBook's own markdown, as its editor and Git Sync write it, read into the mdast tree so that the
 * content engine's analysis and HTML both understand it: the `{% tag attrs %}…{% endtag %}` blocks
 * (hints, tabs, content references, embeds, steppers, code titles, files, includes, API references,
 * columns, conditions, updates, prompts, integrations' blocks),
 * GitHub-style alerts (`> [!NOTE]`), formulas (`$$…$$`, read by remark-math), and the front matter
 * `remark-frontmatter` has parsed. A block that is not closed, or a tag GitBook does not have, stays the
 * text it was written as.
 */

/** Where a meta link of a page leads: an http(s) URL, or a page (of another space when `space` is given). */
export type MetaLinkTarget = { kind: "url"; url: string } | { kind: "page"; page: string; space?: string };

/** What GitBook reads from a page's front matter, and the meta links Quire reads there too. */
export interface FrontMatter {
  description?: string;
  icon?: string;
  /** GitBook's page layout options (`title: { visible: false }`…), as written. */
  layout?: Record<string, unknown>;
  hidden?: boolean;
  /** Left out of search (GitBook's `noIndex`). */
  noIndex?: boolean;
  /** Search engines are asked not to index the page (GitBook's `noRobotsIndex`). */
  noRobotsIndex?: boolean;
  /** `canonical`: the page's canonical address. */
  canonical?: MetaLinkTarget;
  /** `alternates`: the page's other versions (its translations, say). */
  alternates?: MetaLinkTarget[];
}

/** A block rendered as the element `data.hName` with its children: remark-rehype renders unknown nodes so. */
export interface GitBookBlock extends Parent {
  type: "gitbookBlock";
  data: { hName: string; hProperties: { className: string[]; role?: string } };
}

/**
 * One of GitBook's blocks as written: its tag, attributes and body. What the plugin makes of the blocks
 * with `{ blocks: "tags" }`, for converting a body to GitBook's document (see document.ts); positioned
 * from its tag to its end tag when both were lines of their own.
 */
export interface GitBookTag extends Parent {
  type: "gitbookTag";
  /** As written: `hint`…, or `@integration/block` for an integration's block (see `integrationOf`). */
  name: string;
  attributes: Record<string, string>;
  /** The first value written without a name (`{% include "path" %}`). */
  argument?: string;
}

/** A line that is one known tag, as parsed; the plugin's transform reads it, so no tree keeps one. */
interface GitBookTagLine extends Literal {
  type: "gitbookTagLine";
}

declare module "mdast" {
  interface RootContentMap {
    gitbookBlock: GitBookBlock;
    gitbookTag: GitBookTag;
    gitbookTagLine: GitBookTagLine;
  }
  interface BlockContentMap {
    gitbookBlock: GitBookBlock;
    gitbookTag: GitBookTag;
    gitbookTagLine: GitBookTagLine;
  }
  interface RootData {
    frontMatter?: FrontMatter;
  }
}

declare module "micromark-util-types" {
  interface TokenTypeMap {
    gitbookTag: "gitbookTag";
  }
}

/**
 * The tags GitBook has, by how they end: a `required` block without its end tag stays text; an
 * `optional` one stands alone without it (its body, when closed, is a caption or details); `none`
 * have no end tag.
 */
const TAGS: Readonly<Record<string, "required" | "optional" | "none">> = {
  hint: "required",
  tabs: "required",
  tab: "required",
  "content-ref": "required",
  stepper: "required",
  step: "required",
  code: "required",
  columns: "required",
  column: "required",
  if: "required",
  updates: "required",
  update: "required",
  prompt: "required",
  "swagger-description": "required",
  "swagger-parameter": "required",
  "swagger-response": "required",
  embed: "optional",
  file: "optional",
  swagger: "optional",
  openapi: "optional",
  "page-ref": "none",
  include: "none",
};

/**
 * The name of an integration's block, `{% @github-files/github-code-block url="…" %}` as Git Sync
 * writes it: void, as `include`.
 */
const INTEGRATION = /^@([\w-]+)\/([\w-]+)$/;

/** The integration and block a tag's name names, when it is an integration's block. */
export function integrationOf(name: string): { integration: string; block: string } | undefined {
  const [, integration, block] = INTEGRATION.exec(name) ?? [];
  return integration && block ? { integration, block } : undefined;
}

/** How the tag `name` ends (see `TAGS`), when GitBook has it. */
function endOf(name: string): "required" | "optional" | "none" | undefined {
  return TAGS[name] ?? (integrationOf(name) ? "none" : undefined);
}

/** The classes (and role) the blocks' HTML carries, by element: what the sanitizer must let through. */
export const BLOCK_CLASSES: Readonly<Record<string, readonly string[]>> = {
  div: [
    "hint",
    "hint-info",
    "hint-success",
    "hint-warning",
    "hint-danger",
    "tabs",
    "embed",
    "file",
    "code-block",
    "integration",
  ],
  section: ["tab"],
  p: ["tab-title", "code-title", "block-note", "block-label"],
  ol: ["stepper"],
  li: ["step"],
  a: ["content-ref"],
};

const HINT_STYLES = new Set(["info", "success", "warning", "danger"]);

interface Tag {
  type: "tag";
  name: string;
  closing: boolean;
  attributes: Record<string, string>;
  /** The first value written without a name (`{% include "path" %}`). */
  argument?: string;
  raw: string;
  /** Where the tag was written, when it was a line of its own. */
  position?: Position;
}

// Never past the next `{%`: a text of many tags left open costs a scan of it, not one per tag. The
// name is taken whole (a lookahead, then it), else each of its ends is tried when no `%}` follows.
const TAG = /\{%\s*(?=(@[\w-]+\/[\w-]+|[a-z][\w-]*))\1((?:[^%{]|\{(?!%)|%(?!\}))*)%\}/g;
const ATTRIBUTE = /(?:([\w-]+)\s*=\s*)?(?:"([^"]*)"|'([^']*)'|([^\s"'=]+))/g;

/** Whether GitBook has the tag `name`: a block's, or the end tag of a block that has one. */
function isKnown(name: string): boolean {
  return endOf(name) !== undefined || (name.startsWith("end") && (TAGS[name.slice(3)] ?? "none") !== "none");
}

/** The tag `match` of `TAG` is, unless GitBook has no such tag. */
function tagOf(match: RegExpMatchArray): Tag | undefined {
  const [raw, name = "", rest = ""] = match;
  if (!isKnown(name)) return undefined;
  const closing = endOf(name) === undefined;
  const tag: Tag = { type: "tag", name: closing ? name.slice(3) : name, closing, attributes: {}, raw };
  // A condition is an expression, not attributes (`{% if visitor.claims.plan === "pro" %}`).
  if (name === "if") {
    tag.argument = rest.trim();
    return tag;
  }
  for (const [, key, ...values] of rest.matchAll(ATTRIBUTE)) {
    const value = values.find((v) => v !== undefined) ?? "";
    if (key) tag.attributes[key] = value;
    else tag.argument ??= value;
  }
  return tag;
}

function text(value: string): Text {
  return { type: "text", value };
}

function asText(tag: Tag): Paragraph {
  return { type: "paragraph", children: [text(tag.raw)] };
}

function block(hName: string, className: string[], children: RootContent[], role?: string): GitBookBlock {
  return {
    type: "gitbookBlock",
    data: { hName, hProperties: { className, ...(role && { role }) } },
    children,
  };
}

/** A paragraph of plain text with a class, for the labels the blocks show (tab titles, captions…). */
function label(className: string, value: string): Paragraph[] {
  return value
    ? [{ type: "paragraph", children: [text(value)], data: { hProperties: { className: [className] } } }]
    : [];
}

function linkTo(url: string, children: PhrasingContent[], className?: string): Paragraph[] {
  if (!url) return [];
  const data = className ? { hProperties: { className: [className] } } : undefined;
  return [{ type: "paragraph", children: [{ type: "link", url, children, ...(data && { data }) }] }];
}

function hint(style: string | undefined, children: RootContent[]): GitBookBlock {
  return block("div", ["hint", `hint-${style && HINT_STYLES.has(style) ? style : "info"}`], children, "note");
}

/**
 * A link card to `url`: its text is the body's link's, as GitBook writes it (`[Title](page.md)`), or
 * the URL; a body that is more than one link is kept after the card.
 */
function contentRef(url: string, body: RootContent[]): RootContent[] {
  const [only] = body;
  const links =
    only?.type === "paragraph" ? only.children.filter((c) => c.type !== "text" || c.value.trim()) : [];
  const [link] = links;
  if (body.length === 1 && links.length === 1 && link?.type === "link")
    return linkTo(url || link.url, link.children, "content-ref");
  return [...linkTo(url, [text(url)], "content-ref"), ...body];
}

/** The name a file's link shows: the last segment of its path, decoded when it can be. */
function fileName(src: string): string {
  const segment = src.split(/[?#]/)[0]?.split("/").pop() || src;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** What a block is made of in the tree: the nodes that render it, or the block as written. */
type MakeBlock = (tag: Tag, body: RootContent[], end?: Tag) => RootContent[];

/** The block as written (see `GitBookTag`). */
const asTag: MakeBlock = ({ name, attributes, argument, position }, children, end) => {
  const last = end ? end.position : position;
  const tag: GitBookTag = { type: "gitbookTag", name, attributes, children };
  if (argument !== undefined) tag.argument = argument;
  if (position && last) tag.position = { start: position.start, end: last.end };
  return [tag];
};

/** What a block is shown as: its HTML-rendering nodes, its body always among them. */
const render: MakeBlock = (tag, body) => {
  const { attributes: a } = tag;
  switch (tag.name) {
    case "hint":
      return [hint(a.style, body)];
    case "tabs":
      return [block("div", ["tabs"], body)];
    case "tab":
      return [block("section", ["tab"], [...label("tab-title", a.title ?? ""), ...body])];
    case "stepper":
      return [block("ol", ["stepper"], body)];
    case "step":
      return [block("li", ["step"], body)];
    case "content-ref":
      return contentRef(a.url ?? "", body);
    case "page-ref":
      return contentRef(a.page ?? "", []);
    case "embed":
      return [block("div", ["embed"], [...linkTo(a.url ?? "", [text(a.url ?? "")]), ...body])];
    case "file": {
      const src = a.src ?? "";
      const name = fileName(src);
      return [block("div", ["file"], [...linkTo(src, [text(name)]), ...body])];
    }
    case "code":
      return a.title ? [block("div", ["code-block"], [...label("code-title", a.title), ...body])] : body;
    case "include":
      return label("block-note", `Included content: ${tag.argument ?? a.src ?? ""}`);
    case "swagger":
    case "openapi": {
      const what = [a.method?.toUpperCase(), a.path, a.src].filter(Boolean).join(" ");
      return [hint("info", [...label("block-note", `API reference: ${what}`), ...body])];
    }
    case "swagger-parameter": {
      const details = [a.in, a.type, a.required === "true" && "required"].filter(Boolean).join(", ");
      return [...label("block-label", `${a.name ?? ""}${details && ` (${details})`}`), ...body];
    }
    case "swagger-response":
      return [...label("block-label", `Response ${a.status ?? ""}`.trim()), ...body];
    default: {
      const integration = integrationOf(tag.name);
      return integration ? [integrationBlock(integration, a)] : body;
    }
  }
};

/**
 * An integration's block, which only the integration can draw: a card to its URL when it has one, a
 * note naming it, and a diagram's source as code, rather than nothing a reader can follow.
 */
function integrationBlock(
  { integration, block: name }: { integration: string; block: string },
  a: Record<string, string>,
): GitBookBlock {
  const source: RootContent[] =
    integration === "mermaid" && a.content ? [{ type: "code", lang: "mermaid", value: a.content }] : [];
  return block(
    "div",
    ["integration"],
    [
      ...linkTo(a.url ?? "", [text(a.url ?? "")], "content-ref"),
      ...label("block-note", `Integration block: ${integration}/${name}`),
      ...source,
    ],
  );
}

type Item = RootContent | Tag;

/** The text a URL or address remark-gfm linked as written (`https://…`, not `[…](…)` nor `<…>`) shows. */
export function literalLinkText(node: PhrasingContent): string | undefined {
  const [only, ...more] = node.type === "link" ? node.children : [];
  if (only?.type !== "text" || more.length > 0) return undefined;
  const { start, end } = node.position ?? {};
  // Without a position, it was linked in a text after parsing, so as written.
  const written =
    start?.offset !== undefined && end?.offset !== undefined ? end.offset - start.offset : only.value.length;
  return written === only.value.length ? only.value : undefined;
}

/**
 * The paragraph's children with the URLs remark-gfm linked in a tag's attributes (`url="https://…"`)
 * back in the tag's text, where the tag can be read.
 */
function unlinkInTags(children: readonly PhrasingContent[]): PhrasingContent[] {
  const out: PhrasingContent[] = [];
  // The text written last while a tag in it is not closed: a text or URL after it is the tag's.
  let open: Text | undefined;
  for (const child of children) {
    const value = child.type === "text" ? child.value : literalLinkText(child);
    if (value === undefined || (!open && child.type !== "text")) {
      out.push(child);
      open = undefined;
      continue;
    }
    const opened = value.lastIndexOf("{%");
    const closed = value.lastIndexOf("%}");
    if (open) open.value += value;
    else if (opened > closed) {
      open = text(value);
      out.push(open);
    } else out.push(child);
    if (closed > opened) open = undefined;
  }
  return out;
}

/** The paragraph as paragraphs and the known tags written in its text, in order. */
function splitParagraph(paragraph: Paragraph, position?: Position): Item[] {
  const items: Item[] = [];
  let run: PhrasingContent[] = [];
  const flush = () => {
    const first = run[0];
    const last = run.at(-1);
    if (first?.type === "text") first.value = first.value.trimStart();
    if (last?.type === "text") last.value = last.value.trimEnd();
    run = run.filter((node) => node.type !== "text" || node.value !== "");
    if (run.length > 0) items.push({ type: "paragraph", children: run });
    run = [];
  };
  for (const child of unlinkInTags(paragraph.children)) {
    if (child.type !== "text") {
      run.push(child);
      continue;
    }
    let from = 0;
    for (const match of child.value.matchAll(TAG)) {
      const tag = tagOf(match);
      if (!tag) continue;
      run.push(text(child.value.slice(from, match.index)));
      flush();
      if (position) tag.position = position;
      items.push(tag);
      from = match.index + match[0].length;
    }
    run.push(text(child.value.slice(from)));
  }
  flush();
  return items;
}

function hasTag(paragraph: Paragraph): boolean {
  return unlinkInTags(paragraph.children).some(
    (child) => child.type === "text" && [...child.value.matchAll(TAG)].some((match) => tagOf(match)),
  );
}

/**
 * Siblings with the tags among them made blocks: each end tag closes the nearest open block of its
 * name, those opened after it left unclosed. One pass, so that many unclosed tags cost no more than
 * their number.
 */
function group(items: Item[], make: MakeBlock): RootContent[] {
  const out: RootContent[] = [];
  const open: { tag: Tag; at: number }[] = [];
  const openByName = new Map<string, number>();
  const pop = () => {
    const entry = open.pop() as { tag: Tag; at: number };
    openByName.set(entry.tag.name, (openByName.get(entry.tag.name) ?? 1) - 1);
    return entry;
  };
  // Its placeholder (its text) stays, unless the block may stand alone: then it renders, bodiless.
  const leaveUnclosed = ({ tag, at }: { tag: Tag; at: number }) => {
    if (TAGS[tag.name] === "optional") out.splice(at, 1, ...make(tag, []));
  };
  for (const item of items) {
    if (item.type !== "tag") out.push(item);
    else if (!item.closing && endOf(item.name) === "none") out.push(...make(item, []));
    else if (!item.closing) {
      open.push({ tag: item, at: out.length });
      openByName.set(item.name, (openByName.get(item.name) ?? 0) + 1);
      out.push(asText(item));
    } else if (!openByName.get(item.name)) out.push(asText(item));
    else {
      for (let entry = pop(); ; entry = pop()) {
        if (entry.tag.name === item.name) {
          const body = out.splice(entry.at + 1);
          out.splice(entry.at, 1, ...make(entry.tag, body, item));
          break;
        }
        leaveUnclosed(entry);
      }
    }
  }
  while (open.length > 0) leaveUnclosed(pop());
  return out;
}

function groupBlocks(parent: Parent, make: MakeBlock): void {
  for (const child of parent.children) if ("children" in child) groupBlocks(child, make);
  const tagged = (child: RootContent) =>
    child.type === "gitbookTagLine" || (child.type === "paragraph" && hasTag(child));
  if (!parent.children.some(tagged)) return;
  parent.children = group(
    parent.children.flatMap((child) => {
      if (child.type === "gitbookTagLine")
        return splitParagraph({ type: "paragraph", children: [text(child.value)] }, child.position);
      // A paragraph without a tag stays as parsed, where it was written.
      return child.type === "paragraph" && hasTag(child) ? splitParagraph(child) : [child];
    }),
    make,
  );
}

const ALERT = /^\[!(note|tip|important|warning|caution)\][ \t]*(?:\r?\n|$)/i;
const ALERT_STYLE: Readonly<Record<string, string>> = {
  note: "info",
  tip: "success",
  important: "info",
  warning: "warning",
  caution: "danger",
};

/** GitHub's alerts, blockquotes opened by a line `[!NOTE]`…, as hints of the matching style. */
function alertsToHints(tree: Root, make: MakeBlock): void {
  visit(tree, "blockquote", (quote, index, parent) => {
    const [first] = quote.children;
    if (first?.type !== "paragraph" || !parent || index === undefined) return;
    const [opening] = first.children;
    const match = opening?.type === "text" ? ALERT.exec(opening.value) : null;
    if (!match || opening?.type !== "text") return;
    opening.value = opening.value.slice(match[0].length);
    // `[!NOTE]` ended by a hard break rather than a line ending.
    if (opening.value === "" && first.children[1]?.type === "break") first.children.splice(0, 2);
    if (first.children.every((c) => c.type === "text" && c.value.trim() === "")) quote.children.shift();
    // The quote's own children array, which the visit goes on into (alerts in alerts).
    const style = ALERT_STYLE[match[1]?.toLowerCase() ?? ""] ?? "info";
    const tag: Tag = { type: "tag", name: "hint", closing: false, attributes: { style }, raw: "" };
    if (quote.position) tag.position = quote.position;
    parent.children.splice(index, 1, ...make(tag, quote.children));
  });
}

/** A meta link as front matter writes it: a URL, or `{ page, space }`; undefined for anything else. */
function metaLinkTarget(value: unknown): MetaLinkTarget | undefined {
  if (typeof value === "string")
    return URL.canParse(value) && /^https?:/i.test(value) ? { kind: "url", url: value } : undefined;
  if (!isMapping(value) || typeof value.page !== "string" || value.page === "") return undefined;
  if (value.space !== undefined && typeof value.space !== "string") return undefined;
  return { kind: "page", page: value.page, ...(typeof value.space === "string" && { space: value.space }) };
}

function pickFrontMatter(data: Record<string, unknown>): FrontMatter {
  const { description, icon, layout, hidden, noIndex, noRobotsIndex } = data;
  const canonical = metaLinkTarget(data.canonical);
  const alternates = (Array.isArray(data.alternates) ? data.alternates.map(metaLinkTarget) : []).filter(
    (target) => target !== undefined,
  );
  return {
    ...(typeof description === "string" && { description }),
    ...(typeof icon === "string" && { icon }),
    ...(isMapping(layout) && { layout }),
    ...(typeof hidden === "boolean" && { hidden }),
    ...(typeof noIndex === "boolean" && { noIndex }),
    ...(typeof noRobotsIndex === "boolean" && { noRobotsIndex }),
    ...(canonical && { canonical }),
    ...(alternates.length > 0 && { alternates }),
  };
}

/**
 * Front matter, whose node renders as nothing, read into `tree.data.frontMatter`; when it is not a
 * YAML mapping it was not meant as front matter, and stays text.
 */
/**
 * The processor that reads a body as GitBook writes it (CommonMark, GFM, front matter, GitBook's blocks),
 * then runs the plugins `after`. One of two per body: with remark-frontmatter only where the body opens with a
 * closed front matter. Its micromark extension (2.0.0) tries an unclosed `---` line to the end of the
 * body, and the lines it tried are then read without their containers: every later quote and list
 * became a paragraph.
 */
/** GitBook's formulas: `$$…$$` in a text, `$$` lines around a block's; a lone `$` is a dollar. */
export const MATH: MathOptions = { singleDollarTextMath: false };

export function gitBookReader(options: { blocks?: "rendered" | "tags" } = {}, after: PluggableList = []) {
  const make = (frontMatter: boolean) =>
    unified()
      .use(remarkParse)
      .use(remarkGfm)
      .use(remarkMath, MATH)
      .use(frontMatter ? [remarkFrontmatter] : [])
      .use(remarkGitBook, options)
      .use(after);
  const withFrontMatter = make(true);
  const without = make(false);
  return (markdown: string) => (FRONT_MATTER.test(markdown) ? withFrontMatter : without);
}

function readFrontMatter(tree: Root): void {
  const [first] = tree.children;
  if (first?.type !== "yaml") return;
  let data: unknown;
  try {
    data = parseYaml(first.value);
  } catch {
    data = undefined;
  }
  if (data === null || isMapping(data)) {
    tree.data = { ...tree.data, frontMatter: pickFrontMatter(data ?? {}) };
    return;
  }
  tree.children[0] = { type: "paragraph", children: [text(`---\n${first.value}\n---`)] };
}

const LEFT_CURLY_BRACE = 123;
const PERCENT = 37;
const RIGHT_CURLY_BRACE = 125;

/** Whether `char` goes on in the tag's name read so far: a word, or `@integration/block`. */
const continuesName = (name: string, char: string) =>
  /[\w-]/.test(char) ||
  (char === "@" && name === "") ||
  (char === "/" && name.startsWith("@") && !name.includes("/"));

/** Line endings and spaces as micromark codes them (`null` is the end of the input). */
const atLineEnd = (code: Code) => code === null || code === -5 || code === -4 || code === -3;
const isSpace = (code: Code) => code === -2 || code === -1 || code === 32;

/**
 * A line that is one known tag, `{% hint style="info" %}`, as its own block: GitBook writes its
 * tags on lines of their own, and as a block the line ends the paragraph, list item or quote before
 * it, where it would otherwise continue it (`- item\n{% endhint %}`).
 */
const tagLine: Construct = {
  name: "gitbookTag",
  tokenize(effects: Effects, ok: State, nok: State): State {
    let name = "";
    const afterClose: State = (code) => {
      if (atLineEnd(code)) {
        effects.exit("gitbookTag");
        return ok(code);
      }
      if (!isSpace(code)) return nok(code);
      effects.consume(code);
      return afterClose;
    };
    const inside: State = (code) => {
      if (atLineEnd(code)) return nok(code);
      effects.consume(code);
      return code === PERCENT ? percentInside : inside;
    };
    const percentInside: State = (code) => {
      if (code !== RIGHT_CURLY_BRACE) return inside(code);
      effects.consume(code);
      return afterClose;
    };
    const inName: State = (code) => {
      if (code !== null && code > 0 && continuesName(name, String.fromCharCode(code))) {
        name += String.fromCharCode(code);
        effects.consume(code);
        return inName;
      }
      return isKnown(name) ? inside(code) : nok(code);
    };
    const beforeName: State = (code) => {
      if (!isSpace(code)) return inName(code);
      effects.consume(code);
      return beforeName;
    };
    const open: State = (code) => {
      if (code !== PERCENT) return nok(code);
      effects.consume(code);
      return beforeName;
    };
    return (code) => {
      effects.enter("gitbookTag");
      effects.consume(code);
      return open;
    };
  },
};

// Not a text node: remark-gfm's autolinking, which runs on text nodes once parsed, would link its URLs.
const tagLineFromMarkdown: FromMarkdownExtension = {
  enter: {
    gitbookTag(token) {
      // Unescaped as a paragraph's text is, should the tag stay text.
      const value = this.sliceSerialize(token)
        .trim()
        .replace(/\\([!-/:-@[-`{-~])/g, "$1");
      this.enter({ type: "gitbookTagLine", value }, token);
    },
  },
  exit: {
    gitbookTag(token) {
      this.exit(token);
    },
  },
};

/**
 * The plugin, after remark-parse, remark-gfm and remark-frontmatter: GitBook's blocks become the nodes
 * that render them (HTML, PDF, search), or with `{ blocks: "tags" }` the blocks as written.
 */
export const remarkGitBook: Plugin<[{ blocks?: "rendered" | "tags" }?], Root> = function (
  this: Processor,
  { blocks = "rendered" } = {},
) {
  const make = blocks === "tags" ? asTag : render;
  const data = this.data();
  data.micromarkExtensions = [...(data.micromarkExtensions ?? []), { flow: { [LEFT_CURLY_BRACE]: tagLine } }];
  data.fromMarkdownExtensions = [...(data.fromMarkdownExtensions ?? []), tagLineFromMarkdown];
  return (tree, file) => {
    readFrontMatter(tree);
    if (typeof file.value === "string")
      endHtmlAtTags(tree, file.value, (markdown) => this.parse(markdown) as Root);
    alertsToHints(tree, make);
    groupBlocks(tree, make);
  };
};

/** A line that is one tag GitBook has, as `tagLine` reads one. */
function isTagLine(line: string): boolean {
  const [match, ...more] = line.trim().matchAll(TAG);
  return match !== undefined && more.length === 0 && match[0] === line.trim() && tagOf(match) !== undefined;
}

/**
 * HTML that runs on to a tag's line, as CommonMark's HTML blocks run to a blank line
 * (`<figure>…</figure>` then `{% endcolumn %}`), ended before it, as GitBook reads it: from each tag's
 * line to the next, the lines (none blank) are read again, once each.
 */
function endHtmlAtTags(parent: Parent, markdown: string, parse: (markdown: string) => Root): void {
  for (let i = 0; i < parent.children.length; i++) {
    const node = parent.children[i] as RootContent;
    if ("children" in node) {
      endHtmlAtTags(node, markdown, parse);
      continue;
    }
    if (node.type !== "html") continue;
    const lines = node.value.split("\n");
    const tags = lines.flatMap((line, n) => (n > 0 && isTagLine(line) ? [n] : []));
    const [first] = tags;
    if (first === undefined) continue;
    const kept = lines.slice(0, first).join("\n");
    const { start, end } = node.position ?? {};
    // Positioned in the text where the HTML is as written (not in a quote or an item, whose marks it lacks).
    const at =
      start?.offset !== undefined &&
      end?.offset !== undefined &&
      markdown.slice(start.offset, end.offset) === node.value
        ? start
        : undefined;
    const lineStarts: number[] = [];
    for (let offset = at?.offset ?? 0, n = 0; n < lines.length; offset += (lines[n]?.length ?? 0) + 1, n++)
      lineStarts.push(offset);
    const html: RootContent = { ...node, value: kept };
    if (at?.offset !== undefined)
      html.position = {
        start: at,
        end: {
          line: at.line + first - 1,
          column: (lines[first - 1]?.length ?? 0) + 1,
          offset: at.offset + kept.length,
        },
      };
    else delete html.position;
    const rest = tags.flatMap((from, n) => {
      const text = lines.slice(from, tags[n + 1]).join("\n");
      const part = parse(text);
      endHtmlAtTags(part, text, parse);
      const by = at && { line: at.line + from - 1, offset: lineStarts[from] as number };
      return part.children.map((child) => positioned(child, by));
    });
    parent.children.splice(i, 1, html, ...rest);
    i += rest.length;
  }
}

/**
 * A node read from a part of the text, positioned in the whole (`by` lines and characters on). Where
 * the part is not the text as written (HTML in a quote, without its marks), its positions stay the
 * part's: how long what it spans was written holds, where does not (nothing reads it there).
 */
function positioned<T extends RootContent>(node: T, by: { line: number; offset: number } | undefined): T {
  if (!by) return node;
  visit(node, (child) => {
    const { start, end } = child.position ?? {};
    if (!start || !end) return;
    child.position = {
      start: { ...start, line: start.line + by.line, offset: (start.offset ?? 0) + by.offset },
      end: { ...end, line: end.line + by.line, offset: (end.offset ?? 0) + by.offset },
    };
  });
  return node;
}
