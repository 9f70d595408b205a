import { describe, expect, it } from "vitest";
import { editFrontMatter } from "./front-matter-edit.js";

const edit = (body: string, changes: Record<string, string | boolean | null>, keepWritten = false) =>
  editFrontMatter({ body, changes, keepWritten });

describe("editFrontMatter", () => {
  it("adds front matter above a body without one, a blank line after it", () => {
    expect(edit("# Title\n\nText.\n", { description: "About.", hidden: true })).toBe(
      "---\ndescription: About.\nhidden: true\n---\n\n# Title\n\nText.\n",
    );
    expect(edit("Text.\n", { icon: null })).toBe("Text.\n");
  });

  it("edits front matter in place, keeping its other keys and comments", () => {
    const body = "---\n# set by Git\ncoverY: 0\ndescription: Old.\n---\n\nText.\n";
    expect(edit(body, { description: "New.", icon: "gear" })).toBe(
      "---\n# set by Git\ncoverY: 0\ndescription: New.\nicon: gear\n---\n\nText.\n",
    );
    expect(edit(body, { description: null })).toBe("---\n# set by Git\ncoverY: 0\n---\n\nText.\n");
  });

  it("removes a front matter left empty, with the blank lines after it", () => {
    expect(edit("---\ndescription: Old.\n---\n\nText.\n", { description: null })).toBe("Text.\n");
  });

  it("leaves what the front matter says already with keepWritten", () => {
    expect(
      edit("---\ndescription: Mine.\n---\nText.\n", { description: "Theirs.", icon: "gear" }, true),
    ).toBe("---\ndescription: Mine.\nicon: gear\n---\nText.\n");
  });

  it("puts a new front matter above a head that is no YAML mapping (text to the engine)", () => {
    expect(edit("---\n- a list\n---\nText.\n", { hidden: true })).toBe(
      "---\nhidden: true\n---\n\n---\n- a list\n---\nText.\n",
    );
  });
});
