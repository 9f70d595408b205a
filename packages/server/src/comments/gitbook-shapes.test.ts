import type { Schema } from "@quire/api-types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ContentScenario,
  createContentScenario,
  jsonDocument,
  textBlock,
} from "../change-requests/testing.js";
import { type GitBookAnswer, serveToGitBookClient } from "../testing/gitbook-client.js";
import { newThreads, PARENTS } from "./testing.js";

type Answer = GitBookAnswer<Schema<"CommentPage">>;
/** What the tests call of GitBook's client (its typings do not resolve under NodeNext). */
interface GitBookComments {
  spaces: {
    listCommentsInSpace(space: string, query?: { authors?: string[] }): Answer;
    listCommentsInChangeRequest(space: string, cr: string, query?: { authors?: string[] }): Answer;
  };
}

let s: ContentScenario;
let served: Awaited<ReturnType<typeof serveToGitBookClient>>;
let api: GitBookComments;
beforeAll(async () => {
  s = await createContentScenario();
  served = await serveToGitBookClient(s.t.app);
  api = served.client<GitBookComments>(s.reader.token);
});
afterAll(async () => {
  await served.close();
  await s.t.close();
});

const markdown = (text: string) => ({ body: { markdown: text } });

describe.each(PARENTS)("GitBook's shapes on the comments of a %s", (kind) => {
  it("filters the list by authors, as GitBook's client sends them", async () => {
    const p = await newThreads(s, kind);
    await p.post(markdown("by commenter"), s.commenter);
    s.t.clock.advance(1000);
    await p.post(markdown("by editor"), s.editor);
    s.t.clock.advance(1000);
    await p.post(markdown("by admin"), s.admin);
    const list = async (authors?: string[]) => {
      const query = authors === undefined ? {} : { authors };
      const page = p.changeRequest
        ? await api.spaces.listCommentsInChangeRequest(p.content.spaceId, p.changeRequest.id, query)
        : await api.spaces.listCommentsInSpace(p.content.spaceId, query);
      return page.data.items.map((c) => c.body.markdown);
    };
    expect(await list()).toEqual(["by admin", "by editor", "by commenter"]);
    expect(await list([s.commenter.user.id])).toEqual(["by commenter"]);
    expect(await list([s.commenter.user.id, s.admin.user.id])).toEqual(["by admin", "by commenter"]);
    expect(await list(["nobody"])).toEqual([]);
    // An id is matched whole: a comma (no user id has one) matches no one rather than splitting it.
    expect(await list([`${s.commenter.user.id},${s.editor.user.id}`])).toEqual([]);
    expect(await list([s.editor.user.id.toUpperCase()])).toEqual([]);
    // With the other filters and the cursor.
    const res = await s.t.request
      .get(p.commentsUrl)
      .query(`authors=${s.commenter.user.id}&authors=${s.editor.user.id}&limit=1&order=asc`)
      .set(s.reader.auth)
      .expect(200);
    expect(res.body).toMatchObject({ count: 2, items: [{ body: { markdown: "by commenter" } }] });
    const next = await s.t.request
      .get(p.commentsUrl)
      .query(`authors=${s.commenter.user.id}&authors=${s.editor.user.id}&limit=1&order=asc`)
      .query({ page: res.body.next.page })
      .set(s.reader.auth)
      .expect(200);
    expect(next.body.items.map((c: Schema<"Comment">) => c.body.markdown)).toEqual(["by editor"]);
    await s.t.request.get(p.commentsUrl).query({ authors: "x", order: "up" }).set(s.reader.auth).expect(400);
  });

  it("answers 400 for a table cell target, posting nothing", async () => {
    const p = await newThreads(s, kind);
    const res = await s.t.request
      .post(p.commentsUrl)
      .set(s.commenter.auth)
      .send({ ...markdown("cell"), tableCell: { record: "r1", definition: "d1" } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain("tableCell");
    await s.t.request
      .post(p.commentsUrl)
      .set(s.commenter.auth)
      .send({ ...markdown("cell"), tableCell: { record: "r1" } })
      .expect(400);
    expect((await p.list()).count).toBe(0);
    await p.expectOpen(0);
  });

  it("takes a document with an empty meta and unnamed fragments; 400 for a meta it cannot keep", async () => {
    const p = await newThreads(s, kind);
    const document = {
      ...jsonDocument(textBlock("paragraph", "Hello")),
      meta: {},
    };
    const comment = await p.post({ body: { document } }, s.commenter);
    expect(comment.body).toEqual({ markdown: "Hello\n" });
    expect((await p.get(comment.id, s.commenter)).body).toEqual(comment.body);

    const withFragment = jsonDocument({
      ...textBlock("paragraph", "Captioned"),
      fragments: [{ object: "fragment", nodes: [textBlock("paragraph", "unnamed")] }],
    } as Schema<"DocumentBlock">);
    const reply = await s.t.request
      .post(p.repliesUrl(comment.id))
      .set(s.commenter.auth)
      .send({ body: { document: withFragment } })
      .expect(201);
    expect(reply.body.body.markdown).toContain("Captioned");

    const refused = await s.t.request
      .post(p.commentsUrl)
      .set(s.commenter.auth)
      .send({ body: { document: { ...document, meta: { token: "t" } } } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain("meta");
    await s.t.request
      .put(p.commentUrl(comment.id))
      .set(s.commenter.auth)
      .send({ body: { document: { ...document, meta: { token: "t" } } } })
      .expect(400);
    expect((await p.get(comment.id, s.commenter)).body).toEqual(comment.body);
    expect((await p.list()).count).toBe(1);
  });
});
