import { baseKeymap, setBlockType, toggleMark, wrapIn } from "prosemirror-commands";
import { history, redo, undo } from "prosemirror-history";
import { InputRule, inputRules, textblockTypeInputRule, wrappingInputRule } from "prosemirror-inputrules";
import { keymap } from "prosemirror-keymap";
import type { NodeType } from "prosemirror-model";
import { liftListItem, sinkListItem, splitListItem } from "prosemirror-schema-list";
import { type Command, Plugin } from "prosemirror-state";
import { ReplaceAroundStep, ReplaceStep, type Step } from "prosemirror-transform";
import { schema } from "./model/schema.js";

const { nodes, marks } = schema;

/**
 * A block split in two (Enter) or copied keeps its attributes in both halves: its GitBook `key` would
 * name two blocks, and its `source` text would be taken as unchanged. The second of two nodes with one
 * key loses both, and is written as a new block.
 */
const uniqueKeys = new Plugin({
  appendTransaction(transactions, _old, state) {
    // Typing makes no block: only a change that brings blocks (a split, a paste) needs the walk.
    if (!transactions.some((transaction) => transaction.steps.some(bringsBlocks))) return null;
    const seen = new Set<string>();
    const repeated: number[] = [];
    state.doc.descendants((node, pos) => {
      const key = node.attrs.key as unknown;
      if (typeof key !== "string") return;
      if (seen.has(key)) repeated.push(pos);
      else seen.add(key);
    });
    if (repeated.length === 0) return null;
    const transaction = state.tr;
    for (const pos of repeated) {
      const node = transaction.doc.nodeAt(pos);
      if (!node) continue;
      const cleared = { ...node.attrs, key: null, ...("source" in node.attrs && { source: null }) };
      transaction.setNodeMarkup(pos, undefined, cleared);
    }
    return transaction.setMeta("addToHistory", false);
  },
});

/** Whether a step puts blocks in the document (not text within one block, nor a mark). */
function bringsBlocks(step: Step): boolean {
  if (!(step instanceof ReplaceStep) && !(step instanceof ReplaceAroundStep)) return false;
  const { slice } = step as ReplaceStep;
  if (slice.openStart > 0 || slice.openEnd > 0) return true;
  let blocks = false;
  slice.content.forEach((node) => {
    if (node.isBlock) blocks = true;
  });
  return blocks;
}

/** A line break within a block: GitBook keeps it as "\n" in the text (shown by `white-space: pre-wrap`). */
const lineBreak: Command = (state, dispatch) => {
  dispatch?.(state.tr.insertText("\n").scrollIntoView());
  return true;
};

/** Markdown's shortcuts, typed at the start of a block: `# `, `- `, `1. `, `> `, ``` ``` ```, `---`. */
function markdownShortcuts() {
  const listRule = (pattern: RegExp, list: NodeType) => wrappingInputRule(pattern, list);
  return inputRules({
    rules: [
      textblockTypeInputRule(/^(#{1,3})\s$/, nodes.heading, (match) => ({ level: match[1]?.length ?? 1 })),
      listRule(/^\s*[-*]\s$/, nodes.list_unordered),
      listRule(/^\s*\d+\.\s$/, nodes.list_ordered),
      wrappingInputRule(/^\s*>\s$/, nodes.blockquote),
      new InputRule(/^```$/, (state, _match, start) => {
        const $start = state.doc.resolve(start);
        const code = nodes.code_block.create(null, nodes.code_line.create());
        return state.tr.replaceWith($start.before(), $start.after(), code).scrollIntoView();
      }),
      new InputRule(/^---$/, (state, _match, start) => {
        const $start = state.doc.resolve(start);
        return state.tr.replaceWith($start.before(), $start.after(), [
          nodes.divider.create(),
          nodes.paragraph.create(),
        ]);
      }),
    ],
  });
}

/** The formatting commands, by name: the keyboard's and the toolbar's. */
export const commands = {
  bold: toggleMark(marks.bold),
  italic: toggleMark(marks.italic),
  strikethrough: toggleMark(marks.strikethrough),
  code: toggleMark(marks.code),
  paragraph: setBlockType(nodes.paragraph),
  heading1: setBlockType(nodes.heading, { level: 1 }),
  heading2: setBlockType(nodes.heading, { level: 2 }),
  heading3: setBlockType(nodes.heading, { level: 3 }),
  bulletList: wrapIn(nodes.list_unordered),
  orderedList: wrapIn(nodes.list_ordered),
  quote: wrapIn(nodes.blockquote),
  hint: wrapIn(nodes.hint, { data: { style: "info" } }),
} satisfies Record<string, Command>;

/** Every plugin of the editor: history, keys, Markdown's shortcuts, keys made unique. */
export function editorPlugins(): Plugin[] {
  const item = nodes.list_item;
  return [
    history(),
    markdownShortcuts(),
    keymap({
      "Mod-z": undo,
      "Shift-Mod-z": redo,
      "Mod-y": redo,
      "Mod-b": commands.bold,
      "Mod-i": commands.italic,
      "Mod-e": commands.code,
      "Shift-Mod-x": commands.strikethrough,
      "Shift-Enter": lineBreak,
      Enter: splitListItem(item),
      Tab: sinkListItem(item),
      "Shift-Tab": liftListItem(item),
    }),
    keymap(baseKeymap),
    uniqueKeys,
  ];
}
