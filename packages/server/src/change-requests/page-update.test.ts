import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestUser } from "../testing/harness.js";
import {
  type ContentScenario,
  createContentScenario,
  insertPage,
  jsonDocument,
  newSpaceContent,
  textBlock,
} from "./testing.js";

let s: ContentScenario;
beforeAll(async () => {
  s = await createContentScenario();
});
afterAll(() => s.t.close());

/** A change request with one page of `markdown`, and requests on that page as its editor. */
async function pageInChangeRequest(markdown: string) {
  const space = await newSpaceContent(s);
  const cr = await space.createChangeRequest(s.editor);
  await space.edit(cr.number, [insertPage("Guide", markdown)], s.editor);
  const [page] = await space.pages(cr.number);
  const url = `/v1/spaces/${space.spaceId}/change-requests/${cr.number}/content/page/${page?.id}`;
  return {
    space,
    cr,
    pageId: page?.id as string,
    url,
    read: (user: TestUser = s.editor) => s.t.request.get(url).set(user.auth).expect(200),
    markdown: async () => (await space.page(page?.id as string, cr.number)).markdown,
  };
}

describe("PATCH …/change-requests/{changeRequestId}/content/page/{pageId}", () => {
  it("writes a document back: only the block changed gets new Markdown, the answer tagged as a read", async () => {
    const page = await pageInChangeRequest("Keep   *this*  text.\n\n* one\n* two\n\nOld.\n");
    const read = await page.read();
    const { document } = read.body;
    const changed = { ...document, nodes: [...document.nodes.slice(0, -1), textBlock("paragraph", "New.")] };
    const res = await s.t.request
      .patch(page.url)
      .set(s.editor.auth)
      .set("If-Match", String(read.headers.etag))
      .send({ document: { document: changed } })
      .expect(200);
    expect(await page.markdown()).toBe("Keep   *this*  text.\n\n* one\n* two\n\nNew.\n");
    // The answer is the page as a read without parameters shows it, with that read's ETag.
    const again = await page.read();
    expect(res.body).toEqual(again.body);
    expect(res.headers.etag).toBe(again.headers.etag);
    expect(again.headers.etag).not.toBe(read.headers.etag);
  });

  it("renames, and takes Markdown", async () => {
    const page = await pageInChangeRequest("Body.\n");
    await s.t.request
      .patch(page.url)
      .set(s.editor.auth)
      .send({ title: "Handbook", document: { markdown: "Other body.\n" } })
      .expect(200);
    expect((await page.read()).body.title).toBe("Handbook");
    expect(await page.markdown()).toBe("Other body.\n");
  });

  it("answers 412 to an If-Match another write made stale, writing nothing", async () => {
    const page = await pageInChangeRequest("First.\n");
    const stale = (await page.read()).headers.etag;
    await s.t.request
      .patch(page.url)
      .set(s.editor.auth)
      .set("If-Match", String(stale))
      .send({ document: { document: jsonDocument(textBlock("paragraph", "Theirs.")) } })
      .expect(200);
    const refused = await s.t.request
      .patch(page.url)
      .set(s.editor.auth)
      .set("If-Match", String(stale))
      .send({ document: { document: jsonDocument(textBlock("paragraph", "Mine.")) } })
      .expect(412);
    expect(refused.body.error.type).toBe("etag_mismatch");
    expect(await page.markdown()).toBe("Theirs.\n");
  });

  it("answers 401, 403 to a commenter, 404 to an outsider and for another page, 400, writing nothing", async () => {
    const page = await pageInChangeRequest("Same.\n");
    const body = { document: { markdown: "Changed.\n" } };
    await s.t.request.patch(page.url).send(body).expect(401);
    await s.t.request.patch(page.url).set(s.commenter.auth).send(body).expect(403);
    await s.t.request.patch(page.url).set(s.outsider.auth).send(body).expect(404);
    const otherPage = page.url.replace(/.$/, (last) => (last === "a" ? "b" : "a"));
    await s.t.request.patch(otherPage).set(s.editor.auth).send(body).expect(404);
    await s.t.request.patch(page.url).set(s.editor.auth).send({ title: "" }).expect(400);
    await s.t.request
      .patch(page.url)
      .set(s.editor.auth)
      .send({ document: { document: jsonDocument(textBlock("no-such-block", "x")) } })
      .expect(400);
    expect(await page.markdown()).toBe("Same.\n");
    expect((await page.read()).body.title).toBe("Guide");
  });
});
