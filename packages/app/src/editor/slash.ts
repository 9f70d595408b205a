import type { DocumentBlock } from "@quire/client";
import type { Node as PMNode } from "prosemirror-model";
import { type EditorState, Plugin, PluginKey, TextSelection, type Transaction } from "prosemirror-state";
import type { MessageKey } from "../i18n/index.js";
import { toEditor } from "./model/convert.js";
import { schema } from "./model/schema.js";

const { nodes } = schema;

/** A block the slash menu inserts: its name, and the node that replaces the `/…` paragraph. */
export interface SlashItem {
  id: string;
  label: MessageKey;
  create(): PMNode;
}

const paragraph = () => nodes.paragraph.create();

/** GitBook's JSON of an empty paragraph, or one reading `text`. */
const paragraphJson = (text = ""): DocumentBlock => ({
  object: "block",
  type: "paragraph",
  data: {},
  nodes: [{ object: "text", leaves: [{ object: "leaf", text, marks: [] }] }],
});

/** A block of GitBook's made from its JSON, as the server's engine writes it: exactly its structure. */
const fromJson = (block: DocumentBlock) => () =>
  toEditor({ object: "document", data: {}, nodes: [block] }).firstChild ?? paragraph();

const column = (id: string, title: string) => ({ id, title, type: "text", textAlignment: "left" });
const listOf = (list: typeof nodes.list_unordered) => () =>
  list.create(null, nodes.list_item.create(null, paragraph()));

export const SLASH_ITEMS: readonly SlashItem[] = [
  { id: "text", label: "editor.paragraph", create: paragraph },
  { id: "heading1", label: "editor.heading1", create: () => nodes.heading.create({ level: 1 }) },
  { id: "heading2", label: "editor.heading2", create: () => nodes.heading.create({ level: 2 }) },
  { id: "heading3", label: "editor.heading3", create: () => nodes.heading.create({ level: 3 }) },
  { id: "bullets", label: "editor.bulletList", create: listOf(nodes.list_unordered) },
  { id: "numbers", label: "editor.orderedList", create: listOf(nodes.list_ordered) },
  {
    id: "tasks",
    label: "editor.taskList",
    create: () =>
      nodes.list_tasks.create(null, nodes.list_item.create({ data: { checked: false } }, paragraph())),
  },
  { id: "quote", label: "editor.quote", create: () => nodes.blockquote.create(null, paragraph()) },
  {
    id: "hint",
    label: "editor.hint",
    create: () => nodes.hint.create({ data: { style: "info" } }, paragraph()),
  },
  {
    id: "code",
    label: "editor.codeBlock",
    create: () => nodes.code_block.create(null, nodes.code_line.create()),
  },
  { id: "divider", label: "editor.divider", create: () => nodes.divider.create() },
  {
    id: "tabs",
    label: "editor.tabs",
    create: fromJson({
      object: "block",
      type: "tabs",
      data: {},
      nodes: [{ object: "block", type: "tabs-item", data: { title: "Tab 1" }, nodes: [paragraphJson()] }],
    }),
  },
  {
    id: "expandable",
    label: "editor.expandable",
    create: fromJson({
      object: "block",
      type: "expandable",
      data: {},
      isVoid: true,
      fragments: ["expandable-title", "expandable-body"].map((part) => ({
        object: "fragment",
        fragment: part,
        type: part,
        nodes: [paragraphJson()],
      })),
    }),
  },
  {
    id: "stepper",
    label: "editor.stepper",
    create: fromJson({
      object: "block",
      type: "stepper",
      data: {},
      nodes: [{ object: "block", type: "stepper-step", data: {}, nodes: [paragraphJson()] }],
    }),
  },
  {
    id: "table",
    label: "editor.table",
    create: fromJson({
      object: "block",
      type: "table",
      data: {
        view: { type: "grid", columns: ["c0", "c1"], hideHeader: false },
        records: { r0: { orderIndex: "000000", values: { c0: "r0c0", c1: "r0c1" } } },
        definition: { c0: column("c0", "Column 1"), c1: column("c1", "Column 2") },
      },
      isVoid: true,
      fragments: ["r0c0", "r0c1"].map((cell) => ({
        object: "fragment",
        fragment: cell,
        nodes: [paragraphJson()],
      })),
    }),
  },
];

/** The slash menu as it stands: closed, or open on `/query` in the paragraph at `from`, `index` chosen. */
export type SlashState =
  | { open: false }
  | { open: true; from: number; to: number; query: string; items: readonly SlashItem[]; index: number };

const CLOSED: SlashState = { open: false };
export const slashKey = new PluginKey<SlashState>("slash");

/** The items whose name starts a word matching `query`, case aside. */
export const matching = (query: string, label: (item: SlashItem) => string) =>
  SLASH_ITEMS.filter((item) =>
    label(item)
      .toLowerCase()
      .split(/\s+/)
      .some((word) => word.startsWith(query.toLowerCase())),
  );

/** Where the menu opens: an empty selection at the end of a paragraph whose text is `/` and a word. */
function opening(state: EditorState, label: (item: SlashItem) => string): SlashState {
  const { selection } = state;
  if (!selection.empty) return CLOSED;
  const { $from } = selection;
  const block = $from.parent;
  if (block.type !== nodes.paragraph || $from.parentOffset !== block.content.size) return CLOSED;
  const match = /^\/(\w*)$/.exec(block.textContent);
  if (!match) return CLOSED;
  const query = match[1] ?? "";
  const items = matching(query, label);
  if (items.length === 0) return CLOSED;
  return { open: true, from: $from.before(), to: $from.after(), query, items, index: 0 };
}

/** Replaces the `/…` paragraph with the chosen item's block, the caret inside it. */
export function insertChosen(state: EditorState, menu: Extract<SlashState, { open: true }>): Transaction {
  const item = menu.items[menu.index] ?? menu.items[0];
  const block = (item ?? SLASH_ITEMS[0])?.create() ?? paragraph();
  const transaction = state.tr.replaceWith(menu.from, menu.to, block);
  const inside = Math.min(menu.from + 1, transaction.doc.content.size);
  return transaction.setSelection(TextSelection.near(transaction.doc.resolve(inside))).scrollIntoView();
}

/**
 * Typing `/` at the start of an empty paragraph offers the blocks to insert, narrowed as a word is
 * typed: Up and Down choose, Enter inserts, Escape closes. `label` names an item in the app's language.
 */
export function slashMenu(label: (item: SlashItem) => string) {
  return new Plugin<SlashState>({
    key: slashKey,
    state: {
      init: () => CLOSED,
      apply(transaction, previous, _old, state) {
        const meta = transaction.getMeta(slashKey) as { index?: number; dismiss?: true } | undefined;
        if (meta?.dismiss) return CLOSED;
        // Closed by Escape: it stays closed until the paragraph changes.
        if (!previous.open && !transaction.docChanged && !transaction.selectionSet) return previous;
        const next = opening(state, label);
        if (!next.open) return next;
        const kept = previous.open && previous.query === next.query ? previous.index : 0;
        const index = meta?.index ?? kept;
        return { ...next, index: Math.max(0, Math.min(index, next.items.length - 1)) };
      },
    },
    props: {
      handleKeyDown(view, event) {
        const menu = slashKey.getState(view.state);
        if (!menu?.open) return false;
        const move = (by: number) => {
          const index = (menu.index + by + menu.items.length) % menu.items.length;
          view.dispatch(view.state.tr.setMeta(slashKey, { index }));
          return true;
        };
        if (event.key === "ArrowDown") return move(1);
        if (event.key === "ArrowUp") return move(-1);
        if (event.key === "Escape") {
          view.dispatch(view.state.tr.setMeta(slashKey, { dismiss: true }));
          return true;
        }
        if (event.key === "Enter") {
          view.dispatch(insertChosen(view.state, menu));
          return true;
        }
        return false;
      },
    },
  });
}
