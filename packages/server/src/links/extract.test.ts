import { describe, expect, it } from "vitest";
import { contentEngine } from "../content/engine/index.js";
import { relativePagePath } from "../content/engine/references.js";

describe("the links the content engine reads from a body", () => {
  it("finds links, images, autolinks and definitions in document order, and nothing in code", async () => {
    const markdown = [
      "See [a](./a.md) and ![logo](/files/f1).",
      "",
      "Visit https://example.com today, or [ref][r].",
      "",
      "`[not](code.md)`",
      "",
      "```",
      "[nor](block.md)",
      "```",
      "",
      "[r]: ../b.md",
    ].join("\n");
    expect((await contentEngine().analyze(markdown)).links).toEqual([
      "./a.md",
      "/files/f1",
      "https://example.com",
      "../b.md",
    ]);
  });

  it("finds nothing in a body without links", async () => {
    expect((await contentEngine().analyze("# Title\n\nJust text.\n")).links).toEqual([]);
  });
});

describe("relativePagePath", () => {
  it("resolves against the linking page's folder, dropping .md, README, anchors and queries", () => {
    expect(relativePagePath("guides/setup", "./install.md")).toBe("guides/install");
    expect(relativePagePath("guides/setup", "install.md#step-2")).toBe("guides/install");
    expect(relativePagePath("guides/setup", "../faq.md")).toBe("faq");
    expect(relativePagePath("guides/setup", "advanced/README.md")).toBe("guides/advanced");
    expect(relativePagePath("guides/setup", "my%20page.md")).toBe("guides/my page");
    expect(relativePagePath("top", "other")).toBe("other");
  });

  it("has no page above the top level", () => {
    expect(relativePagePath("top", "../outside.md")).toBeUndefined();
  });
});
