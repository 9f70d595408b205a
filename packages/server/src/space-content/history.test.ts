import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ContentScenario,
  createContentScenario,
  flatten,
  insertPage,
  newSpaceContent,
  updatePage,
} from "../change-requests/testing.js";
import { editMainContent } from "../content/testing.js";
import { pngOf } from "../files/testing.js";

let s: ContentScenario;
beforeAll(async () => {
  s = await createContentScenario();
});
afterAll(() => s.t.close());

/**
 * A space whose history is: its first revision; Guide and FAQ merged by the admin; a change request
 * by the editor that renames FAQ, adds a file and moves Install under Guide, merged by the admin.
 */
async function history() {
  const space = await newSpaceContent(s);
  const first = (await space.space()).revision;
  const ids = (await space.seed([
    insertPage("Guide", "# Guide\n\nRead me.\n"),
    insertPage("FAQ", "Old answers."),
    insertPage("Install", "apt install"),
  ])) as Record<"Guide" | "FAQ" | "Install", string>;
  const before = (await space.space()).revision;
  // Files are placed in history by time, which the test clock only moves when told.
  s.t.clock.advance(1000);
  const cr = await space.createChangeRequest(s.editor, "Rename the FAQ");
  await space.edit(
    cr.number,
    [
      updatePage(ids.FAQ, { title: "Questions", markdown: "New answers." }),
      { operation: "update_page", page: ids.Install, into: ids.Guide },
    ],
    s.editor,
  );
  const file = (
    await s.t.request
      .post(`/v1/spaces/${space.spaceId}/change-requests/${cr.number}/files`)
      .set(s.editor.auth)
      .attach("file", pngOf(3, 2), { filename: "logo.png", contentType: "image/png" })
      .expect(201)
  ).body;
  await space.merge(cr.number);
  const after = (await space.space()).revision;
  return { space, ids, cr, file, revisions: { first, before, after } };
}

const get = (path: string, status = 200) => s.t.request.get(`/v1${path}`).set(s.reader.auth).expect(status);

describe("GET /spaces/{spaceId}/revisions: the main content's history", () => {
  it("lists the first revision and each merge, newest first, with author and change request, in pages", async () => {
    const { space, cr, revisions } = await history();
    const res = await get(`/spaces/${space.spaceId}/revisions`);
    expect(res.body.count).toBe(3);
    expect(res.body.items.map((r: { id: string }) => r.id)).toEqual([
      revisions.after,
      revisions.before,
      revisions.first,
    ]);
    const [merged, seeded, first] = res.body.items;
    expect(merged).toMatchObject({
      object: "revision",
      type: "merge",
      parents: [revisions.before, expect.any(String)],
      author: { id: s.admin.user.id, displayName: s.admin.user.display_name },
      changeRequest: { id: cr.id, number: cr.number, subject: "Rename the FAQ" },
      urls: { app: `http://quire.test/app/spaces/${space.spaceId}/revisions/${revisions.after}` },
    });
    expect(seeded).toMatchObject({ type: "merge", author: { id: s.admin.user.id } });
    expect(first).toMatchObject({ type: "edits", parents: [] });
    expect(first).not.toHaveProperty("author");
    expect(first).not.toHaveProperty("changeRequest");
    // The change request's own revision (the editor's edit) is not main's history, yet kept with its author.
    const crRevision = await s.t.db
      .selectFrom("revisions")
      .select("author_id")
      .where("id", "=", (await space.getChangeRequest(cr.number)).revision)
      .executeTakeFirstOrThrow();
    expect(crRevision.author_id).toBe(s.editor.user.id);

    const one = await get(`/spaces/${space.spaceId}/revisions?limit=1`);
    expect(one.body.items.map((r: { id: string }) => r.id)).toEqual([revisions.after]);
    const next = await get(`/spaces/${space.spaceId}/revisions?limit=2&page=${one.body.next.page}`);
    expect(next.body.items.map((r: { id: string }) => r.id)).toEqual([revisions.before, revisions.first]);
    expect(next.body.next).toBeUndefined();
  });

  it("reads a merge revision with the change request it merged (GitBook's mergedFrom), and no tags", async () => {
    const { space, cr, revisions } = await history();
    const current = (await get(`/spaces/${space.spaceId}/content`)).body;
    expect(current).toMatchObject({
      id: revisions.after,
      type: "merge",
      tags: [],
      mergedFrom: { object: "change-request", id: cr.id, number: cr.number, status: "merged" },
    });
    expect((await get(`/spaces/${space.spaceId}/revisions/${revisions.after}`)).body.mergedFrom.id).toBe(
      cr.id,
    );
    // The first revision was made by edits: it merged nothing.
    const first = (await get(`/spaces/${space.spaceId}/revisions/${revisions.first}`)).body;
    expect(first).toMatchObject({ type: "edits", tags: [] });
    expect(first).not.toHaveProperty("mergedFrom");
  });

  it("answers 401 without a token, 404 for another organization or space, 400 for a bad limit", async () => {
    const { space } = await history();
    await s.t.request.get(`/v1/spaces/${space.spaceId}/revisions`).expect(401);
    await s.t.request.get(`/v1/spaces/${space.spaceId}/revisions`).set(s.outsider.auth).expect(404);
    await get("/spaces/nope/revisions", 404);
    await get(`/spaces/${space.spaceId}/revisions?limit=abc`, 400);
    await get(`/spaces/${space.spaceId}/revisions?page=garbage`, 400);
  });
});

describe("reads of a revision: the content as it was", () => {
  it("pages, a page, its document and a page by path, before and after a merge", async () => {
    const { space, ids, revisions } = await history();
    const base = (revision: string) => `/spaces/${space.spaceId}/revisions/${revision}`;
    const titles = async (revision: string) =>
      flatten((await get(`${base(revision)}/pages`)).body.pages).map((p) => `${p.path}: ${p.title}`);
    expect(await titles(revisions.before)).toEqual(["guide: Guide", "faq: FAQ", "install: Install"]);
    expect(await titles(revisions.after)).toEqual([
      "guide: Guide",
      "guide/install: Install",
      "faq: Questions",
    ]);
    expect(await titles(revisions.first)).toEqual([]);

    const old = (await get(`${base(revisions.before)}/page/${ids.FAQ}?format=markdown`)).body;
    expect(old).toMatchObject({ id: ids.FAQ, title: "FAQ", markdown: "Old answers." });
    const current = (await get(`${base(revisions.after)}/page/${ids.FAQ}?format=markdown`)).body;
    expect(current).toMatchObject({ title: "Questions", markdown: "New answers." });
    const document = (await get(`${base(revisions.before)}/page/${ids.FAQ}/document`)).body;
    expect(document).toMatchObject({
      object: "document",
      nodes: [
        {
          object: "block",
          type: "paragraph",
          nodes: [{ object: "text", leaves: [{ text: "Old answers." }] }],
        },
      ],
    });

    // By path: where the page was in that revision; a path it did not have is 404.
    const byPath = (await get(`${base(revisions.before)}/path/install?format=markdown`)).body;
    expect(byPath).toMatchObject({ id: ids.Install, path: "install", markdown: "apt install" });
    await get(`${base(revisions.before)}/path/guide%2Finstall`, 404);
    const moved = (await get(`${base(revisions.after)}/path/guide%2Finstall`)).body;
    expect(moved).toMatchObject({ id: ids.Install, path: "guide/install", document: { object: "document" } });
    // Slashes around a path are the same path; the empty path is the first page.
    expect((await get(`${base(revisions.after)}/path/%2Fguide%2Finstall%2F`)).body.id).toBe(ids.Install);
    expect((await get(`${base(revisions.after)}/path/%2F`)).body.id).toBe(ids.Guide);

    await get(`${base(revisions.before)}/page/missing`, 404);
    await get(`${base(revisions.first)}/page/${ids.FAQ}`, 404);
    await get(`${base(revisions.before)}/page/missing/document`, 404);
  });

  it("the main content and a change request by path", async () => {
    const { space, ids } = await history();
    const main = (await get(`/spaces/${space.spaceId}/content/path/faq?format=markdown`)).body;
    expect(main).toMatchObject({ id: ids.FAQ, title: "Questions", markdown: "New answers." });
    await get(`/spaces/${space.spaceId}/content/path/nowhere`, 404);
    const cr = await space.createChangeRequest();
    await space.edit(cr.number, [insertPage("Draft", "Soon.", ids.Guide)]);
    const draft = (
      await get(
        `/spaces/${space.spaceId}/change-requests/${cr.number}/content/path/guide%2Fdraft?format=markdown`,
      )
    ).body;
    expect(draft).toMatchObject({ title: "Draft", markdown: "Soon." });
    await get(`/spaces/${space.spaceId}/content/path/guide%2Fdraft`, 404);
    await get(
      `/spaces/${space.spaceId}/change-requests/${cr.number}/content/path/guide%2Fdraft?format=html`,
      400,
    );
  });

  it("files as the revision showed them: none before the merge that added one", async () => {
    const { space, file, revisions } = await history();
    const base = (revision: string) => `/spaces/${space.spaceId}/revisions/${revision}`;
    expect((await get(`${base(revisions.before)}/files`)).body).toEqual({ count: 0, items: [] });
    await get(`${base(revisions.before)}/files/${file.id}`, 404);
    const after = (await get(`${base(revisions.after)}/files`)).body;
    expect(after).toMatchObject({ count: 1, items: [{ id: file.id, name: "logo.png" }] });
    expect((await get(`${base(revisions.after)}/files/${file.id}`)).body).toMatchObject({
      id: file.id,
      contentType: "image/png",
      dimensions: { width: 3, height: 2 },
    });
    await get(`${base(revisions.after)}/files?limit=-1`, 400);
  });

  it("every revision read answers 401, and 404 for another organization or space", async () => {
    const { space, ids, revisions } = await history();
    const paths = ["pages", `page/${ids.FAQ}`, `page/${ids.FAQ}/document`, "path/faq", "files", "files/f1"];
    const other = await newSpaceContent(s);
    for (const path of paths) {
      const url = `/v1/spaces/${space.spaceId}/revisions/${revisions.before}/${path}`;
      await s.t.request.get(url).expect(401);
      await s.t.request.get(url).set(s.outsider.auth).expect(404);
      // Another space's revision is not this space's.
      await get(`/spaces/${other.spaceId}/revisions/${revisions.before}/${path}`, 404);
    }
    for (const path of ["content/path/faq", `change-requests/1/content/path/faq`]) {
      await s.t.request.get(`/v1/spaces/${space.spaceId}/${path}`).expect(401);
      await s.t.request.get(`/v1/spaces/${space.spaceId}/${path}`).set(s.outsider.auth).expect(404);
    }
  });
});

it("a group's page has no document: 404 for its document, the group itself by path", async () => {
  const space = await newSpaceContent(s);
  await editMainContent(
    s.t.db,
    { spaceId: space.spaceId, revisionId: s.t.ids.next(), now: s.t.clock.now().toISOString() },
    (draft) =>
      draft.insert({
        id: "grp",
        title: "Guides",
        parent: null,
        placement: {},
        document: null,
        kind: "group",
      }),
  );
  const { revision } = await space.space();
  await get(`/spaces/${space.spaceId}/revisions/${revision}/page/grp/document`, 404);
  expect((await get(`/spaces/${space.spaceId}/revisions/${revision}/path/guides`)).body).toMatchObject({
    id: "grp",
    type: "group",
  });
});

describe("semantic changes", () => {
  it("of a revision: what a merge brought, in the content's order, with the body's text diff and the change request", async () => {
    const { space, ids, cr, file, revisions } = await history();
    const changes = (await get(`/spaces/${space.spaceId}/revisions/${revisions.after}/changes`)).body;
    expect(changes.mergedFrom).toMatchObject({ id: cr.id, number: cr.number, status: "merged" });
    expect(changes.more).toBeUndefined();
    expect(changes.changes).toEqual([
      {
        type: "page_moved",
        page: { id: ids.Install, type: "document", title: "Install", path: "guide/install" },
        parent: { after: { id: ids.Guide, type: "document", title: "Guide", path: "guide" } },
      },
      {
        type: "page_edited",
        page: { id: ids.FAQ, type: "document", title: "Questions", path: "faq" },
        attributes: {
          title: { before: "FAQ", after: "Questions" },
          document: { before: expect.any(String), after: expect.any(String) },
        },
        diff: "@@ -1,1 +1,1 @@\n-Old answers.\n\\ No newline at end of file\n+New answers.\n\\ No newline at end of file\n",
      },
      {
        type: "file_created",
        file: { id: file.id, name: "logo.png", contentType: "image/png", downloadURL: expect.any(String) },
      },
    ]);

    // The first merge created every page; the space's first revision changed nothing.
    const seeded = (await get(`/spaces/${space.spaceId}/revisions/${revisions.before}/changes`)).body;
    expect(
      seeded.changes.map((c: { type: string; page: { title: string } }) => `${c.type} ${c.page.title}`),
    ).toEqual(["page_created Guide", "page_created FAQ", "page_created Install"]);
    expect((await get(`/spaces/${space.spaceId}/revisions/${revisions.first}/changes`)).body).toEqual({
      changes: [],
    });
    const limited = (await get(`/spaces/${space.spaceId}/revisions/${revisions.before}/changes?limit=1`))
      .body;
    expect(limited).toMatchObject({ changes: [{ type: "page_created" }], more: 2 });
    expect(
      (await get(`/spaces/${space.spaceId}/revisions/${revisions.before}/changes?limit=0`)).body,
    ).toMatchObject({
      changes: [],
      more: 3,
    });
  });

  it("of a change request: what merging it would bring, before and after the merge", async () => {
    const { space, ids } = await history();
    const cr = await space.createChangeRequest(s.editor);
    await space.edit(
      cr.number,
      [
        updatePage(ids.Guide, { markdown: "# Guide\n\nRead me twice.\n" }),
        { type: "delete_page", page: ids.FAQ },
        insertPage("Changelog", "v1", ids.Guide),
      ],
      s.editor,
    );
    const url = `/spaces/${space.spaceId}/change-requests/${cr.number}/changes`;
    const open = (await get(url)).body;
    expect(open.mergedFrom).toBeUndefined();
    expect(open.changes).toEqual([
      {
        type: "page_edited",
        page: { id: ids.Guide, type: "document", title: "Guide", path: "guide" },
        attributes: { document: { before: expect.any(String), after: expect.any(String) } },
        diff: "@@ -1,3 +1,3 @@\n # Guide\n \n-Read me.\n+Read me twice.\n",
      },
      {
        type: "page_created",
        page: { id: expect.any(String), type: "document", title: "Changelog", path: "guide/changelog" },
      },
      { type: "page_deleted", page: { id: ids.FAQ, type: "document", title: "Questions", path: "faq" } },
    ]);
    await space.merge(cr.number);
    expect((await get(url)).body).toEqual(open);
  });

  it("answer 401, 404 for another organization, space or revision, and 400 for a bad limit", async () => {
    const { space, revisions } = await history();
    const other = await newSpaceContent(s);
    for (const url of [
      `/spaces/${space.spaceId}/revisions/${revisions.after}/changes`,
      `/spaces/${space.spaceId}/change-requests/1/changes`,
    ]) {
      await s.t.request.get(`/v1${url}`).expect(401);
      await s.t.request.get(`/v1${url}`).set(s.outsider.auth).expect(404);
      await get(`${url}?limit=1001`, 400);
      await get(`${url}?limit=-1`, 400);
    }
    await get(`/spaces/${other.spaceId}/revisions/${revisions.after}/changes`, 404);
    await get(`/spaces/${other.spaceId}/change-requests/1/changes`, 404);
  });
});
