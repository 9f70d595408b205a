import type {
  DOMOutputSpec,
  Mark,
  MarkSpec,
  NodeSpec,
  Node as PMNode,
  TagParseRule,
} from "prosemirror-model";

/**
 * How the editor shows each node and mark (`toDOM`) and what it makes of pasted HTML (`parseDOM`).
 * Blocks take the classes of the engine's rendered HTML (`hint hint-info`, `tab`…), so the editor
 * looks as the reading view does (styles/blocks.css). No `style` attribute: the app's policy forbids
 * inline styles. Pasted HTML makes new blocks (no key, no source), which the server writes as new.
 */

type Data = Record<string, unknown>;
const dataOf = (node: PMNode | Mark): Data => (node.attrs.data as Data | null) ?? {};
const text = (value: unknown) => (typeof value === "string" ? value : "");

/** A block the editor shows whole and does not edit inside: what it is, and its one telling field. */
const atom =
  (label: string, field?: string) =>
  (node: PMNode): DOMOutputSpec => {
    const detail = field ? text(dataOf(node)[field]) : "";
    return [
      "div",
      { class: "editor-atom", "data-block": label, contenteditable: "false" },
      detail ? `${label}: ${detail}` : label,
    ];
  };

/** A container block: a `div` with the engine's class for it. */
const container =
  (className: string) =>
  (node: PMNode): DOMOutputSpec => {
    const title = text(dataOf(node).title);
    return ["div", { class: className, ...(title && { "data-title": title }) }, 0];
  };

const headingLevel = (node: PMNode) => Math.min(Math.max(Number(node.attrs.level) || 1, 1), 3);

export const nodeRendering: Record<string, Pick<NodeSpec, "toDOM" | "parseDOM">> = {
  paragraph: { toDOM: () => ["p", 0], parseDOM: [{ tag: "p" }] },
  // The page's title is the screen's heading: a document's first level is a section, as on the sites.
  heading: {
    toDOM: (node) => [`h${headingLevel(node) + 1}`, 0],
    // Pasted: a page's title (h1) and its first level of sections (h2) are both the first level here.
    parseDOM: [
      { tag: "h1", attrs: { level: 1 } },
      ...[1, 2, 3].map((level): TagParseRule => ({ tag: `h${level + 1}`, attrs: { level } })),
    ],
  },
  list_ordered: { toDOM: () => ["ol", 0], parseDOM: [{ tag: "ol" }] },
  list_unordered: { toDOM: () => ["ul", 0], parseDOM: [{ tag: "ul" }] },
  list_tasks: { toDOM: () => ["ul", { class: "tasks" }, 0] },
  list_item: {
    toDOM: (node) => {
      const checked = dataOf(node).checked;
      return ["li", typeof checked === "boolean" ? { "data-checked": String(checked) } : {}, 0];
    },
    parseDOM: [{ tag: "li" }],
  },
  blockquote: { toDOM: () => ["blockquote", 0], parseDOM: [{ tag: "blockquote" }] },
  hint: {
    toDOM: (node) => ["div", { class: `hint hint-${text(dataOf(node).style) || "info"}` }, 0],
  },
  code_block: {
    toDOM: (node) => {
      const { title, syntax } = dataOf(node);
      return ["pre", { ...(text(title) && { "data-title": text(title) }), "data-language": text(syntax) }, 0];
    },
    parseDOM: [{ tag: "pre", preserveWhitespace: "full" }],
  },
  code_line: { toDOM: () => ["code", { class: "code-line" }, 0] },
  divider: { toDOM: () => ["hr"], parseDOM: [{ tag: "hr" }] },
  images: { toDOM: container("images") },
  image: { toDOM: container("image") },
  file: { toDOM: container("file") },
  embed: { toDOM: atom("Embed", "url") },
  tabs: { toDOM: container("tabs-block") },
  tabs_item: { toDOM: container("tab") },
  content_ref: { toDOM: atom("Page link") },
  stepper: { toDOM: container("stepper") },
  stepper_step: { toDOM: container("step") },
  expandable: { toDOM: container("expandable") },
  columns: { toDOM: container("columns") },
  column: { toDOM: container("column") },
  if: { toDOM: container("if-block") },
  prompt: { toDOM: container("prompt") },
  updates: { toDOM: container("updates") },
  update: { toDOM: container("update") },
  math: { toDOM: atom("Math", "formula") },
  table: { toDOM: container("table-block") },
  swagger: { toDOM: atom("OpenAPI operation", "path") },
  reusable_content: { toDOM: atom("Reusable content") },
  fragment: {
    toDOM: (node) => ["div", { class: "fragment", "data-fragment": text(node.attrs.fragment) }, 0],
  },
  opaque: {
    toDOM: (node) => [
      "div",
      { class: "editor-atom opaque", contenteditable: "false" },
      `Kept as it is: ${text((node.attrs.json as Data).type) || "block"}`,
    ],
  },
  emoji: { toDOM: (node) => ["span", { class: "emoji" }, text(dataOf(node).code) || "□"] },
  inline_image: { toDOM: () => ["span", { class: "inline-atom" }, "Image"] },
  inline_math: { toDOM: (node) => ["span", { class: "inline-atom" }, text(dataOf(node).formula) || "Math"] },
  mention: { toDOM: () => ["span", { class: "inline-atom" }, "Mention"] },
  opaque_inline: {
    toDOM: (node) => [
      "span",
      { class: "inline-atom opaque" },
      text((node.attrs.json as Data).type) || "inline",
    ],
  },
};

/** A link's target as a place in the page (an anchor), an address, or nothing to follow. */
const hrefOf = (mark: Mark): string => {
  const ref = dataOf(mark).ref as Data | undefined;
  if (ref?.kind === "url") return text(ref.url);
  if (ref?.kind === "anchor") return `#${text(ref.anchor)}`;
  return "";
};

export const markRendering: Record<string, Pick<MarkSpec, "toDOM" | "parseDOM">> = {
  link: {
    toDOM: (mark) => ["a", { href: hrefOf(mark) || null, "data-link": "" }, 0],
    parseDOM: [
      {
        tag: "a[href]",
        getAttrs: (dom) => ({ data: { ref: { kind: "url", url: dom.getAttribute("href") ?? "" } } }),
      },
    ],
  },
  bold: { toDOM: () => ["strong", 0], parseDOM: [{ tag: "strong" }, { tag: "b" }] },
  italic: { toDOM: () => ["em", 0], parseDOM: [{ tag: "em" }, { tag: "i" }] },
  strikethrough: { toDOM: () => ["s", 0], parseDOM: [{ tag: "s" }, { tag: "del" }] },
  code: { toDOM: () => ["code", 0], parseDOM: [{ tag: "code" }] },
  keyboard: { toDOM: () => ["kbd", 0], parseDOM: [{ tag: "kbd" }] },
  color: { toDOM: () => ["span", { class: "text-color" }, 0] },
  other_mark: { toDOM: (mark) => ["span", { "data-mark": text(mark.attrs.type) }, 0] },
};

/** `specs` with how each shows and pastes. */
export function rendered<Name extends string, Spec extends NodeSpec | MarkSpec>(
  specs: Record<Name, Spec>,
  rendering: Record<string, Partial<Spec>>,
): Record<Name, Spec> {
  const entries = Object.entries<Spec>(specs).map(([name, spec]) => [name, { ...spec, ...rendering[name] }]);
  return Object.fromEntries(entries) as Record<Name, Spec>;
}
