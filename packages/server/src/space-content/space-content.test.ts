import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ContentScenario,
  createContentScenario,
  flatten,
  insertPage,
  newSpaceContent,
  textBlock,
  updatePage,
} from "../change-requests/testing.js";
import { editMainContent } from "../content/testing.js";

let s: ContentScenario;
beforeAll(async () => {
  s = await createContentScenario();
});
afterAll(() => s.t.close());

/** A space with merged content: Guide (with Install under it) and FAQ; and an open change request. */
async function scenario() {
  const space = await newSpaceContent(s);
  const first = await space.seed([insertPage("Guide", "# Guide\n\nRead me.\n"), insertPage("FAQ", "")]);
  const ids = {
    ...first,
    ...(await space.seed([insertPage("Install", "apt install", first.Guide)])),
  } as Record<"Guide" | "FAQ" | "Install", string>;
  const cr = await space.createChangeRequest();
  await space.edit(cr.number, [
    updatePage(ids.FAQ, { title: "Questions", markdown: "Ask." }),
    insertPage("Draft page"),
  ]);
  return { space, ids, cr: await space.getChangeRequest(cr.number) };
}

describe("space content reads", () => {
  it("GET /content: the current revision with its nested page tree, no bodies", async () => {
    const { space, ids } = await scenario();
    const current = await space.space();
    const res = await s.t.request.get(`/v1/spaces/${space.spaceId}/content`).set(s.reader.auth).expect(200);
    expect(res.body).toMatchObject({
      object: "revision",
      id: current.revision,
      type: "merge",
      files: [],
      reusableContents: [],
      urls: { app: `http://quire.test/app/spaces/${space.spaceId}/revisions/${current.revision}` },
    });
    expect(res.body.parents).toHaveLength(2);
    expect(res.body.pages).toMatchObject([
      {
        id: ids.Guide,
        title: "Guide",
        path: "guide",
        pages: [{ id: ids.Install, path: "guide/install", pages: [] }],
      },
      { id: ids.FAQ, title: "FAQ", path: "faq", pages: [] },
    ]);
    expect(JSON.stringify(res.body)).not.toContain("markdown");
    // Query flags are accepted and checked.
    await s.t.request
      .get(`/v1/spaces/${space.spaceId}/content?metadata=false&computed=false`)
      .set(s.reader.auth)
      .expect(200);
    await s.t.request
      .get(`/v1/spaces/${space.spaceId}/content?metadata=maybe`)
      .set(s.reader.auth)
      .expect(400);
  });

  it("a new space has an empty first revision", async () => {
    const space = await newSpaceContent(s);
    const res = await s.t.request.get(`/v1/spaces/${space.spaceId}/content`).set(s.reader.auth).expect(200);
    expect(res.body).toMatchObject({ type: "edits", parents: [], pages: [], files: [] });
    expect(await space.pages()).toEqual([]);
  });

  it("GET /revisions/{revisionId}: any revision of the space, immutable; 404 for another space's", async () => {
    const { space, cr } = await scenario();
    const url = (revision: string) => `/v1/spaces/${space.spaceId}/revisions/${revision}`;
    const initial = (await s.t.request.get(url(cr.revisionInitial)).set(s.reader.auth).expect(200)).body;
    const crRevision = (await s.t.request.get(url(cr.revision)).set(s.reader.auth).expect(200)).body;
    expect(crRevision).toMatchObject({ type: "edits", parents: [cr.revisionInitial] });
    expect(flatten(crRevision.pages).map((p: { title: string }) => p.title)).toEqual([
      "Guide",
      "Install",
      "Questions",
      "Draft page",
    ]);
    // Merging the change request changes neither revision.
    await space.merge(cr.number);
    expect((await s.t.request.get(url(cr.revisionInitial)).set(s.reader.auth).expect(200)).body).toEqual(
      initial,
    );
    expect((await s.t.request.get(url(cr.revision)).set(s.reader.auth).expect(200)).body).toEqual(crRevision);

    const other = await newSpaceContent(s);
    await s.t.request
      .get(`/v1/spaces/${other.spaceId}/revisions/${cr.revision}`)
      .set(s.admin.auth)
      .expect(404);
    await s.t.request.get(url("nope")).set(s.admin.auth).expect(404);
  });

  it("GET /content/page/{pageId}: the page with its children, its body as a document, or as Markdown when asked", async () => {
    const { space, ids } = await scenario();
    const url = `/v1/spaces/${space.spaceId}/content/page/${ids.Guide}`;
    const plain = (await s.t.request.get(url).set(s.reader.auth).expect(200)).body;
    expect(plain).toMatchObject({
      id: ids.Guide,
      title: "Guide",
      slug: "guide",
      path: "guide",
      type: "document",
    });
    expect(plain.pages).toMatchObject([{ id: ids.Install }]);
    expect(plain.markdown).toBeUndefined();
    expect(plain.document).toMatchObject({ object: "document", nodes: expect.any(Array) });
    const asDocument = (await s.t.request.get(`${url}?format=document`).set(s.reader.auth).expect(200)).body;
    expect(asDocument.markdown).toBeUndefined();
    expect(asDocument.document).toEqual(plain.document);
    const markdown = (await s.t.request.get(`${url}?format=markdown`).set(s.reader.auth).expect(200)).body;
    expect(markdown.markdown).toBe("# Guide\n\nRead me.\n");
    expect(markdown.document).toBeUndefined();
    expect(markdown.createdAt).toEqual(expect.any(String));
    await s.t.request.get(`${url}?format=html`).set(s.reader.auth).expect(400);
    // GitBook's document options change nothing here (no expressions, no reusable contents): the
    // same page, not a 400.
    for (const options of [
      "evaluated=true&dereferenced=true",
      "evaluated=deterministic-only&dereferenced=reusable-contents",
      "format=markdown&format.markdown.refs=stable",
    ]) {
      const same = (await s.t.request.get(`${url}?${options}`).set(s.reader.auth).expect(200)).body;
      expect(same).toEqual(options.startsWith("format=markdown") ? markdown : plain);
    }
    const byPath = `/v1/spaces/${space.spaceId}/content/path/guide`;
    expect(
      (await s.t.request.get(`${byPath}?cachedMetadata=true&evaluated=false`).set(s.reader.auth).expect(200))
        .body,
    ).toEqual(plain);
    for (const bad of ["evaluated=maybe", "dereferenced=all", "format.markdown.refs=absolute"])
      await s.t.request.get(`${url}?${bad}`).set(s.reader.auth).expect(400);
    // The change request's page is not in the main content.
    const draft = flatten(await space.pages(1)).find((p) => p.title === "Draft page");
    await s.t.request
      .get(`/v1/spaces/${space.spaceId}/content/page/${draft?.id}`)
      .set(s.reader.auth)
      .expect(404);
  });

  it("GET /content/page/{pageId}: GitBook's JSON document of the body by default; an empty page's has no nodes", async () => {
    const space = await newSpaceContent(s);
    const ids = await space.seed([
      insertPage("Hello", "Hello\n"),
      insertPage("Titled", "## Title\n"),
      insertPage("Empty", ""),
    ]);
    const read = async (title: "Hello" | "Titled" | "Empty", query = "") =>
      (
        await s.t.request
          .get(`/v1/spaces/${space.spaceId}/content/page/${ids[title]}${query}`)
          .set(s.reader.auth)
          .expect(200)
      ).body;
    const hello = await read("Hello");
    expect(hello.markdown).toBeUndefined();
    expect(hello.document).toMatchObject({
      object: "document",
      data: {},
      nodes: [textBlock("paragraph", "Hello")],
    });
    expect((await read("Titled")).document.nodes[0]).toMatchObject(textBlock("heading-2", "Title"));
    expect((await read("Empty")).document).toEqual({ object: "document", data: {}, nodes: [] });
    const markdown = await read("Hello", "?format=markdown");
    expect(markdown).toMatchObject({ markdown: "Hello\n" });
    expect(markdown.document).toBeUndefined();
  });

  it("GET /content/files and /content/files/{fileId}: no file yet", async () => {
    const { space } = await scenario();
    expect(
      (await s.t.request.get(`/v1/spaces/${space.spaceId}/content/files`).set(s.reader.auth).expect(200))
        .body,
    ).toEqual({
      count: 0,
      items: [],
    });
    await s.t.request
      .get(`/v1/spaces/${space.spaceId}/content/files?limit=-1`)
      .set(s.reader.auth)
      .expect(400);
    await s.t.request.get(`/v1/spaces/${space.spaceId}/content/files/f1`).set(s.reader.auth).expect(404);
  });

  it("answers 404 (another organization, a missing space) for every read; a deleted space still reads", async () => {
    const { space, ids } = await scenario();
    const paths = [
      "content",
      "content/pages",
      `content/page/${ids.Guide}`,
      "content/files",
      "content/files/f1",
    ];
    for (const path of paths) {
      await s.t.request.get(`/v1/spaces/${space.spaceId}/${path}`).set(s.outsider.auth).expect(404);
      await s.t.request.get(`/v1/spaces/nope/${path}`).set(s.admin.auth).expect(404);
    }
    await s.t.db
      .updateTable("spaces")
      .set({ deleted_at: s.t.clock.now().toISOString() })
      .where("id", "=", space.spaceId)
      .execute();
    expect((await space.pages()).map((p) => p.title)).toEqual(["Guide", "FAQ"]);
  });
});

describe("change request content reads", () => {
  it("read the change request's revision, pages, page and files, by id or number", async () => {
    const { space, ids, cr } = await scenario();
    for (const ref of [cr.number, cr.id]) {
      const base = `/v1/spaces/${space.spaceId}/change-requests/${ref}/content`;
      const revision = (await s.t.request.get(base).set(s.reader.auth).expect(200)).body;
      expect(revision).toMatchObject({ id: cr.revision, type: "edits" });
      const pages = (await s.t.request.get(`${base}/pages`).set(s.reader.auth).expect(200)).body.pages;
      expect(pages.map((p: { title: string }) => p.title)).toEqual(["Guide", "Questions", "Draft page"]);
      expect(pages[1].urls.app).toBe(
        `http://quire.test/app/spaces/${space.spaceId}/change-requests/${cr.number}/faq`,
      );
      const page = (
        await s.t.request.get(`${base}/page/${ids.FAQ}?format=markdown`).set(s.reader.auth).expect(200)
      ).body;
      expect(page).toMatchObject({ title: "Questions", slug: "faq", markdown: "Ask." });
      // A change request's page answers its body as a document too, unless Markdown is asked for.
      const asDocument = (await s.t.request.get(`${base}/page/${ids.FAQ}`).set(s.reader.auth).expect(200))
        .body;
      expect(asDocument.markdown).toBeUndefined();
      expect(asDocument.document.nodes[0]).toMatchObject({ object: "block", type: "paragraph" });
      expect((await s.t.request.get(`${base}/files`).set(s.reader.auth).expect(200)).body.count).toBe(0);
      await s.t.request.get(`${base}/files/f1`).set(s.reader.auth).expect(404);
      await s.t.request.get(`${base}/page/missing`).set(s.reader.auth).expect(404);
    }
  });

  it("answer 404 (another organization, another space's change request)", async () => {
    const { space, cr } = await scenario();
    const other = await newSpaceContent(s);
    for (const path of ["content", "content/pages", "content/page/x", "content/files", "content/files/x"]) {
      await s.t.request
        .get(`/v1/spaces/${space.spaceId}/change-requests/${cr.number}/${path}`)
        .set(s.outsider.auth)
        .expect(404);
      await s.t.request
        .get(`/v1/spaces/${other.spaceId}/change-requests/${cr.id}/${path}`)
        .set(s.admin.auth)
        .expect(404);
    }
  });
});

describe("group and link pages", () => {
  it("are listed and read with their type, a link with its href, and neither with a body", async () => {
    const space = await newSpaceContent(s);
    const { Intro } = await space.seed([insertPage("Intro", "Hello.")]);
    await editMainContent(
      s.t.db,
      { spaceId: space.spaceId, revisionId: s.t.ids.next(), now: s.t.clock.now().toISOString() },
      (draft, storage) => {
        draft.insert({
          id: "grp",
          title: "Guides",
          parent: null,
          placement: {},
          document: null,
          kind: "group",
        });
        draft.insert({
          id: "doc",
          title: "Setup",
          parent: "grp",
          placement: {},
          document: storage.saveDocument("Set up."),
        });
        draft.insert({
          id: "lnk",
          title: "Website",
          parent: "grp",
          placement: {},
          document: null,
          kind: "link",
          href: "https://example.com/",
        });
      },
    );
    expect(await space.pages()).toMatchObject([
      { id: Intro, type: "document", path: "intro" },
      {
        id: "grp",
        title: "Guides",
        type: "group",
        path: "guides",
        pages: [
          { id: "doc", type: "document", path: "guides/setup" },
          { id: "lnk", title: "Website", type: "link", href: "https://example.com/", path: "guides/website" },
        ],
      },
    ]);
    const [intro, group] = await space.pages();
    expect(intro).not.toHaveProperty("href");
    expect(group).not.toHaveProperty("href");
    expect(group).not.toHaveProperty("documentId");

    const read = async (id: string, query = "") =>
      (
        await s.t.request
          .get(`/v1/spaces/${space.spaceId}/content/page/${id}${query}`)
          .set(s.reader.auth)
          .expect(200)
      ).body;
    const link = await read("lnk", "?format=markdown");
    expect(link).toMatchObject({ id: "lnk", type: "link", href: "https://example.com/" });
    // GitBook's older `kind` and a link's `target`, which its typings require.
    expect(link).toMatchObject({ kind: "link", target: { kind: "url", url: "https://example.com/" } });
    expect(link).not.toHaveProperty("markdown");
    expect(link).not.toHaveProperty("tags");
    const groupRead = await read("grp");
    expect(groupRead).toMatchObject({ type: "group", pages: [{ id: "doc" }, { id: "lnk", type: "link" }] });
    expect(groupRead).not.toHaveProperty("document");
    expect(groupRead).toMatchObject({ kind: "group" });
    expect(await read("doc", "?format=markdown")).toMatchObject({
      type: "document",
      kind: "sheet",
      tags: [],
      markdown: "Set up.",
    });
  });
});

describe("page metadata and layout", () => {
  const INSTALL = [
    "---",
    "description: How to install it",
    "icon: gear",
    "hidden: true",
    "layout:",
    "  width: wide",
    "  cover:",
    "    visible: true",
    "    size: full",
    "  title:",
    "    visible: false",
    "  pagination:",
    "    visible: false",
    "---",
    "",
    "# Install",
    "",
  ].join("\n");
  const DEFAULT_LAYOUT = {
    width: "default",
    cover: true,
    coverSize: "hero",
    coverMask: "none",
    title: true,
    description: true,
    tableOfContents: true,
    outline: true,
    pagination: true,
    metadata: true,
    tags: true,
    actions: true,
    anchors: true,
  };
  const INSTALL_LAYOUT = {
    ...DEFAULT_LAYOUT,
    width: "wide",
    coverSize: "full",
    title: false,
    pagination: false,
  };

  it("come from each body's front matter, in listings, page reads and revisions; GitBook's defaults without", async () => {
    const space = await newSpaceContent(s);
    const { Guide } = (await space.seed([insertPage("Guide", "Read me.")])) as Record<"Guide", string>;
    const { Install } = (await space.seed([insertPage("Install", INSTALL, Guide)])) as Record<
      "Install",
      string
    >;
    const guide = { id: Guide, layout: DEFAULT_LAYOUT };
    const install = {
      id: Install,
      description: "How to install it",
      icon: "gear",
      hidden: true,
      layout: INSTALL_LAYOUT,
    };
    const [listed] = await space.pages();
    expect(listed).toEqual(expect.objectContaining({ ...guide, pages: [expect.objectContaining(install)] }));
    expect(listed).not.toHaveProperty("description");
    expect(listed).not.toHaveProperty("hidden");

    const read = await s.t.request
      .get(`/v1/spaces/${space.spaceId}/content/page/${Guide}`)
      .set(s.reader.auth);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ ...guide, pages: [install] });
    const revision = (await space.space()).revision;
    const byRevision = await s.t.request
      .get(`/v1/spaces/${space.spaceId}/revisions/${revision}`)
      .set(s.reader.auth)
      .expect(200);
    expect(byRevision.body.pages).toMatchObject([{ ...guide, pages: [install] }]);

    // The front matter gone, the page takes the defaults; the revision before keeps what it had.
    const cr = await space.createChangeRequest();
    await space.edit(cr.number, [updatePage(Install, { markdown: "# Install\n" })]);
    const [, inChangeRequest] = flatten(await space.pages(cr.number));
    expect(inChangeRequest).toMatchObject({ id: Install, layout: DEFAULT_LAYOUT });
    expect(inChangeRequest).not.toHaveProperty("description");
    const before = await s.t.request
      .get(`/v1/spaces/${space.spaceId}/revisions/${revision}/page/${Install}`)
      .set(s.reader.auth);
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject(install);
  });
});
