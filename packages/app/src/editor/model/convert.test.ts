import type { Schema } from "@quire/client";
import fc from "fast-check";
import { type Node as PMNode, Node } from "prosemirror-model";
import { EditorState, type Transaction } from "prosemirror-state";
import { describe, expect, it } from "vitest";
import { documentArbitrary } from "./arbitrary.js";
import { fromEditor, toEditor } from "./convert.js";
import type { DocumentBlock, JSONDocument } from "./document.js";
import { schema } from "./schema.js";

// Any document the API gives is one the editor takes.
const _fromApi = (document: Schema<"JSONDocument">): JSONDocument => document;

const TEXT_BLOCKS = new Set(["paragraph", "heading", "code_line"]);

/** Where in `doc` each node `wanted` says yes to is, with the index of the top-level block holding it. */
function find(doc: PMNode, wanted: (node: PMNode) => boolean): { pos: number; node: PMNode; top: number }[] {
  const found: { pos: number; node: PMNode; top: number }[] = [];
  doc.descendants((node, pos) => {
    if (wanted(node)) found.push({ pos, node, top: doc.resolve(pos).index(0) });
  });
  return found;
}

/** After `edit`, the document's top-level blocks but the one edited are as they were, keys and all. */
function expectOnlyBlockChanged(before: JSONDocument, tr: Transaction, top: number): DocumentBlock {
  const after = fromEditor(tr.doc);
  expect(after.nodes).toHaveLength(before.nodes.length);
  after.nodes.forEach((block, i) => {
    if (i !== top) expect(block).toStrictEqual(before.nodes[i]);
  });
  const edited = after.nodes[top] as DocumentBlock;
  expect(edited.key).toBe(before.nodes[top]?.key);
  // What the edit gives is a document the editor takes back as it is.
  expect(fromEditor(toEditor(after))).toStrictEqual(after);
  return edited;
}

describe("document → editor → document", () => {
  it("gives back the same document, whatever it holds", () => {
    fc.assert(
      fc.property(documentArbitrary, (document) => {
        expect(fromEditor(toEditor(document))).toStrictEqual(document);
      }),
      { numRuns: 400 },
    );
  });

  it("gives back the same document from the editor's document stored as JSON and read again", () => {
    fc.assert(
      fc.property(documentArbitrary, (document) => {
        const stored = JSON.parse(JSON.stringify(toEditor(document).toJSON()));
        expect(fromEditor(Node.fromJSON(schema, stored))).toStrictEqual(document);
      }),
      { numRuns: 150 },
    );
  });
});

describe("one edit changes one block", () => {
  const state = (document: JSONDocument) => EditorState.create({ schema, doc: toEditor(document) });

  it("typing into a block of text changes that top-level block only", () => {
    fc.assert(
      fc.property(
        documentArbitrary,
        fc.nat(),
        fc.nat(),
        fc.constantFrom("x", "new words", "\n", "😀"),
        (document, which, offset, typed) => {
          const s = state(document);
          const blocks = find(s.doc, (node) => TEXT_BLOCKS.has(node.type.name));
          fc.pre(blocks.length > 0);
          const { pos, node, top } = blocks[which % blocks.length] as (typeof blocks)[number];
          const at = pos + 1 + (offset % (node.content.size + 1));
          const edited = expectOnlyBlockChanged(document, s.tr.insertText(typed, at), top);
          expect(JSON.stringify(edited)).toContain(JSON.stringify(typed).slice(1, -1));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("toggling a mark on a range changes that top-level block only", () => {
    fc.assert(
      fc.property(
        documentArbitrary,
        fc.nat(),
        fc.nat(),
        fc.nat(),
        fc.constantFrom("bold", "italic", "strikethrough", "code"),
        (document, which, a, b, name) => {
          const s = state(document);
          const blocks = find(s.doc, (node) => TEXT_BLOCKS.has(node.type.name) && node.content.size > 0);
          fc.pre(blocks.length > 0);
          const { pos, node, top } = blocks[which % blocks.length] as (typeof blocks)[number];
          const size = node.content.size + 1;
          const [from, to] = [pos + 1 + (a % size), pos + 1 + (b % size)].sort((x, y) => x - y) as [number, number];
          const type = schema.marks[name];
          fc.pre(from < to && type !== undefined);
          const mark = type.create();
          const tr = s.doc.rangeHasMark(from, to, type) ? s.tr.removeMark(from, to, type) : s.tr.addMark(from, to, mark);
          expectOnlyBlockChanged(document, tr, top);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("changing a hint's style changes that top-level block only, its style and nothing else if it is one", () => {
    fc.assert(
      fc.property(documentArbitrary, fc.nat(), (document, which) => {
        const s = state(document);
        const hints = find(s.doc, (node) => node.type === schema.nodes.hint);
        fc.pre(hints.length > 0);
        const { pos, node, top } = hints[which % hints.length] as (typeof hints)[number];
        const data = (node.attrs.data ?? {}) as Record<string, unknown>;
        const style = data.style === "danger" ? "success" : "danger";
        const edited = expectOnlyBlockChanged(
          document,
          s.tr.setNodeMarkup(pos, undefined, { ...node.attrs, data: { ...data, style } }),
          top,
        );
        if (pos === s.doc.resolve(pos).posAtIndex(top, 0) && node === s.doc.child(top))
          expect(edited).toStrictEqual({ ...document.nodes[top], data: { ...data, style } });
      }),
      { numRuns: 300 },
    );
  });
});
