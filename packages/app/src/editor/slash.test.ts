import { EditorState, TextSelection } from "prosemirror-state";
import { describe, expect, it } from "vitest";
import { schema } from "./model/schema.js";
import { insertChosen, type SlashItem, slashKey, slashMenu } from "./slash.js";

const names: Record<string, string> = { "editor.heading1": "Heading 1", "editor.hint": "Hint" };
const label = (item: SlashItem) => names[item.label] ?? item.label;

/** An editor state of one paragraph reading `text`, the caret at its end. */
function typed(text: string) {
  const doc = schema.nodes.doc.create(null, [
    schema.nodes.paragraph.create(null, schema.text("Before.")),
    schema.nodes.paragraph.create(null, text ? schema.text(text) : undefined),
  ]);
  const state = EditorState.create({ doc, plugins: [slashMenu(label)] });
  return state.apply(state.tr.setSelection(TextSelection.atEnd(state.doc)));
}

describe("the slash menu", () => {
  it("opens on `/` alone in a paragraph, narrowed by the word typed after it", () => {
    const all = slashKey.getState(typed("/"));
    expect(all?.open && all.items.length).toBeGreaterThan(5);
    const headings = slashKey.getState(typed("/hea"));
    expect(headings?.open && headings.items.map((item) => item.id)).toEqual(["heading1"]);
    expect(slashKey.getState(typed("a/"))?.open).toBe(false);
    expect(slashKey.getState(typed("/zzz"))?.open).toBe(false);
  });

  it("replaces the paragraph with the chosen block, the text before it untouched", () => {
    const state = typed("/hin");
    const menu = slashKey.getState(state);
    if (!menu?.open) throw new Error("the menu is open");
    const after = state.apply(insertChosen(state, menu));
    expect(after.doc.childCount).toBe(2);
    expect(after.doc.child(0).textContent).toBe("Before.");
    expect(after.doc.child(1).type.name).toBe("hint");
    expect(after.doc.child(1).attrs.data).toEqual({ style: "info" });
    expect(after.selection.$from.parent.type.name).toBe("paragraph");
  });
});
