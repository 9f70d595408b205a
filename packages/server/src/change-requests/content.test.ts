import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ContentScenario,
  createContentScenario,
  deletePage,
  expectError,
  flatten,
  insertPage,
  jsonDocument,
  newSpaceContent,
  textBlock,
  updatePage,
} from "./testing.js";

let s: ContentScenario;
beforeAll(async () => {
  s = await createContentScenario();
});
afterAll(() => s.t.close());

describe("POST …/change-requests/{changeRequestId}/content", () => {
  it("inserts, updates and deletes pages in order as one new revision", async () => {
    const space = await newSpaceContent(s);
    const cr = await space.createChangeRequest(s.editor);
    const res = await space.edit(
      cr.number,
      [insertPage("Getting started", "# Hello\n\nFirst steps.\n"), insertPage("Guides", "Guides body")],
      s.editor,
    );
    expect(res.body).toMatchObject({ id: cr.id, number: cr.number, status: "draft", outdated: false });
    expect(res.body.revision).not.toBe(cr.revision);
    expect(res.body.revisionInitial).toBe(cr.revisionInitial);

    const pages = await space.pages(cr.number);
    expect(pages.map((p) => [p.title, p.slug, p.path])).toEqual([
      ["Getting started", "getting-started", "getting-started"],
      ["Guides", "guides", "guides"],
    ]);
    const [started, guides] = pages.map((p) => p.id) as [string, string];
    const page = await space.page(started, cr.number);
    expect(page).toMatchObject({
      type: "document",
      markdown: "# Hello\n\nFirst steps.\n",
      documentId: expect.any(String),
    });
    expect(page.urls?.app).toBe(
      `http://quire.test/app/spaces/${space.spaceId}/change-requests/${cr.number}/getting-started`,
    );

    // The second batch: a child, a rename (the slug stays), a body change, and a deletion.
    await space.edit(
      cr.number,
      [
        insertPage("Install", "apt install quire", guides),
        updatePage(guides, { title: "How-to guides", markdown: "New guides body" }),
        deletePage(started),
      ],
      s.editor,
    );
    const after = await space.pages(cr.number);
    expect(after).toMatchObject([
      {
        id: guides,
        title: "How-to guides",
        slug: "guides",
        pages: [{ title: "Install", path: "guides/install" }],
      },
    ]);
    expect((await space.page(guides, cr.number)).markdown).toBe("New guides body");
    // The main content did not move.
    expect(await space.pages()).toEqual([]);
  });

  it("places pages before or after a sibling and gives colliding slugs -2, -3", async () => {
    const space = await newSpaceContent(s);
    const cr = await space.createChangeRequest();
    await space.edit(cr.number, [insertPage("A"), insertPage("C")]);
    const [a, c] = (await space.pages(cr.number)).map((p) => p.id) as [string, string];
    await space.edit(cr.number, [
      { type: "insert_page", title: "B", markdown: "", position: { before: { type: "page", page: c } } },
      { type: "insert_page", title: "A", markdown: "", position: { after: { type: "page", page: a } } },
      { type: "insert_page", title: "a!", markdown: "", position: { before: { type: "page", page: a } } },
      // `before` wins when both are given.
      {
        type: "insert_page",
        title: "Zero",
        markdown: "",
        position: { before: { type: "page", page: a }, after: { type: "page", page: c } },
      },
    ]);
    const pages = await space.pages(cr.number);
    expect(pages.map((p) => `${p.title}:${p.slug}`)).toEqual([
      "a!:a-3",
      "Zero:zero",
      "A:a",
      "A:a-2",
      "B:b",
      "C:c",
    ]);
  });

  it("keeps page ids and empty bodies stable: no documentId for an empty page", async () => {
    const space = await newSpaceContent(s);
    const cr = await space.createChangeRequest();
    await space.edit(cr.number, [insertPage("Empty")]);
    const [empty] = await space.pages(cr.number);
    expect(empty?.documentId).toBeUndefined();
    expect((await space.page(empty?.id as string, cr.number)).markdown).toBe("");
    await space.edit(cr.number, [updatePage(empty?.id as string, { markdown: "Now with a body" })]);
    const [filled] = await space.pages(cr.number);
    expect(filled).toMatchObject({ id: empty?.id, documentId: expect.any(String) });
  });

  it("accepts GitBook's wire format: operation, into/at, document.markdown, leading heading as title", async () => {
    const space = await newSpaceContent(s);
    const cr = await space.createChangeRequest();
    await space.edit(cr.number, [
      { operation: "insert_page", title: "Parent", document: { markdown: "Parent body" } },
      { operation: "insert_page", document: { markdown: "# From the heading\n\nBody after it.\n" } },
      { operation: "insert_page", document: { markdown: "No heading" } },
    ]);
    const top = await space.pages(cr.number);
    expect(top.map((p) => p.title)).toEqual(["Parent", "From the heading", "Untitled"]);
    const [parent, fromHeading, untitled] = top.map((p) => p.id) as [string, string, string];
    expect((await space.page(fromHeading, cr.number)).markdown).toBe("Body after it.\n");

    await space.edit(cr.number, [
      { operation: "insert_page", title: "Second child", into: parent, document: { markdown: "" } },
      { operation: "insert_page", title: "First child", into: parent, at: 0, document: { markdown: "" } },
      { operation: "update_page", page: untitled, title: "Named", into: parent, at: 1 },
      { operation: "update_page", page: fromHeading, document: { markdown: "# Kept heading\n" } },
    ]);
    const tree = await space.pages(cr.number);
    expect(tree.map((p) => p.title)).toEqual(["Parent", "From the heading"]);
    expect(tree[0]?.pages?.map((p) => `${p.title}:${p.path}`)).toEqual([
      "First child:parent/first-child",
      "Named:parent/untitled",
      "Second child:parent/second-child",
    ]);
    // update_page replaces the body as given: GitBook reads no title from it.
    expect((await space.page(fromHeading, cr.number)).markdown).toBe("# Kept heading\n");

    // Quire's and GitBook's forms mix in one batch; moving to the top level with `into: null`.
    await space.edit(cr.number, [
      { operation: "update_page", page: untitled, into: null, at: 0 },
      { operation: "delete_page", page: fromHeading },
      updatePage(parent, { title: "Renamed" }),
    ]);
    expect((await space.pages(cr.number)).map((p) => `${p.title}:${p.slug}`)).toEqual([
      "Named:untitled",
      "Renamed:parent",
    ]);
  });

  it("keeps GitBook's page metadata: slug, and description, icon, visibility and indexing in the front matter", async () => {
    const space = await newSpaceContent(s);
    const cr = await space.createChangeRequest();
    await space.edit(cr.number, [
      {
        operation: "insert_page",
        slug: "getting-started",
        description: "First steps.",
        icon: "rocket",
        hidden: true,
        noIndex: false,
        emoji: "",
        condition: "",
        document: { markdown: "# Start here\n\nHello.\n" },
      },
      {
        operation: "insert_page",
        title: "Own",
        description: "Ignored: the body's front matter says otherwise.",
        noRobotsIndex: true,
        document: { markdown: "---\ndescription: From the body.\n---\n\nText.\n" },
      },
    ]);
    const [start, own] = await space.pages(cr.number);
    // The leading heading still names the page; the metadata opens its body.
    expect(start).toMatchObject({ title: "Start here", slug: "getting-started", path: "getting-started" });
    expect((await space.page(start?.id as string, cr.number)).markdown).toBe(
      "---\ndescription: First steps.\nicon: rocket\nhidden: true\n---\n\nHello.\n",
    );
    expect((await space.page(own?.id as string, cr.number)).markdown).toBe(
      "---\ndescription: From the body.\nnoRobotsIndex: true\n---\n\nText.\n",
    );

    // Metadata alone edits the current body's front matter: "" and false remove, the text stays.
    await space.edit(cr.number, [
      { operation: "update_page", page: start?.id as string, icon: "", hidden: false, noIndex: true },
      { operation: "update_page", page: start?.id as string, description: "Second steps.", slug: "start" },
    ]);
    const updated = await space.page(start?.id as string, cr.number);
    expect(updated).toMatchObject({ slug: "start", path: "start" });
    expect(updated.markdown).toBe("---\ndescription: Second steps.\nnoIndex: true\n---\n\nHello.\n");
    await space.edit(cr.number, [
      { operation: "update_page", page: start?.id as string, description: "", noIndex: false },
    ]);
    expect((await space.page(start?.id as string, cr.number)).markdown).toBe("Hello.\n");
  });

  it("refuses GitBook's page metadata Quire cannot keep, and a slug a sibling has, writing nothing", async () => {
    const space = await newSpaceContent(s);
    const cr = await space.createChangeRequest();
    await space.edit(cr.number, [insertPage("One", "1"), insertPage("Two", "2")]);
    const before = await space.getChangeRequest(cr.number);
    const [one] = await space.pages(cr.number);
    const attempts = [
      { change: { operation: "update_page", page: one?.id, emoji: "🎉" }, text: "emoji" },
      {
        change: { operation: "update_page", page: one?.id, condition: "visitor.claims.pro" },
        text: "condition",
      },
      { change: { operation: "update_page", page: one?.id, slug: "two" }, text: 'slug "two"' },
      { change: { operation: "insert_page", slug: "one", document: { markdown: "" } }, text: 'slug "one"' },
    ];
    for (const { change, text } of attempts)
      expectError((await space.edit(cr.number, [change as never], s.admin, 400)).body, 400, text);
    for (const slug of ["Upper", "with space", "a/b", "-x", "x".repeat(101)])
      await space.edit(
        cr.number,
        [{ operation: "update_page", page: one?.id as string, slug }],
        s.admin,
        400,
      );
    expect((await space.getChangeRequest(cr.number)).revision).toBe(before.revision);
  });

  it("accepts GitBook's JSON documents in insert_page and update_page, stored as Markdown", async () => {
    const space = await newSpaceContent(s);
    const cr = await space.createChangeRequest();
    const hello = jsonDocument(textBlock("paragraph", "Hello"));
    await space.edit(cr.number, [{ operation: "insert_page", title: "Doc", document: { document: hello } }]);
    const [page] = await space.pages(cr.number);
    const id = page?.id as string;
    const read = async () =>
      (
        await s.t.request
          .get(`/v1/spaces/${space.spaceId}/change-requests/${cr.number}/content/page/${id}`)
          .set(s.admin.auth)
          .expect(200)
      ).body;
    expect(await space.page(id, cr.number)).toMatchObject({ title: "Doc", markdown: "Hello\n" });
    expect((await read()).document).toMatchObject(hello);

    const title = jsonDocument(textBlock("heading-2", "Title"));
    await space.edit(cr.number, [{ operation: "update_page", page: id, document: { document: title } }]);
    expect(await space.page(id, cr.number)).toMatchObject({ title: "Doc", markdown: "## Title\n" });
    expect((await read()).document).toMatchObject(title);
  });

  it("converts an update_page's document against the page's body: the blocks it left keep their text", async () => {
    const space = await newSpaceContent(s);
    const cr = await space.createChangeRequest();
    await space.edit(cr.number, [insertPage("Mixed", "Keep   *this*  text.\n\nOld.\n")]);
    const [page] = await space.pages(cr.number);
    const id = page?.id as string;
    const { document } = (
      await s.t.request
        .get(`/v1/spaces/${space.spaceId}/change-requests/${cr.number}/content/page/${id}`)
        .set(s.admin.auth)
        .expect(200)
    ).body;
    const changed = { ...document, nodes: [document.nodes[0], textBlock("paragraph", "New.")] };
    await space.edit(cr.number, [{ operation: "update_page", page: id, document: { document: changed } }]);
    const { markdown } = await space.page(id, cr.number);
    expect(markdown.startsWith("Keep   *this*  text.\n\n")).toBe(true);
    expect(markdown).toContain("New.");
    expect(markdown).not.toContain("Old.");
  });

  it("rejects a JSON document that is not GitBook's with 400 naming the change, writing nothing", async () => {
    const space = await newSpaceContent(s);
    const cr = await space.createChangeRequest();
    await space.edit(cr.number, [insertPage("Kept", "kept\n")]);
    const before = await space.getChangeRequest(cr.number);
    const [kept] = await space.pages(cr.number);
    const invalid = { document: jsonDocument(textBlock("no-such-block", "x")) };
    const valid = { document: jsonDocument(textBlock("paragraph", "Hello")) };
    const attempts = [
      {
        changes: [{ operation: "insert_page" as const, document: invalid }],
        text: "changes[0] (insert_page)",
      },
      {
        changes: [
          insertPage("New"),
          { operation: "update_page" as const, page: kept?.id as string, document: invalid },
        ],
        text: "changes[1] (update_page)",
      },
      // A page not in the content: the document converts, and the change is refused as any update of it.
      {
        changes: [{ operation: "update_page" as const, page: "missing", document: valid }],
        text: "changes[0] (update_page)",
      },
    ];
    for (const { changes, text } of attempts) {
      const res = await space.edit(cr.number, changes, s.admin, 400);
      expectError(res.body, 400, text);
    }
    expect((await space.getChangeRequest(cr.number)).revision).toBe(before.revision);
    expect((await space.pages(cr.number)).map((p) => p.title)).toEqual(["Kept"]);
    expect((await space.page(kept?.id as string, cr.number)).markdown).toBe("kept\n");
  });

  it("rejects the whole batch with 400 naming the change when one cannot apply", async () => {
    const space = await newSpaceContent(s);
    const cr = await space.createChangeRequest();
    await space.edit(cr.number, [insertPage("Kept", "kept")]);
    const before = await space.getChangeRequest(cr.number);
    const [kept] = await space.pages(cr.number);
    const attempts = [
      {
        changes: [insertPage("New"), updatePage("missing", { title: "x" })],
        text: "changes[1] (update_page)",
      },
      { changes: [insertPage("Child", "", "missing")], text: 'parent page "missing" does not exist' },
      { changes: [deletePage(kept?.id as string), deletePage(kept?.id as string)], text: "changes[1]" },
      {
        changes: [
          {
            type: "insert_page" as const,
            title: "x",
            markdown: "",
            position: { after: { type: "page" as const, page: "missing" } },
          },
        ],
        text: "not a sibling",
      },
      {
        changes: [{ operation: "update_page" as const, page: kept?.id as string, into: kept?.id as string }],
        text: "under itself",
      },
    ];
    for (const { changes, text } of attempts) {
      const res = await space.edit(cr.number, changes, s.admin, 400);
      expectError(res.body, 400, text);
    }
    // The schema's checks: no changes, more than 50, an unknown kind, a missing title.
    await space.edit(cr.number, [], s.admin, 400);
    await space.edit(
      cr.number,
      Array.from({ length: 51 }, (_, i) => insertPage(`P${i}`)),
      s.admin,
      400,
    );
    await s.t.request
      .post(`/v1/spaces/${space.spaceId}/change-requests/${cr.number}/content`)
      .set(s.admin.auth)
      .send({ changes: [{ type: "move_page", page: "x" }] })
      .expect(400);
    await s.t.request
      .post(`/v1/spaces/${space.spaceId}/change-requests/${cr.number}/content`)
      .set(s.admin.auth)
      .send({ changes: [{ type: "insert_page", markdown: "" }] })
      .expect(400);

    const after = await space.getChangeRequest(cr.number);
    expect(after.revision).toBe(before.revision);
    expect((await space.pages(cr.number)).map((p) => p.title)).toEqual(["Kept"]);
  });

  it("applies 50 changes in one request", async () => {
    const space = await newSpaceContent(s);
    const cr = await space.createChangeRequest();
    await space.edit(
      cr.number,
      Array.from({ length: 50 }, (_, i) => insertPage(`Page ${i}`, `Body ${i}`)),
    );
    const pages = await space.pages(cr.number);
    expect(pages.map((p) => p.title)).toEqual(Array.from({ length: 50 }, (_, i) => `Page ${i}`));
  });

  it("answers 404 for another organization or change request, 403 below edit", async () => {
    const space = await newSpaceContent(s);
    const cr = await space.createChangeRequest();
    const url = `/v1/spaces/${space.spaceId}/change-requests/${cr.number}/content`;
    const body = { changes: [insertPage("x")] };
    await s.t.request.post(url).set(s.outsider.auth).send(body).expect(404);
    await s.t.request
      .post(`/v1/spaces/${space.spaceId}/change-requests/999/content`)
      .set(s.admin.auth)
      .send(body)
      .expect(404);
    for (const user of [s.reader, s.commenter]) {
      const res = await s.t.request.post(url).set(user.auth).send(body).expect(403);
      expectError(res.body, 403);
    }
    expect(await space.pages(cr.number)).toEqual([]);
  });

  it("answers 409 for an archived or merged change request and a deleted space, writing nothing", async () => {
    const space = await newSpaceContent(s);
    const archived = await space.createChangeRequest();
    await s.t.request
      .patch(`/v1/spaces/${space.spaceId}/change-requests/${archived.number}`)
      .set(s.admin.auth)
      .send({ status: "archived" })
      .expect(200);
    expectError(
      (await space.edit(archived.number, [insertPage("x")], s.admin, 409)).body,
      409,
      "archived",
      "change_request_closed",
    );
    const merged = await space.createChangeRequest();
    await space.merge(merged.number);
    expectError(
      (await space.edit(merged.number, [insertPage("x")], s.admin, 409)).body,
      409,
      "merged",
      "change_request_closed",
    );

    const open = await space.createChangeRequest();
    await s.t.db
      .updateTable("spaces")
      .set({ deleted_at: s.t.clock.now().toISOString() })
      .where("id", "=", space.spaceId)
      .execute();
    expectError(
      (await space.edit(open.number, [insertPage("x")], s.admin, 409)).body,
      409,
      "deleted",
      "space_deleted",
    );
    // An invalid change is still told first (400 before 409).
    await space.edit(open.number, [deletePage("missing")], s.admin, 400);
    expect(await space.pages(open.number)).toEqual([]);
  });

  it("works in a locked space: change requests are how a locked space is edited", async () => {
    const space = await newSpaceContent(s);
    await s.t.request
      .patch(`/v1/spaces/${space.spaceId}`)
      .set(s.admin.auth)
      .send({ editMode: "locked" })
      .expect(200);
    const cr = await space.createChangeRequest(s.editor);
    await space.edit(cr.number, [insertPage("Edited while locked")], s.editor);
    await space.merge(cr.number, s.reviewer);
    expect(flatten(await space.pages()).map((p) => p.title)).toEqual(["Edited while locked"]);
  });
});
