import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Schema } from "@quire/api-types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ContentScenario,
  createContentScenario,
  deletePage,
  expectError,
  insertPage,
  newSpaceContent,
  updatePage,
} from "../change-requests/testing.js";
import { fileMarkdownUrl } from "../content/engine/references.js";
import { pngOf } from "../files/testing.js";

const directory = mkdtempSync(join(tmpdir(), "quire-links-"));
const savedDirectory = process.env.QUIRE_FILES_DIR;

let s: ContentScenario;
beforeAll(async () => {
  process.env.QUIRE_FILES_DIR = directory;
  s = await createContentScenario();
});
afterAll(async () => {
  await s.t.close();
  if (savedDirectory === undefined) delete process.env.QUIRE_FILES_DIR;
  else process.env.QUIRE_FILES_DIR = savedDirectory;
  rmSync(directory, { recursive: true, force: true });
});

type Link = Schema<"LinkReference">;
type LinkList = Schema<"LinkReferenceList">;

/** A link as `[status, what it points at, titles of the pages linking]`, for compact assertions. */
function summary(link: Link): [string, string | undefined, string[]] {
  const target = link.targetReference;
  const what =
    target?.kind === "page"
      ? `page:${target.page.title}`
      : target?.kind === "file"
        ? `file:${target.file.name}`
        : target?.kind === "url"
          ? target.url
          : undefined;
  return [
    link.status,
    what,
    link.locationReferences.map((location) =>
      location.kind === "page" ? location.page.title : location.kind,
    ),
  ];
}

async function spaceLinks(spaceId: string, query = ""): Promise<LinkList> {
  return (await s.t.request.get(`/v1/spaces/${spaceId}/links${query}`).set(s.reader.auth).expect(200)).body;
}

describe("GET /v1/spaces/{spaceId}/links", () => {
  it("lists link targets with their status and the pages using them, and follows edits and deletes", async () => {
    const space = await newSpaceContent(s);
    const ids = await space.seed([
      insertPage("Intro", "See [guide](./guide.md), [again](guide.md) and [api](https://example.com/api)."),
      insertPage(
        "Guide",
        "Back to [intro](/pages/intro), [app](http://quire.test/app/spaces/x) and [gone](./nope.md).\n\n`[not](a-link.md)`",
      ),
    ]);
    const intro = ids.Intro as string;
    const guide = ids.Guide as string;
    let links = await spaceLinks(space.spaceId);
    expect(links.items.map(summary)).toEqual([
      ["ok", "page:Guide", ["Intro"]],
      ["ok", "https://example.com/api", ["Intro"]],
      ["ok", "page:Intro", ["Guide"]],
      ["in-app", "http://quire.test/app/spaces/x", ["Guide"]],
      ["broken", undefined, ["Guide"]],
    ]);
    expect(links.stats).toEqual({ total: 5, broken: { total: 1 } });
    const first = links.items[0];
    expect(first?.targetReference).toMatchObject({
      kind: "page",
      space: { id: space.spaceId },
      page: { id: guide },
    });

    const broken = await spaceLinks(space.spaceId, "?status=broken");
    expect(broken.items.map(summary)).toEqual([["broken", undefined, ["Guide"]]]);
    expect(broken.stats).toEqual({ total: 5, broken: { total: 1 } });

    // Deleting the page makes the links to it broken; the links on it go away.
    const cr = await space.createChangeRequest();
    await space.edit(cr.number, [
      deletePage(guide),
      updatePage(intro, { markdown: `[by id](/pages/${guide})` }),
    ]);
    await space.merge(cr.number);
    links = await spaceLinks(space.spaceId);
    expect(links.items.map(summary)).toEqual([["broken", undefined, ["Intro"]]]);
    expect(links.stats).toEqual({ total: 1, broken: { total: 1 } });
  });

  it("pages through links and refuses a forged cursor", async () => {
    const space = await newSpaceContent(s);
    await space.seed([
      insertPage("A", "[1](https://a.example) [2](https://b.example) [3](https://c.example)"),
    ]);
    const first = await spaceLinks(space.spaceId, "?limit=2");
    expect(first.items).toHaveLength(2);
    expect(first.count).toBe(3);
    const second = await spaceLinks(space.spaceId, `?limit=2&page=${first.next?.page}`);
    expect(second.items.map(summary)).toEqual([["ok", "https://c.example", ["A"]]]);
    // limit=0 counts: no item and no next page, which would name the same place for ever.
    const counted = await spaceLinks(space.spaceId, "?limit=0");
    expect(counted).toMatchObject({ count: 3, items: [] });
    expect(counted.next).toBeUndefined();
    const forged = await s.t.request
      .get(`/v1/spaces/${space.spaceId}/links?page=xyz`)
      .set(s.reader.auth)
      .expect(400);
    expectError(forged.body, 400);
  });

  it("answers 404 in another organization, and 400 for an unknown status", async () => {
    const space = await newSpaceContent(s);
    expectError(
      (await s.t.request.get(`/v1/spaces/${space.spaceId}/links`).set(s.outsider.auth).expect(404)).body,
      404,
    );
    await s.t.request.get(`/v1/spaces/${space.spaceId}/links?status=nope`).set(s.reader.auth).expect(400);
    expect(await spaceLinks(space.spaceId)).toEqual({
      count: 0,
      items: [],
      stats: { total: 0, broken: { total: 0 } },
    });
  });
});

describe("GET …/change-requests/{changeRequestId}/content/page/{pageId}/links", () => {
  it("lists one page's links, counting those the change request broke", async () => {
    const space = await newSpaceContent(s);
    const ids = await space.seed([
      insertPage("Home", "[old](./missing.md) [guide](./guide.md)"),
      insertPage("Guide", "Guide"),
    ]);
    const home = ids.Home as string;
    const cr = await space.createChangeRequest(s.editor);
    await space.edit(
      cr.number,
      [deletePage(ids.Guide as string), insertPage("Other", "[home](/pages/home)")],
      s.editor,
    );
    const res = await s.t.request
      .get(`/v1/spaces/${space.spaceId}/change-requests/${cr.id}/content/page/${home}/links`)
      .set(s.reader.auth)
      .expect(200);
    expect(res.body.items.map(summary)).toEqual([
      ["broken", undefined, ["Home"]],
      ["broken", undefined, ["Home"]],
    ]);
    expect(res.body.stats).toEqual({ total: 2, broken: { total: 2, changeRequest: 1 } });
    // Main is unchanged until the merge.
    expect((await spaceLinks(space.spaceId)).stats).toEqual({ total: 2, broken: { total: 1 } });

    await s.t.request
      .get(`/v1/spaces/${space.spaceId}/change-requests/${cr.id}/content/page/${home}/links`)
      .set(s.outsider.auth)
      .expect(404);
    await s.t.request
      .get(`/v1/spaces/${space.spaceId}/change-requests/${cr.id}/content/page/nope/links`)
      .set(s.reader.auth)
      .expect(404);
  });
});

describe("GET …/change-requests/{changeRequestId}/content/files/{fileId}/backlinks", () => {
  it("lists the pages using a file, and reports links to it", async () => {
    const space = await newSpaceContent(s);
    const cr = await space.createChangeRequest(s.editor);
    const upload = await s.t.request
      .post(`/v1/spaces/${space.spaceId}/change-requests/${cr.id}/files`)
      .set(s.editor.auth)
      .attach("file", pngOf(4, 4), { filename: "logo.png", contentType: "image/png" })
      .expect(201);
    const file: Schema<"RevisionFile"> = upload.body;
    const url = fileMarkdownUrl(file.id);
    await space.edit(
      cr.number,
      [
        insertPage("Uses it", `![logo](${url})`),
        insertPage("Links it", `[download](${url}) and [missing](/files/nope)`),
        insertPage("Ignores it", "Nothing here"),
      ],
      s.editor,
    );
    const backlinks = `/v1/spaces/${space.spaceId}/change-requests/${cr.id}/content/files/${file.id}/backlinks`;
    const res = await s.t.request.get(backlinks).set(s.reader.auth).expect(200);
    expect(res.body.count).toBe(2);
    expect(
      res.body.items.map((item: Schema<"ContentReference">) =>
        item.kind === "page" ? item.page.title : item.kind,
      ),
    ).toEqual(["Uses it", "Links it"]);

    await s.t.request.get(backlinks).set(s.outsider.auth).expect(404);
    await s.t.request
      .get(`/v1/spaces/${space.spaceId}/change-requests/${cr.id}/content/files/nope/backlinks`)
      .set(s.reader.auth)
      .expect(404);

    // Once merged, main's links see the file.
    await space.merge(cr.number);
    const links = await spaceLinks(space.spaceId);
    expect(links.items.map(summary)).toEqual([
      ["ok", "file:logo.png", ["Uses it", "Links it"]],
      ["broken", undefined, ["Links it"]],
    ]);
  });
});
