import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ContentScenario,
  createContentScenario,
  insertPage,
  newSpaceContent,
  updatePage,
} from "../change-requests/testing.js";
import { guestOf } from "../testing/fixtures.js";

let s: ContentScenario;
beforeAll(async () => {
  s = await createContentScenario();
});
afterAll(() => s.t.close());

const withLinks = [
  "---",
  "canonical: https://docs.example.com/guide",
  "alternates:",
  "  - https://fr.example.com/guide",
  "  - page: other-page",
  "    space: other-space",
  "  - not a link",
  "---",
  "",
  "Read me.",
].join("\n");

describe("a page's meta links", () => {
  it("are read from its front matter: in the main content, a revision, and a change request", async () => {
    const space = await newSpaceContent(s);
    const ids = await space.seed([insertPage("Guide", "Read me."), insertPage("Plain", "No front matter.")]);
    const guide = ids.Guide as string;
    const before = (await space.space()).revision;
    const get = async (path: string) =>
      (await s.t.request.get(`/v1/spaces/${space.spaceId}${path}`).set(s.reader.auth).expect(200)).body;
    expect(await get(`/content/page/${guide}/meta-links`)).toEqual({});

    const cr = await space.createChangeRequest();
    await space.edit(cr.number, [updatePage(guide, { markdown: withLinks })]);
    const links = {
      canonical: { kind: "url", url: "https://docs.example.com/guide" },
      // A value that is neither a URL nor a page is left out.
      alternates: [
        { kind: "url", url: "https://fr.example.com/guide" },
        { kind: "page", page: "other-page", space: "other-space" },
      ],
    };
    expect(await get(`/change-requests/${cr.id}/content/page/${guide}/meta-links`)).toEqual(links);
    // Not in the main content until merged; the earlier revision keeps having none.
    expect(await get(`/content/page/${guide}/meta-links`)).toEqual({});
    await space.merge(cr.number);
    expect(await get(`/content/page/${guide}/meta-links`)).toEqual(links);
    expect(await get(`/revisions/${before}/page/${guide}/meta-links`)).toEqual({});
    const after = (await space.space()).revision;
    expect(await get(`/revisions/${after}/page/${guide}/meta-links`)).toEqual(links);
    expect(await get(`/content/page/${ids.Plain}/meta-links`)).toEqual({});
  });

  it("answer 401, and 404 for an unknown page or to who cannot read the space", async () => {
    const space = await newSpaceContent(s);
    const ids = await space.seed([insertPage("Guide", withLinks)]);
    const revision = (await space.space()).revision;
    const base = `/v1/spaces/${space.spaceId}`;
    const paths = [
      `/content/page/${ids.Guide}/meta-links`,
      `/revisions/${revision}/page/${ids.Guide}/meta-links`,
    ];
    for (const path of paths) {
      await s.t.request.get(`${base}${path}`).expect(401);
      await s.t.request.get(`${base}${path}`).set(s.outsider.auth).expect(404);
      await s.t.request
        .get(`${base}${path}`)
        .set((await guestOf(s.t, s.organizationId)).auth)
        .expect(404);
      const other = await s.t.organization();
      await s.t.request.get(`${base}${path}`).set(other.admin.auth).expect(404);
    }
    await s.t.request.get(`${base}/content/page/unknown/meta-links`).set(s.reader.auth).expect(404);
    await s.t.request
      .get(`${base}/revisions/unknown/page/${ids.Guide}/meta-links`)
      .set(s.reader.auth)
      .expect(404);
    await s.t.request
      .get(`${base}/change-requests/unknown/content/page/${ids.Guide}/meta-links`)
      .set(s.reader.auth)
      .expect(404);
  });
});
