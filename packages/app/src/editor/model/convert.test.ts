import type { DocumentBlock, JSONDocument, Schema } from "@quire/client";
import fc from "fast-check";
import { Node, type Node as PMNode } from "prosemirror-model";
import { EditorState, type Transaction } from "prosemirror-state";
import { describe, expect, it } from "vitest";
import { documentArbitrary } from "./arbitrary.js";
import { fromEditor, toEditor } from "./convert.js";
import { schema } from "./schema.js";

// Any document the API gives is one the editor takes.
const _fromApi = (document: Schema<"JSONDocument">): JSONDocument => document;

/** Property tests run hundreds of documents: time for a machine under load. */
const PROPERTY = { timeout: 60_000 };

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
  it("gives back the same document, whatever it holds", PROPERTY, () => {
    fc.assert(
      fc.property(documentArbitrary, (document) => {
        expect(fromEditor(toEditor(document))).toStrictEqual(document);
      }),
      { numRuns: 400 },
    );
  });

  it(
    "gives back the same document from the editor's document stored as JSON and read again",
    PROPERTY,
    () => {
      fc.assert(
        fc.property(documentArbitrary, (document) => {
          const stored = JSON.parse(JSON.stringify(toEditor(document).toJSON()));
          expect(fromEditor(Node.fromJSON(schema, stored))).toStrictEqual(document);
        }),
        { numRuns: 150 },
      );
    },
  );
});

describe("the documents the properties are checked on", () => {
  it("hold every node and mark of the schema, made from their GitBook kinds", () => {
    const nodes = new Set<string>();
    const marks = new Set<string>();
    for (const document of fc.sample(documentArbitrary, { numRuns: 300, seed: 52 }))
      toEditor(document).descendants((node) => {
        nodes.add(node.type.name);
        for (const mark of node.marks) marks.add(mark.type.name);
      });
    expect([...nodes].sort()).toEqual(
      Object.keys(schema.nodes)
        .filter((name) => name !== "doc")
        .sort(),
    );
    expect([...marks].sort()).toEqual(Object.keys(schema.marks).sort());
  });
});

describe("one edit changes one block", () => {
  const state = (document: JSONDocument) => EditorState.create({ schema, doc: toEditor(document) });

  it("typing into a block of text changes that top-level block only", PROPERTY, () => {
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
      { numRuns: 200 },
    );
  });

  it("toggling a mark on a range changes that top-level block only", PROPERTY, () => {
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
          const [from, to] = [pos + 1 + (a % size), pos + 1 + (b % size)].sort((x, y) => x - y) as [
            number,
            number,
          ];
          const type = schema.marks[name];
          fc.pre(from < to && type !== undefined);
          const mark = type.create();
          const tr = s.doc.rangeHasMark(from, to, type)
            ? s.tr.removeMark(from, to, type)
            : s.tr.addMark(from, to, mark);
          expectOnlyBlockChanged(document, tr, top);
        },
      ),
      { numRuns: 200 },
    );
  });

  it(
    "changing a hint's style changes that top-level block only, its style and nothing else if it is one",
    PROPERTY,
    () => {
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
        { numRuns: 200 },
      );
    },
  );
});

const leaf = (text: string, ...marks: string[]) => ({
  object: "leaf" as const,
  text,
  marks: marks.map((type) => ({ object: "mark" as const, type })),
});
const paragraph = (key: string, ...nodes: NonNullable<DocumentBlock["nodes"]>): DocumentBlock => ({
  object: "block",
  type: "paragraph",
  key,
  data: {},
  nodes,
});
const link = (url: string, text: string) => ({
  object: "inline" as const,
  type: "link",
  data: { ref: { kind: "url", url } },
  nodes: [{ object: "text" as const, leaves: [leaf(text)] }],
});
const doc = (...nodes: DocumentBlock[]): JSONDocument => ({ object: "document", data: {}, nodes });

/** The document after typing `text` at the end of the first block of text in top-level block `top`. */
function typedInto(document: JSONDocument, top: number, text: string): JSONDocument {
  const state = EditorState.create({ schema, doc: toEditor(document) });
  const [first] = find(state.doc, (node) => node.isTextblock).filter((found) => found.top === top);
  if (!first) throw new Error(`no text in block ${top}`);
  return fromEditor(state.tr.insertText(text, first.pos + 1 + first.node.content.size).doc);
}

describe("text as GitBook splits it", () => {
  const split = paragraph("p1", {
    object: "text",
    key: "t1",
    leaves: [leaf("Hello "), leaf(""), leaf("world", "italic", "bold"), leaf("!", "bold", "italic")],
  });
  const other = paragraph("p2", { object: "text", leaves: [leaf("a"), leaf("b")] });

  it("is kept leaf for leaf while the block is not edited, and written anew (a leaf a run of marks) once it is", () => {
    const after = typedInto(doc(split, other), 0, "?");
    expect(after.nodes[1]).toStrictEqual(other);
    // Its text is the JSON it came from, not JSON made anew.
    expect(after.nodes[1]?.nodes).toBe(other.nodes);
    expect(after.nodes[0]).toStrictEqual({
      ...split,
      nodes: [
        {
          object: "text",
          leaves: [
            leaf("Hello "),
            // Typed text takes the marks before it; the marks in the schema's order.
            leaf("world!?", "bold", "italic"),
          ],
        },
      ],
    });
  });

  it("is kept as it was when an edit is undone by another", () => {
    const state = EditorState.create({ schema, doc: toEditor(doc(split)) });
    const typed = state.tr.insertText("x", 3);
    const back = typed.delete(3, 4);
    expect(back.doc.content.eq(state.doc.content)).toBe(true);
    expect(fromEditor(back.doc)).toStrictEqual(doc(split));
  });

  it("keeps a line break as GitBook has it, a newline in the text", () => {
    const broken = paragraph("p", { object: "text", leaves: [leaf("one\ntwo")] });
    expect(typedInto(doc(broken), 0, "\nthree").nodes[0]?.nodes).toStrictEqual([
      { object: "text", leaves: [leaf("one\ntwo\nthree")] },
    ]);
  });
});

describe("links", () => {
  it("two next to each other with the same target stay two, their keys and data kept, when their block is edited", () => {
    const first = { ...link("https://a.test", "one"), key: "l1" };
    const second = link("https://a.test", "two");
    const after = typedInto(doc(paragraph("p", first, second)), 0, " end");
    expect(after.nodes[0]?.nodes).toStrictEqual([first, second, { object: "text", leaves: [leaf(" end")] }]);
  });

  it("a link holding a link, and a link without text, are kept whole as opaque inlines", () => {
    const nested = { ...link("https://a.test", ""), nodes: [link("https://b.test", "inner")] };
    const empty = link("https://c.test", "");
    const editor = toEditor(doc(paragraph("p", nested, empty)));
    const inlines = find(editor, (node) => node.type === schema.nodes.opaque_inline);
    expect(inlines.map(({ node }) => node.attrs.json)).toStrictEqual([nested, empty]);
    expect(typedInto(doc(paragraph("p", nested, empty)), 0, "x").nodes[0]?.nodes).toStrictEqual([
      nested,
      empty,
      { object: "text", leaves: [leaf("x")] },
    ]);
  });
});

describe("what the schema does not hold as it is", () => {
  it("is an opaque block holding its JSON: a kind it does not know, a list holding a paragraph", () => {
    const unknown: DocumentBlock = {
      object: "block",
      type: "integration",
      key: "i",
      data: { integration: "x" },
    };
    const odd: DocumentBlock = { object: "block", type: "list-ordered", data: {}, nodes: [paragraph("p")] };
    const editor = toEditor(doc(unknown, odd));
    expect(editor.child(0).type).toBe(schema.nodes.opaque);
    expect(editor.child(0).attrs.json).toBe(unknown);
    expect(editor.child(1).type).toBe(schema.nodes.opaque);
    expect(fromEditor(editor).nodes).toStrictEqual([unknown, odd]);
  });

  it("keeps fields it does not read, and ones of a type it does not expect, beside those it edits", () => {
    const hint = {
      object: "block" as const,
      type: "hint",
      key: 7,
      data: { style: "info" },
      origin: { from: "git" },
      nodes: [paragraph("p", { object: "text", leaves: [leaf("Hi")] })],
    } as unknown as DocumentBlock;
    const editor = toEditor(doc(hint));
    expect(editor.child(0).type).toBe(schema.nodes.hint);
    expect(editor.child(0).attrs.extra).toStrictEqual({ key: 7, origin: { from: "git" } });
    expect(typedInto(doc(hint), 0, "!").nodes[0]).toStrictEqual({
      ...hint,
      nodes: [paragraph("p", { object: "text", leaves: [leaf("Hi!")] })],
    });
  });
});
