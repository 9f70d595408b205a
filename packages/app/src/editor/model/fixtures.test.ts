import type { JSONDocument } from "@quire/client";
import { EditorState } from "prosemirror-state";
import { describe, expect, it } from "vitest";
import { fromEditor, toEditor } from "./convert.js";
import { schema } from "./schema.js";

/**
 * Pages of GitBook's own documentation (../shared/corpora/gitbook-documentation.bundle) as the server
 * reads them (the content engine's `toDocument` on each page's Markdown body).
 */
const pages = Object.entries(
  import.meta.glob<JSONDocument>("./fixtures/*.json", { eager: true, import: "default" }),
);

/** Kinds of the server's that the editor keeps opaque: Quire's HTML (blocks and inlines), integrations. */
const OPAQUE = new Set(["html", "integration"]);

describe.each(pages)("%s", (_, page) => {
  it("is the same document after the editor, its blocks editable but those it only keeps", () => {
    const editor = toEditor(page);
    expect(fromEditor(editor)).toStrictEqual(page);
    const opaque = new Set<string>();
    editor.descendants((node) => {
      if (node.type === schema.nodes.opaque || node.type === schema.nodes.opaque_inline)
        opaque.add(String(node.attrs.json.type));
    });
    expect([...opaque].filter((type) => !OPAQUE.has(type))).toEqual([]);
  });

  it("changes only the paragraph typed into", () => {
    const state = EditorState.create({ schema, doc: toEditor(page) });
    let at: { pos: number; top: number; size: number } | undefined;
    state.doc.forEach((node, pos, top) => {
      if (!at && node.type === schema.nodes.paragraph) at = { pos, top, size: node.content.size };
    });
    if (!at) return expect.unreachable("a page without a paragraph");
    const after = fromEditor(state.tr.insertText(" Typed.", at.pos + 1 + at.size).doc);
    expect(after.nodes.filter((_, i) => i !== at?.top)).toStrictEqual(
      page.nodes.filter((_, i) => i !== at?.top),
    );
    expect(JSON.stringify(after.nodes[at.top])).toContain(" Typed.");
  });
});
