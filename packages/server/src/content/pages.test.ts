import { describe, expect, it } from "vitest";
import { ContentDraft, InvalidChange } from "./pages.js";

const TIME = "2026-01-01T00:00:00.000Z";
const LATER = "2026-01-02T00:00:00.000Z";

describe("group and link pages in a draft", () => {
  it("inserts a group over pages and a link, and changes the link's href", () => {
    const draft = new ContentDraft([], TIME);
    draft.insert({
      id: "g",
      title: "Getting started",
      parent: null,
      placement: {},
      document: null,
      kind: "group",
    });
    draft.insert({ id: "d", title: "Install", parent: "g", placement: {}, document: "h" });
    const link = draft.insert({
      id: "l",
      title: "Website",
      parent: "g",
      placement: {},
      document: null,
      kind: "link",
      href: "https://example.com",
    });
    expect(link).toMatchObject({
      kind: "link",
      href: "https://example.com",
      slug: "website",
      document: null,
    });
    expect(draft.get("d")).not.toHaveProperty("kind");
    expect(draft.children("g").map((entry) => entry.id)).toEqual(["d", "l"]);

    const later = new ContentDraft(draft.entries(), LATER);
    later.update("l", { title: "Our site", href: "https://example.org" });
    expect(later.get("l")).toMatchObject({
      title: "Our site",
      href: "https://example.org",
      updatedAt: LATER,
    });
    expect(later.pageChanges()).toEqual([["l", later.get("l")]]);
  });

  it("finds the first document, past groups and links: the space's root", () => {
    const draft = new ContentDraft([], TIME);
    draft.insert({ id: "g", title: "Group", parent: null, placement: {}, document: null, kind: "group" });
    draft.insert({
      id: "l",
      title: "Out",
      parent: "g",
      placement: {},
      document: null,
      kind: "link",
      href: "/x",
    });
    draft.insert({ id: "e", title: "Empty", parent: "g", placement: {}, document: null, kind: "group" });
    draft.insert({ id: "d", title: "Doc", parent: "e", placement: {}, document: null });
    expect(draft.firstDocument(null)?.id).toBe("d");
    expect(draft.firstDocument("g")?.id).toBe("d");
    expect(draft.firstDocument("d")).toBeUndefined();
    expect(draft.atPath("")?.id).toBe("d");
    expect(draft.atPath("group")?.id).toBe("g");
  });

  it("refuses a body on a group or link, an href on anything but a link, a link without one, pages under a link", () => {
    const draft = new ContentDraft([], TIME);
    const insert = (fields: Partial<Parameters<ContentDraft["insert"]>[0]>) => () =>
      draft.insert({ id: "x", title: "X", parent: null, placement: {}, document: null, ...fields });
    expect(insert({ kind: "group", document: "h" })).toThrow(InvalidChange);
    expect(insert({ kind: "group", href: "https://example.com" })).toThrow(InvalidChange);
    expect(insert({ href: "https://example.com" })).toThrow(InvalidChange);
    expect(insert({ kind: "link" })).toThrow(/needs an href/);
    draft.insert({
      id: "l",
      title: "L",
      parent: null,
      placement: {},
      document: null,
      kind: "link",
      href: "/x",
    });
    expect(insert({ parent: "l" })).toThrow(/cannot have pages under it/);
    expect(() => draft.update("l", { document: "h" })).toThrow(InvalidChange);
    draft.insert({ id: "d", title: "D", parent: null, placement: {}, document: null });
    expect(() => draft.update("d", { href: "https://example.com" })).toThrow(InvalidChange);
    expect(() => draft.move("d", "l", {})).toThrow(InvalidChange);
  });
});
