import type { Schema } from "@quire/api-types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestUser } from "../testing/harness.js";
import { type ContentScenario, createContentScenario, insertPage, newSpaceContent } from "./testing.js";

let s: ContentScenario;
beforeAll(async () => {
  s = await createContentScenario();
});
afterAll(() => s.t.close());

/** Posts a comment on `base` (a space or a change request) as `user`; its id. */
async function comment(base: string, user: TestUser, markdown: string): Promise<string> {
  const res = await s.t.request
    .post(`${base}/comments`)
    .set(user.auth)
    .send({ body: { markdown } })
    .expect(201);
  return res.body.id;
}

const reply = (base: string, commentId: string, user: TestUser) =>
  s.t.request
    .post(`${base}/comments/${commentId}/replies`)
    .set(user.auth)
    .send({ body: { markdown: "Agreed." } })
    .expect(201);

describe("who took part", () => {
  it("contributors of a change request: editors (most changes first), then commenters; an editor who commented edits", async () => {
    const space = await newSpaceContent(s);
    const cr = await space.createChangeRequest(s.editor, "Rework");
    const base = `/v1/spaces/${space.spaceId}/change-requests/${cr.number}`;
    const time = () => s.t.clock.now().toISOString();
    s.t.clock.advance(1000);
    const t1 = time();
    await space.edit(cr.number, [insertPage("One", "")], s.editor);
    await space.edit(cr.number, [insertPage("Two", "")], s.admin);
    s.t.clock.advance(1000);
    const t2 = time();
    const thread = await comment(base, s.commenter, "Why?");
    await space.edit(cr.number, [insertPage("Three", "")], s.editor);
    await comment(base, s.editor, "Because.");
    s.t.clock.advance(1000);
    const t3 = time();
    await reply(base, thread, s.reviewer);
    await reply(base, thread, s.commenter);
    const res = await s.t.request.get(`${base}/contributors`).set(s.reader.auth).expect(200);
    expect(res.body).toEqual({
      count: 4,
      items: [
        // Created it and edited twice; their comment leaves them an editor.
        {
          user: expect.objectContaining({ id: s.editor.user.id }),
          actionType: "edit",
          count: 3,
          updatedAt: t2,
        },
        {
          user: expect.objectContaining({ id: s.commenter.user.id }),
          actionType: "comment",
          count: 2,
          updatedAt: t3,
        },
        {
          user: expect.objectContaining({ id: s.reviewer.user.id }),
          actionType: "comment",
          count: 1,
          updatedAt: t3,
        },
        {
          user: expect.objectContaining({ id: s.admin.user.id }),
          actionType: "edit",
          count: 1,
          updatedAt: t1,
        },
      ],
    });
    await s.t.request.get(`${base}/contributors`).expect(401);
    await s.t.request.get(`${base}/contributors`).set(s.outsider.auth).expect(404);
    await s.t.request
      .get(`/v1/spaces/${space.spaceId}/change-requests/999/contributors`)
      .set(s.reader.auth)
      .expect(404);
  });

  it("commenters of a space's main content and of a change request, each apart, as members, in pages", async () => {
    const space = await newSpaceContent(s);
    const cr = await space.createChangeRequest(s.editor);
    const main = `/v1/spaces/${space.spaceId}`;
    const crBase = `${main}/change-requests/${cr.number}`;
    const thread = await comment(main, s.commenter, "A question.");
    await reply(main, thread, s.reviewer);
    await comment(crBase, s.editor, "A note.");
    const ids = (page: { items: Schema<"Member">[] }) => page.items.map((member) => member.id);

    const inSpace = (await s.t.request.get(`${main}/commenters`).set(s.reader.auth).expect(200)).body;
    expect(inSpace.count).toBe(2);
    expect(ids(inSpace)).toEqual([s.commenter.user.id, s.reviewer.user.id].sort());
    expect(inSpace.items[0]).toMatchObject({ object: "member", user: { object: "user" } });
    const first = (await s.t.request.get(`${main}/commenters?limit=1`).set(s.reader.auth).expect(200)).body;
    const second = (
      await s.t.request
        .get(`${main}/commenters?limit=1&page=${first.next.page}`)
        .set(s.reader.auth)
        .expect(200)
    ).body;
    expect([...ids(first), ...ids(second)]).toEqual(ids(inSpace));
    const inRequest = (await s.t.request.get(`${crBase}/commenters`).set(s.reader.auth).expect(200)).body;
    expect(ids(inRequest)).toEqual([s.editor.user.id]);

    await s.t.request.get(`${main}/commenters`).expect(401);
    await s.t.request.get(`${main}/commenters`).set(s.outsider.auth).expect(404);
    await s.t.request.get(`${crBase}/commenters`).set(s.outsider.auth).expect(404);
    await s.t.request.get(`${main}/commenters?limit=abc`).set(s.reader.auth).expect(400);
  });
});
