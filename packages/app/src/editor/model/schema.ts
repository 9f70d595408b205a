import { type AttributeSpec, type MarkSpec, type NodeSpec, Schema } from "prosemirror-model";
import { markRendering, nodeRendering, rendered } from "./render.js";

/**
 * The editor's ProseMirror schema: one node per GitBook block or inline kind, one mark per GitBook mark,
 * so that a document maps onto it one to one (convert.ts). Every node and mark keeps what GitBook's JSON
 * has as attributes: `key`, `data`, `meta`, `isVoid` (null when the JSON has none) and `extra`, every
 * other field of the JSON that the node does not read (an atom's `nodes`, a block's unknown fields),
 * kept as it was. A kind the schema does not know is an `opaque` node (an `opaque_inline` within text)
 * holding the JSON verbatim.
 */

/** Which part of a block's JSON its node's content is: its `nodes` (text or blocks), its `fragments`, or none. */
export type Part = "inline" | "blocks" | "fragments" | "none";

export interface BlockKind {
  /** GitBook's type; a heading's is `heading-<level>`. */
  type: string;
  part: Part;
}

/** GitBook's block kinds by node name. Item kinds (`list_item`…) are no `block`: only their parent holds them. */
export const BLOCK_KINDS = {
  paragraph: { type: "paragraph", part: "inline" },
  heading: { type: "heading-", part: "inline" },
  list_ordered: { type: "list-ordered", part: "blocks" },
  list_unordered: { type: "list-unordered", part: "blocks" },
  list_tasks: { type: "list-tasks", part: "blocks" },
  list_item: { type: "list-item", part: "blocks" },
  blockquote: { type: "blockquote", part: "blocks" },
  hint: { type: "hint", part: "blocks" },
  code_block: { type: "code", part: "blocks" },
  code_line: { type: "code-line", part: "inline" },
  divider: { type: "divider", part: "none" },
  images: { type: "images", part: "blocks" },
  image: { type: "image", part: "fragments" },
  file: { type: "file", part: "fragments" },
  embed: { type: "embed", part: "none" },
  tabs: { type: "tabs", part: "blocks" },
  tabs_item: { type: "tabs-item", part: "blocks" },
  content_ref: { type: "content-ref", part: "none" },
  stepper: { type: "stepper", part: "blocks" },
  stepper_step: { type: "stepper-step", part: "blocks" },
  expandable: { type: "expandable", part: "fragments" },
  columns: { type: "columns", part: "blocks" },
  column: { type: "column", part: "blocks" },
  if: { type: "if", part: "blocks" },
  prompt: { type: "prompt", part: "blocks" },
  updates: { type: "updates", part: "blocks" },
  update: { type: "update", part: "blocks" },
  math: { type: "math", part: "none" },
  table: { type: "table", part: "fragments" },
  swagger: { type: "swagger", part: "none" },
  reusable_content: { type: "reusable-content", part: "none" },
} as const satisfies Record<string, BlockKind>;

export type BlockName = keyof typeof BLOCK_KINDS;

/** GitBook's inline kinds that are atoms (no editable text), by node name. A link is a mark (see `link`). */
export const INLINE_KINDS = {
  emoji: "emoji",
  inline_image: "inline-image",
  inline_math: "inline-math",
  mention: "mention",
} as const;

/** GitBook's marks by mark name; any other is an `other_mark` that keeps its type. */
export const MARK_KINDS = {
  bold: "bold",
  italic: "italic",
  strikethrough: "strikethrough",
  code: "code",
  keyboard: "keyboard",
  color: "color",
} as const;

const none: AttributeSpec = { default: null };
const FIELDS = { key: none, data: none, meta: none, isVoid: none, extra: none };

/** A node's attributes for the part of its JSON its content is (convert.ts reads them). */
function attrs(part: Part): Record<string, AttributeSpec> {
  switch (part) {
    case "inline":
      // `source`: the JSON's `nodes` the text came from, written back as they were while the text is
      // unchanged (leaves split, keys of texts and such, which ProseMirror's text does not keep).
      // `noNodes`: the JSON has no `nodes` (kept so while the node has no content).
      return { ...FIELDS, noNodes: { default: false }, source: none };
    case "blocks":
      return { ...FIELDS, noNodes: { default: false } };
    case "fragments":
      return { ...FIELDS, noFragments: { default: false } };
    case "none":
      return FIELDS;
  }
}

const blockGroup = "block";
const block = (content: string, part: Part, spec: NodeSpec = {}): NodeSpec => ({
  content,
  group: blockGroup,
  attrs: attrs(part),
  ...spec,
});
const item = (content: string, part: Part, spec: NodeSpec = {}): NodeSpec => ({
  content,
  attrs: attrs(part),
  ...spec,
});
const atomBlock: NodeSpec = { group: blockGroup, atom: true, attrs: attrs("none") };
const atomInline: NodeSpec = {
  group: "inline",
  inline: true,
  atom: true,
  attrs: { key: none, data: none, isVoid: none, extra: none },
};

const nodes = {
  doc: { content: "block*", attrs: { data: none, extra: none, noNodes: { default: false } } },
  // The first block of the group: what ProseMirror creates where a block is wanted.
  paragraph: block("inline*", "inline"),
  heading: block("inline*", "inline", {
    attrs: { ...attrs("inline"), level: { default: 1 } },
    defining: true,
  }),
  list_ordered: block("list_item*", "blocks"),
  list_unordered: block("list_item*", "blocks"),
  list_tasks: block("list_item*", "blocks"),
  list_item: item("block*", "blocks", { defining: true }),
  blockquote: block("block*", "blocks"),
  hint: block("block*", "blocks", { defining: true }),
  // `code` is GitBook's mark's name too, which ProseMirror would not tell apart.
  code_block: block("code_line*", "blocks", { defining: true }),
  code_line: item("inline*", "inline", { code: true }),
  divider: atomBlock,
  images: block("image*", "blocks"),
  // An image stands in `images`, and alone where GitBook has one so.
  image: block("fragment*", "fragments"),
  file: block("fragment*", "fragments"),
  embed: atomBlock,
  tabs: block("tabs_item*", "blocks"),
  tabs_item: item("block*", "blocks", { defining: true, isolating: true }),
  content_ref: atomBlock,
  stepper: block("stepper_step*", "blocks"),
  stepper_step: item("block*", "blocks", { defining: true, isolating: true }),
  expandable: block("fragment*", "fragments"),
  columns: block("column*", "blocks"),
  column: item("block*", "blocks", { defining: true, isolating: true }),
  /** Content shown only when its `data.expression` holds (GitBook's conditional content). */
  if: block("block*", "blocks"),
  /** A prompt for readers to copy to an AI assistant, its text the prompt. */
  prompt: block("block*", "blocks"),
  updates: block("update*", "blocks"),
  update: item("block*", "blocks", { defining: true, isolating: true }),
  math: atomBlock,
  table: block("fragment*", "fragments"),
  swagger: atomBlock,
  reusable_content: atomBlock,
  /** A named part of a block (an image's caption, an expandable's title and body, a table's cell). */
  fragment: {
    content: "block*",
    attrs: { key: none, fragment: none, type: none, extra: none },
    isolating: true,
  },
  /** A block the editor does not know or cannot hold as it is: its JSON, written back verbatim. */
  opaque: { group: blockGroup, atom: true, attrs: { json: {} } },
  text: { group: "inline" },
  emoji: atomInline,
  inline_image: atomInline,
  inline_math: atomInline,
  mention: atomInline,
  /** An inline the editor does not know or cannot hold: its JSON, written back verbatim. */
  opaque_inline: { group: "inline", inline: true, atom: true, attrs: { json: {} } },
} satisfies Record<string, NodeSpec>;

const markFields = { data: none, extra: none };
const marks = {
  /**
   * GitBook's link inline, as a mark: typing, selecting and formatting across a link's edge work as in
   * any text, where an inline node with content makes them awkward. Its attributes are the inline's
   * JSON but its `nodes` (the text the mark is on), and `instance`, its rank among the links of its
   * block: two links next to each other with the same target stay two links.
   */
  link: {
    attrs: { key: none, data: none, isVoid: none, extra: none, instance: none },
    inclusive: false,
  },
  bold: { attrs: markFields },
  italic: { attrs: markFields },
  strikethrough: { attrs: markFields },
  code: { attrs: markFields },
  keyboard: { attrs: markFields },
  color: { attrs: markFields },
  /** A mark the editor does not know: its type kept; several may be on the same text. */
  other_mark: { attrs: { type: {}, ...markFields }, excludes: "" },
} satisfies Record<string, MarkSpec>;

export const schema = new Schema({
  nodes: rendered<keyof typeof nodes, NodeSpec>(nodes, nodeRendering),
  marks: rendered<keyof typeof marks, MarkSpec>(marks, markRendering),
});
