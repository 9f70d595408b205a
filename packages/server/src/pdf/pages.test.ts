import { describe, expect, it } from "vitest";
import { ContentDraft } from "../content/pages.js";
import { exportedPages } from "./pages.js";

describe("the pages of a PDF export", () => {
  it("keep a group as a heading over its pages, and leave links out", () => {
    const draft = new ContentDraft([], "2026-01-01T00:00:00.000Z");
    draft.insert({ id: "g", title: "Basics", parent: null, placement: {}, document: null, kind: "group" });
    draft.insert({ id: "d", title: "Setup", parent: "g", placement: {}, document: "h" });
    draft.insert({
      id: "l",
      title: "Site",
      parent: "g",
      placement: {},
      document: null,
      kind: "link",
      href: "/",
    });
    draft.insert({ id: "e", title: "End", parent: null, placement: {}, document: null });
    const titles = (pages: ReturnType<typeof exportedPages>) =>
      pages.map(({ entry, depth }) => [entry.title, depth]);
    expect(titles(exportedPages(draft, undefined, false))).toEqual([
      ["Basics", 0],
      ["Setup", 1],
      ["End", 0],
    ]);
    expect(titles(exportedPages(draft, draft.get("l"), false))).toEqual([]);
  });
});
