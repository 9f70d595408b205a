import type { Schema } from "@quire/api-types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ContentScenario,
  createContentScenario,
  deletePage,
  expectError,
  insertPage,
  newSpaceContent,
  spaceContent,
  updatePage,
} from "../change-requests/testing.js";
import { addMembership } from "../members/index.js";
import { setGrants } from "../permissions/store.js";
import { buildSpace } from "../testing/factories.js";
import { guestOf } from "../testing/fixtures.js";
import type { TestUser } from "../testing/harness.js";

type Results = { count: number; items: Schema<"SearchSpaceResult">[]; next?: { page: string } };

let s: ContentScenario;
beforeAll(async () => {
  s = await createContentScenario();
});
afterAll(() => s.t.close());

async function search(query: string, user: TestUser = s.reader, extra = ""): Promise<Results> {
  const res = await s.t.request
    .get(`/v1/orgs/${s.organizationId}/search?query=${encodeURIComponent(query)}${extra}`)
    .set(user.auth)
    .expect(200);
  return res.body;
}

/** Each space's title with the titles of its pages, in the order of the results. */
const titles = (results: Results) =>
  results.items.map((space) => [space.title, space.pages.map((page) => page.title)]);

/** A unique word, so that tests sharing the organization do not see each other's pages. */
let counter = 0;
const word = (name: string) => `${name}${++counter}x`;

async function titled(title: string, fields: { deleted_at?: string } = {}) {
  const space = await newSpaceContent(s, fields);
  await s.t.db.updateTable("spaces").set({ title }).where("id", "=", space.spaceId).execute();
  return space;
}

describe("GET /v1/orgs/{organizationId}/search", () => {
  it("finds pages grouped by space, sections with their anchors, a title or heading above the text", async () => {
    const term = word("zebra");
    const space = await titled("Zoo");
    await space.seed([
      insertPage("Animals", `Some ${term} live here.\n\n## Stripes\n\nNothing.`),
      insertPage(`The ${term}`, "Intro about horses.\n\n## Food\n\nGrass."),
      insertPage("Care", `Feeding.\n\n## ${term} care\n\nBrush them.\n\n## ${term} care\n\nAgain.`),
      insertPage("Other", "Nothing here."),
    ]);
    const results = await search(term.toUpperCase());
    expect(results.count).toBe(1);
    const [zoo] = results.items;
    expect(zoo).toMatchObject({ type: "space", id: space.spaceId });
    expect(titles(results)).toEqual([["Zoo", [`The ${term}`, "Care", "Animals"]]]);
    const [title, care, animals] = zoo?.pages ?? [];
    // A title match shows the page, with the text before its first heading.
    expect(title).toMatchObject({
      path: `the-${term}`,
      sections: [{ title: "", body: "Intro about horses." }],
    });
    // Sections best first: these two score alike, so their order is left open.
    const bySection = (a: { path: string }, b: { path: string }) => a.path.localeCompare(b.path);
    expect(care?.sections?.sort(bySection)).toEqual([
      {
        id: `${term}-care`,
        title: `${term} care`,
        path: `care#${term}-care`,
        body: "Brush them.",
        score: expect.any(Number),
        urls: { app: `http://quire.test/app/spaces/${space.spaceId}/care#${term}-care` },
      },
      expect.objectContaining({ id: `${term}-care-1`, path: `care#${term}-care-1`, body: "Again." }),
    ]);
    expect(animals).toMatchObject({
      title: "Animals",
      path: "animals",
      urls: { app: `http://quire.test/app/spaces/${space.spaceId}/animals` },
      sections: [{ title: "", path: "animals", body: `Some ${term} live here.` }],
    });
    // Every word must occur in one section (a page's title counts in the text before its first
    // heading); the last one is a prefix; punctuation and operators are only words.
    expect(titles(await search(`${term} brush`))).toEqual([["Zoo", ["Care"]]]);
    expect(titles(await search(`${term} hor`))).toEqual([["Zoo", [`The ${term}`]]]);
    // Under three letters, the last word is a word, not a prefix.
    expect(titles(await search(`${term} ho`))).toEqual([]);
    expect(titles(await search(`${term} gra`))).toEqual([]);
    expect(titles(await search(`"${term}" -AND nothing:*`))).toEqual([]);
    expect(await search("  ?! ")).toEqual({ count: 0, items: [] });
  });

  it("pages over spaces, best first", async () => {
    const term = word("okapi");
    const strong = await titled("Strong");
    await strong.seed([insertPage(term, "x")]);
    const weak = await titled("Weak");
    await weak.seed([insertPage("Plain", `a ${term}`)]);
    const first = await search(term, s.reader, "&limit=1");
    expect(first.count).toBe(2);
    expect(titles(first)).toEqual([["Strong", [term]]]);
    const second = await search(term, s.reader, `&limit=1&page=${first.next?.page}`);
    expect(titles(second)).toEqual([["Weak", ["Plain"]]]);
    expect(second.next).toBeUndefined();
    // Ranks count on from one page of results to the next.
    expect([first, second].map((results) => results.items[0]?.pages[0]?.rank)).toEqual([1, 2]);
  });

  it("ranks pages across the spaces they are grouped by, and shows their description, ancestors and how they matched", async () => {
    const term = word("tapir");
    const first = await titled("Ranked first");
    const top = await first.seed([insertPage("Guide", "Start here.")]);
    const under = await first.seed([
      insertPage(
        "Setup",
        `---\ndescription: Getting ready.\n---\n\nInstall it.\n\n## Steps\n\nThen ${term}, at length, among many other words.`,
        top.Guide,
      ),
    ]);
    await first.seed([insertPage(`The ${term}`, "Nothing else.", under.Setup)]);
    const second = await titled("Ranked second");
    await second.seed([insertPage("Notes", `Intro.\n\n## ${term}\n\nShort.`)]);

    const results = await search(term);
    expect(titles(results)).toEqual([
      ["Ranked first", [`The ${term}`, "Setup"]],
      ["Ranked second", ["Notes"]],
    ]);
    const [deep, setup] = results.items[0]?.pages ?? [];
    const notes = results.items[1]?.pages[0];
    // The title match first, then the heading, then the text: ranks interleave across the spaces.
    expect([deep?.rank, notes?.rank, setup?.rank]).toEqual([1, 2, 3]);
    expect(deep).toMatchObject({
      description: "",
      ancestors: [{ title: "Guide" }, { title: "Setup" }],
      resultType: "page",
    });
    expect(setup).toMatchObject({
      description: "Getting ready.",
      ancestors: [{ title: "Guide" }],
      resultType: "section",
    });
    expect(notes).toMatchObject({ description: "", ancestors: [], resultType: "section" });
    // The last word matches as a prefix, as the engine matched it.
    const prefix = await search(`the ${term.slice(0, -1)}`);
    expect(prefix.items[0]?.pages.map((page) => [page.title, page.resultType])).toEqual([
      [`The ${term}`, "page"],
    ]);

    // Renaming a page shows in the ancestors of the pages under it, once merged.
    const cr = await first.createChangeRequest();
    await first.edit(cr.number, [updatePage(top.Guide as string, { title: "Handbook" })]);
    await first.merge(cr.number);
    const renamed = (await search(term)).items[0]?.pages ?? [];
    expect(renamed.map((page) => page.ancestors)).toEqual([
      [{ title: "Handbook" }, { title: "Setup" }],
      [{ title: "Handbook" }],
    ]);
  });

  it("follows merges: old text gone, new text found, moved and deleted pages", async () => {
    const before = word("before");
    const after = word("after");
    const space = await titled("Moving");
    const ids = await space.seed([
      insertPage("Kept", `${before} text`),
      insertPage("Gone", `${before} also`),
    ]);
    expect(titles(await search(before))).toEqual([["Moving", ["Kept", "Gone"]]]);
    const cr = await space.createChangeRequest();
    await space.edit(cr.number, [
      updatePage(ids.Kept as string, { markdown: `# Heading\n\n${after} text` }),
      deletePage(ids.Gone as string),
      insertPage("New", `${after} too`),
    ]);
    // Nothing changes before the merge: search reads the main content only.
    expect(titles(await search(after))).toEqual([]);
    await space.merge(cr.number);
    expect(await search(before)).toEqual({ count: 0, items: [] });
    const results = await search(after);
    expect(titles(results)).toEqual([["Moving", expect.arrayContaining(["Kept", "New"])]]);
    expect(results.items[0]?.pages.find((p) => p.title === "Kept")?.sections).toMatchObject([
      { id: "heading", path: "kept#heading", body: `${after} text` },
    ]);
  });

  it("indexes spaces whose content predates the index on the first search", async () => {
    const term = word("legacy");
    const space = await titled("Legacy");
    await space.seed([insertPage("Old", `${term} words`)]);
    await s.t.db.deleteFrom("search_sections").where("space_id", "=", space.spaceId).execute();
    await s.t.db.deleteFrom("search_spaces").where("space_id", "=", space.spaceId).execute();
    const indexed = () =>
      s.t.db
        .selectFrom("search_spaces")
        .select("revision_id")
        .where("space_id", "=", space.spaceId)
        .execute();
    // A refused search writes nothing, the index included.
    await s.t.request
      .get(`/v1/orgs/${s.organizationId}/search?query=${term}&page=forged`)
      .set(s.reader.auth)
      .expect(400);
    expect(await indexed()).toEqual([]);
    expect(titles(await search(term))).toEqual([["Legacy", ["Old"]]]);
    expect(await indexed()).toHaveLength(1);
  });

  it("never shows spaces the caller cannot read, nor deleted spaces", async () => {
    const term = word("secret");
    const open = await titled("Granted");
    await open.seed([insertPage("A", term)]);
    const closed = await titled("Closed");
    await closed.seed([insertPage("B", term)]);
    const deleted = await titled("Deleted");
    await deleted.seed([insertPage("C", term)]);
    await s.t.db
      .updateTable("spaces")
      .set({ deleted_at: s.t.clock.now().toISOString() })
      .where("id", "=", deleted.spaceId)
      .execute();
    const guest = await guestOf(s.t, s.organizationId);
    expect(await search(term, guest)).toEqual({ count: 0, items: [] });
    await s.t.db.transaction().execute((tx) =>
      setGrants(
        tx,
        s.t,
        s.admin.user.id,
        {
          kind: "space",
          id: open.spaceId,
          organizationId: s.organizationId,
          parentId: null,
          defaultLevel: "read",
        },
        { users: [guest.user.id], teams: [] },
        "read",
      ),
    );
    expect(titles(await search(term, guest))).toEqual([["Granted", ["A"]]]);
    const member = await search(term);
    expect(member.count).toBe(2);
    expect(member.items.map((space) => space.title).sort()).toEqual(["Closed", "Granted"]);
  });

  it("never shows another organization's spaces, even to a member of both", async () => {
    const term = word("tenant");
    const own = await titled("Own");
    await own.seed([insertPage("Mine", term)]);
    const other = await s.t.organization();
    await addMembership(s.t.db, s.t, {
      organizationId: other.organizationId,
      userId: s.reader.user.id,
      role: "read",
      joinedAt: s.t.clock.now().toISOString(),
    });
    const theirs = await buildSpace(s.t, { organization_id: other.organizationId });
    await spaceContent({ ...s, organizationId: other.organizationId, admin: other.admin }, theirs.id).seed([
      insertPage("Theirs", term),
    ]);
    expect(titles(await search(term))).toEqual([["Own", ["Mine"]]]);
    const res = await s.t.request
      .get(`/v1/orgs/${other.organizationId}/search?query=${term}`)
      .set(s.reader.auth)
      .expect(200);
    expect(titles(res.body)).toEqual([[theirs.title, ["Theirs"]]]);
  });

  it("answers 400 and 404", async () => {
    const url = `/v1/orgs/${s.organizationId}/search`;
    expectError((await s.t.request.get(url).set(s.reader.auth).expect(400)).body, 400);
    expectError(
      (
        await s.t.request
          .get(`${url}?query=${"a".repeat(513)}`)
          .set(s.reader.auth)
          .expect(400)
      ).body,
      400,
    );
    await s.t.request.get(`${url}?query=x&page=forged`).set(s.reader.auth).expect(400);
    const other = await s.t.organization();
    const term = word("elsewhere");
    await s.t.request
      .get(`/v1/orgs/${other.organizationId}/search?query=${term}`)
      .set(s.reader.auth)
      .expect(404);
    await s.t.request.get(`${url}?query=x`).set(s.outsider.auth).expect(404);
  });
});

describe("GET /v1/spaces/{spaceId}/search", () => {
  type PageResults = { count: number; items: Schema<"SearchPageResult">[]; next?: { page: string } };
  async function searchSpace(spaceId: string, query: string, extra = "", user = s.reader) {
    const res = await s.t.request
      .get(`/v1/spaces/${spaceId}/search?query=${encodeURIComponent(query)}${extra}`)
      .set(user.auth)
      .expect(200);
    return res.body as PageResults;
  }

  it("finds the space's pages best first, with their sections and scores, in keyset pages", async () => {
    const term = word("lynx");
    const space = await titled("Cats");
    await space.seed([
      insertPage(`The ${term}`, `A ${term} page.\n\n## Habitat\n\nForests of ${term}.`),
      insertPage("Mentions", `Once, a ${term}.`),
      insertPage("Silent", "Nothing."),
    ]);
    // Another space's page with the word is never a result.
    const other = await titled("Other cats");
    await other.seed([insertPage(term, term)]);
    const all = await searchSpace(space.spaceId, term);
    expect(all.count).toBe(2);
    expect(all.items.map((page) => page.title)).toEqual([`The ${term}`, "Mentions"]);
    const [best, weaker] = all.items;
    expect(best?.score).toBeGreaterThan(weaker?.score ?? Number.POSITIVE_INFINITY);
    expect(best).toMatchObject({
      path: `the-${term}`,
      description: "",
      ancestors: [],
      rank: 1,
      resultType: "page",
      urls: { app: `http://quire.test/app/spaces/${space.spaceId}/the-${term}` },
    });
    expect(weaker).toMatchObject({ rank: 2, resultType: "section" });
    expect(best?.sections?.map((section) => section.path).sort()).toEqual([
      `the-${term}`,
      `the-${term}#habitat`,
    ]);
    for (const section of best?.sections ?? []) expect(section.score).toBeGreaterThan(0);
    // The page's score is its best section's.
    expect(best?.score).toBe(Math.max(...(best?.sections ?? []).map((section) => section.score)));

    const first = await searchSpace(space.spaceId, term, "&limit=1");
    expect(first.count).toBe(2);
    expect(first.items.map((page) => page.title)).toEqual([`The ${term}`]);
    const second = await searchSpace(space.spaceId, term, `&limit=1&page=${first.next?.page}`);
    expect(second.items.map((page) => [page.title, page.rank])).toEqual([["Mentions", 2]]);
    expect(second.next).toBeUndefined();
    expect(await searchSpace(space.spaceId, " ?! ")).toEqual({ count: 0, items: [] });
  });

  it("reads the main content as merged, indexing a space whose content predates the index", async () => {
    const term = word("ibex");
    const space = await titled("Mountains");
    const ids = await space.seed([insertPage("Goats", `${term} climbs`)]);
    await s.t.db.deleteFrom("search_sections").where("space_id", "=", space.spaceId).execute();
    await s.t.db.deleteFrom("search_spaces").where("space_id", "=", space.spaceId).execute();
    expect((await searchSpace(space.spaceId, term)).items.map((page) => page.title)).toEqual(["Goats"]);
    const cr = await space.createChangeRequest();
    await space.edit(cr.number, [updatePage(ids.Goats as string, { markdown: "No more." })]);
    expect((await searchSpace(space.spaceId, term)).count).toBe(1);
    await space.merge(cr.number);
    expect(await searchSpace(space.spaceId, term)).toEqual({ count: 0, items: [] });
  });

  it("leaves out a page whose front matter says noIndex, as GitBook does", async () => {
    const term = word("quokka");
    const space = await titled("Islands");
    await space.seed([
      insertPage("Public", `${term} here`),
      insertPage("Unlisted", `---\nnoIndex: true\n---\n\n${term} there`),
    ]);
    expect((await searchSpace(space.spaceId, term)).items.map((page) => page.title)).toEqual(["Public"]);
    expect(titles(await search(term))).toEqual([["Islands", ["Public"]]]);
  });

  it("answers 401, 400 and 404 (another organization's space, a space the caller cannot read)", async () => {
    const space = await titled("Guarded");
    const url = `/v1/spaces/${space.spaceId}/search`;
    await s.t.request.get(`${url}?query=x`).expect(401);
    expectError((await s.t.request.get(url).set(s.reader.auth).expect(400)).body, 400);
    await s.t.request
      .get(`${url}?query=${"a".repeat(513)}`)
      .set(s.reader.auth)
      .expect(400);
    await s.t.request.get(`${url}?query=x&page=forged`).set(s.reader.auth).expect(400);
    await s.t.request.get(`${url}?query=x`).set(s.outsider.auth).expect(404);
    const guest = await guestOf(s.t, s.organizationId);
    await s.t.request.get(`${url}?query=x`).set(guest.auth).expect(404);
    await s.t.request.get(`/v1/spaces/nope/search?query=x`).set(s.reader.auth).expect(404);
  });
});
