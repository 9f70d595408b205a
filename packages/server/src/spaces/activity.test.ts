import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertChangeRequest, lockSpace, updateChangeRequest } from "../change-requests/store.js";
import type { ChangeRequestTable } from "../change-requests/tables.js";
import type { CommentTable } from "../comments/tables.js";
import type { Db } from "../db/database.js";
import { buildSpace } from "../testing/factories.js";
import { createOrganizationScenario, type TestApp, type TestUser } from "../testing/harness.js";
import { adjustSpaceActivity, changeRequestStatusActivity, countSpaceActivity } from "./activity.js";

let t: TestApp;
let organizationId: string;
let admin: TestUser;
beforeAll(async () => {
  ({ t, organizationId, admin } = await createOrganizationScenario());
});
afterAll(() => t.close());

/** A change request made by the change-request area's own store, then moved to `status`. */
async function openChangeRequest(db: Db, spaceId: string, status: ChangeRequestTable["status"]) {
  await db.transaction().execute(async (tx) => {
    const space = await lockSpace(tx, spaceId);
    const created = await insertChangeRequest(tx, t, { space, subject: "", userId: admin.user.id });
    if (status !== "draft") await updateChangeRequest(tx, created, { status }, t.clock.now().toISOString());
  });
}

async function postComment(db: Db, spaceId: string, changeRequestId: string | null) {
  const comment: CommentTable = {
    id: t.ids.next(),
    space_id: spaceId,
    change_request_id: changeRequestId,
    status: "open",
    created_at: t.clock.now().toISOString(),
  };
  await db.transaction().execute(async (tx) => {
    await tx.insertInto("comments").values(comment).execute();
    if (changeRequestId === null) await adjustSpaceActivity(tx, spaceId, { open_comments: 1 });
  });
  return comment;
}

describe("space activity counters", () => {
  it("agree with a recount from scratch, and count only the space's own comments", async () => {
    const space = await buildSpace(t, { organization_id: organizationId });
    await openChangeRequest(t.db, space.id, "open");
    await openChangeRequest(t.db, space.id, "draft");
    await openChangeRequest(t.db, space.id, "merged");
    const changeRequest = await t.db
      .selectFrom("change_requests")
      .select("id")
      .where("space_id", "=", space.id)
      .where("number", "=", 1)
      .executeTakeFirstOrThrow();
    const resolved = await postComment(t.db, space.id, null);
    await t.db.transaction().execute(async (tx) => {
      await tx.updateTable("comments").set({ status: "resolved" }).where("id", "=", resolved.id).execute();
      await adjustSpaceActivity(tx, space.id, { open_comments: -1 });
    });
    await postComment(t.db, space.id, null);
    await postComment(t.db, space.id, changeRequest.id);

    const res = await t.request.get(`/v1/spaces/${space.id}`).set(admin.auth).expect(200);
    expect(res.body).toMatchObject({
      comments: 1,
      changeRequests: 3,
      changeRequestsOpen: 1,
      changeRequestsDraft: 1,
    });
    const stored = await t.db
      .selectFrom("spaces")
      .select(["open_comments", "change_requests", "open_change_requests", "draft_change_requests"])
      .where("id", "=", space.id)
      .executeTakeFirstOrThrow();
    expect(await countSpaceActivity(t.db, space.id)).toEqual(stored);
  });

  it("roll back with the write that failed", async () => {
    const space = await buildSpace(t, { organization_id: organizationId });
    await expect(
      t.db.transaction().execute(async (tx) => {
        await adjustSpaceActivity(tx, space.id, { open_comments: 1 });
        throw new Error("the comment could not be stored");
      }),
    ).rejects.toThrow("could not be stored");
    expect(await countSpaceActivity(t.db, space.id)).toEqual({
      open_comments: 0,
      change_requests: 0,
      open_change_requests: 0,
      draft_change_requests: 0,
    });
    const res = await t.request.get(`/v1/spaces/${space.id}`).set(admin.auth).expect(200);
    expect(res.body.comments).toBe(0);
  });
});

describe("change request counters", () => {
  it("follow every status move through the API, as a recount finds them", async () => {
    const space = await buildSpace(t, { organization_id: organizationId });
    const stored = () =>
      t.db
        .selectFrom("spaces")
        .select(["open_comments", "change_requests", "open_change_requests", "draft_change_requests"])
        .where("id", "=", space.id)
        .executeTakeFirstOrThrow();
    const expectRecounted = async () =>
      expect(await countSpaceActivity(t.db, space.id)).toEqual(await stored());
    const create = async () => {
      const res = await t.request
        .post(`/v1/spaces/${space.id}/change-requests`)
        .set(admin.auth)
        .send({})
        .expect(201);
      await expectRecounted();
      return res.body.number as number;
    };
    const first = await create();
    const second = await create();
    for (const status of ["open", "archived", "draft", "archived", "open", "draft", "open"]) {
      await t.request
        .patch(`/v1/spaces/${space.id}/change-requests/${first}`)
        .set(admin.auth)
        .send({ status })
        .expect(200);
      await expectRecounted();
    }
    await t.request
      .post(`/v1/spaces/${space.id}/change-requests/${second}/merge`)
      .set(admin.auth)
      .expect(200);
    await expectRecounted();
    expect(await stored()).toMatchObject({
      change_requests: 2,
      open_change_requests: 1,
      draft_change_requests: 0,
    });
  });

  it("move by exactly one counter per status move", () => {
    expect(changeRequestStatusActivity(null, "draft")).toEqual({
      change_requests: 1,
      open_change_requests: 0,
      draft_change_requests: 1,
    });
    expect(changeRequestStatusActivity("draft", "open")).toEqual({
      change_requests: 0,
      open_change_requests: 1,
      draft_change_requests: -1,
    });
    expect(changeRequestStatusActivity("open", "merged")).toEqual({
      change_requests: 0,
      open_change_requests: -1,
      draft_change_requests: 0,
    });
    expect(changeRequestStatusActivity("archived", "archived")).toEqual({
      change_requests: 0,
      open_change_requests: 0,
      draft_change_requests: 0,
    });
  });
});
