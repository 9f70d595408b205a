import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ContentScenario,
  createContentScenario,
  expectError,
  insertPage,
  newSpaceContent,
} from "../change-requests/testing.js";
import { editMainContent } from "../content/testing.js";

let s: ContentScenario;
beforeAll(async () => {
  s = await createContentScenario();
});
afterAll(() => s.t.close());

/** A space whose Guide links to Install under it, and a group holding FAQ. */
async function scenario() {
  const space = await newSpaceContent(s);
  const top = await space.seed([
    insertPage(
      "Guide",
      "---\ndescription: Start here.\n---\n\nRead **this** first.\n\n## Setup\n\nSee [the install step](./guide/install.md).\n",
    ),
  ]);
  const ids = {
    ...top,
    ...(await space.seed([insertPage("Install", "apt install", top.Guide)])),
  } as Record<"Guide" | "Install", string>;
  // A group has no body to render; no request makes one.
  await editMainContent(
    s.t.db,
    { spaceId: space.spaceId, revisionId: s.t.ids.next(), now: s.t.clock.now().toISOString() },
    (draft) =>
      draft.insert({ id: "more", title: "More", parent: null, placement: {}, document: null, kind: "group" }),
  );
  return {
    space,
    ids,
    url: (pageId: string) => `/v1/spaces/${space.spaceId}/content/page/${pageId}/rendered`,
  };
}

describe("GET /spaces/{spaceId}/content/page/{pageId}/rendered", () => {
  it("renders the page as the sites do, its links leading to the app's pages, with its headings", async () => {
    const { space, ids, url } = await scenario();
    const res = await s.t.request.get(url(ids.Guide)).set(s.reader.auth).expect(200);
    expect(res.body).toMatchObject({
      description: "Start here.",
      headings: [{ id: "setup", title: "Setup", depth: 2 }],
    });
    expect(res.body.html).toContain("<strong>this</strong>");
    // The headings' ids are the anchors the table of contents links to.
    expect(res.body.html).toMatch(/<h2[^>]* id="setup"/);
    expect(res.body.html).toContain(`href="http://quire.test/app/spaces/${space.spaceId}/guide/install"`);
    expect(res.body).not.toHaveProperty("refused");
  });

  it("answers 401 without a token, 404 for another organization's space, an unknown page or a group", async () => {
    const { ids, url } = await scenario();
    await s.t.request.get(url(ids.Guide)).expect(401);
    expectError((await s.t.request.get(url(ids.Guide)).set(s.outsider.auth).expect(404)).body, 404);
    expectError((await s.t.request.get(url("nope")).set(s.reader.auth).expect(404)).body, 404, "Page");
    await s.t.request.get(url("more")).set(s.reader.auth).expect(404);
    await s.t.request
      .get(`/v1/spaces/nope/content/page/${ids.Guide}/rendered`)
      .set(s.reader.auth)
      .expect(404);
  });
});
