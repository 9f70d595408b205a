import type { Schema } from "@quire/api-types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ContentScenario,
  createContentScenario,
  insertPage,
  newSpaceContent,
  updatePage,
} from "../change-requests/testing.js";
import { joinOrganization } from "../testing/fixtures.js";
import { numberEvents } from "./numbering.js";
import { presentEvent, recordEvent, withoutEvents } from "./record.js";

let s: ContentScenario;
beforeAll(async () => {
  s = await createContentScenario();
});
afterAll(() => s.t.close());

/** The organization's events after `sequence`, as webhooks would send them. */
async function eventsAfter(sequence: number, organizationId = s.organizationId) {
  await numberEvents(s.t.db);
  const rows = await s.t.db
    .selectFrom("events")
    .selectAll()
    .where("organization_id", "=", organizationId)
    .where("sequence", ">", sequence)
    .orderBy("sequence")
    .execute();
  return rows.map(presentEvent);
}

/** The last sequence number of the organization so far. */
async function lastSequence(organizationId = s.organizationId): Promise<number> {
  await numberEvents(s.t.db);
  const row = await s.t.db
    .selectFrom("event_counters")
    .select("last_sequence")
    .where("organization_id", "=", organizationId)
    .executeTakeFirst();
  return Number(row?.last_sequence ?? 0);
}

/** Runs `action`, and answers the events it recorded: type and data. */
async function recorded(action: () => Promise<unknown>) {
  const before = await lastSequence();
  await action();
  const events = await eventsAfter(before);
  // Numbered on from the last one, without gaps.
  expect(events.map((event) => event.sequence)).toEqual(events.map((_, i) => before + 1 + i));
  return events;
}

const shape = (events: Schema<"WebhookEvent">[]) => events.map(({ type, data }) => ({ type, data }));

describe("the event stream", () => {
  it("records spaces created, updated, moved, deleted and restored, by whom, and nothing for no change", async () => {
    const { request } = s.t;
    const auth = s.admin.auth;
    const org = `/v1/orgs/${s.organizationId}`;
    let spaceId = "";
    const created = await recorded(async () => {
      spaceId = (await request.post(`${org}/spaces`).set(auth).send({ title: "Guides" }).expect(201)).body.id;
    });
    expect(created).toEqual([
      expect.objectContaining({
        object: "event",
        type: "space_created",
        version: 1,
        organization: s.organizationId,
        actor: s.admin.user.id,
        data: { space: spaceId, title: "Guides", visibility: "private" },
      }),
    ]);

    const collection = (
      await request.post(`${org}/collections`).set(auth).send({ title: "Docs" }).expect(201)
    ).body.id;
    const changes = await recorded(async () => {
      await request.patch(`/v1/spaces/${spaceId}`).set(auth).send({ title: "Guides" }).expect(200);
      await request
        .patch(`/v1/spaces/${spaceId}`)
        .set(auth)
        .send({ title: "Handbook", emoji: "1f4d8" })
        .expect(200);
      await request.post(`/v1/spaces/${spaceId}/move`).set(auth).send({ parent: collection }).expect(200);
      await request.delete(`/v1/spaces/${spaceId}`).set(auth).expect(204);
      await request.delete(`/v1/spaces/${spaceId}`).set(auth).expect(204);
      await request.post(`/v1/spaces/${spaceId}/restore`).set(auth).expect(200);
    });
    const space = { space: spaceId, title: "Handbook", visibility: "private" };
    expect(shape(changes)).toEqual([
      { type: "space_updated", data: { ...space, changes: ["title", "emoji"] } },
      { type: "space_moved", data: { ...space, parent: collection } },
      { type: "space_deleted", data: { ...space, parent: collection } },
      { type: "space_restored", data: { ...space, parent: collection } },
    ]);
  });

  it("records collections created, updated, moved and deleted", async () => {
    const { request } = s.t;
    const auth = s.admin.auth;
    const org = `/v1/orgs/${s.organizationId}`;
    const outer = (await request.post(`${org}/collections`).set(auth).send({ title: "Outer" }).expect(201))
      .body.id;
    let id = "";
    const events = await recorded(async () => {
      id = (await request.post(`${org}/collections`).set(auth).send({ title: "Inner" }).expect(201)).body.id;
      await request.patch(`/v1/collections/${id}`).set(auth).send({ description: "All of it" }).expect(200);
      await request.post(`/v1/collections/${id}/move`).set(auth).send({ parent: outer }).expect(200);
      await request.delete(`/v1/collections/${id}`).set(auth).expect(204);
    });
    const inner = { collection: id, title: "Inner" };
    expect(shape(events)).toEqual([
      { type: "collection_created", data: inner },
      { type: "collection_updated", data: { ...inner, changes: ["description"] } },
      { type: "collection_moved", data: { ...inner, parent: outer } },
      { type: "collection_deleted", data: { ...inner, parent: outer } },
    ]);
  });

  it("records a change request's life and the main content it changed, page by page", async () => {
    const space = await newSpaceContent(s);
    const pages = await space.seed([insertPage("Intro", "Hello."), insertPage("Setup", "Install it.")]);
    let number = 0;
    let crId = "";
    const events = await recorded(async () => {
      const cr = await space.createChangeRequest(s.editor, "Rework");
      number = cr.number;
      crId = cr.id;
      await s.t.request
        .patch(`/v1/spaces/${space.spaceId}/change-requests/${cr.number}`)
        .set(s.editor.auth)
        .send({ subject: "Rework the intro", status: "open" })
        .expect(200);
      await space.edit(cr.number, [
        updatePage(pages.Intro as string, { markdown: "Hello again." }),
        insertPage("Usage", "Use it."),
        { type: "delete_page", page: pages.Setup as string },
      ]);
      await space.merge(cr.number);
    });
    const cr = { space: space.spaceId, changeRequest: crId, number, subject: "Rework the intro" };
    const merged = await space.space();
    expect(shape(events)).toEqual([
      {
        type: "change_request_created",
        data: { ...cr, subject: "Rework", status: "draft" },
      },
      { type: "change_request_updated", data: { ...cr, status: "open", changes: ["subject"] } },
      { type: "change_request_status_updated", data: { ...cr, status: "open", previousStatus: "draft" } },
      { type: "change_request_merged", data: { ...cr, status: "merged", revision: merged.revision } },
      {
        type: "space_content_updated",
        data: {
          space: space.spaceId,
          revision: merged.revision,
          previousRevision: expect.any(String),
          changeRequest: crId,
          pages: {
            created: [expect.any(String)],
            edited: [pages.Intro],
            moved: [],
            deleted: [pages.Setup],
          },
        },
      },
    ]);
    const [editor, admin] = [s.editor.user.id, s.admin.user.id];
    expect(events.map((event) => event.actor)).toEqual([editor, editor, editor, admin, admin]);
  });

  it("records comments and replies, on the space and in change requests", async () => {
    const space = await newSpaceContent(s);
    const cr = await space.createChangeRequest();
    let comment = "";
    let reply = "";
    const events = await recorded(async () => {
      comment = (
        await s.t.request
          .post(`/v1/spaces/${space.spaceId}/change-requests/${cr.number}/comments`)
          .set(s.commenter.auth)
          .send({ body: { markdown: "Why?" } })
          .expect(201)
      ).body.id;
      reply = (
        await s.t.request
          .post(`/v1/spaces/${space.spaceId}/change-requests/${cr.number}/comments/${comment}/replies`)
          .set(s.editor.auth)
          .send({ body: { markdown: "Because." } })
          .expect(201)
      ).body.id;
    });
    expect(events.map(({ type, data, actor }) => ({ type, data, actor }))).toEqual([
      {
        type: "comment_created",
        data: { space: space.spaceId, changeRequest: cr.id, comment },
        actor: s.commenter.user.id,
      },
      {
        type: "comment_reply_created",
        data: { space: space.spaceId, changeRequest: cr.id, comment, reply },
        actor: s.editor.user.id,
      },
    ]);
  });

  it("records members joining, changing role and leaving, and teams and their members", async () => {
    const { request } = s.t;
    const auth = s.admin.auth;
    const org = `/v1/orgs/${s.organizationId}`;
    const user = await s.t.user();
    let team = "";
    const events = await recorded(async () => {
      await request
        .post(`${org}/invites`)
        .set(auth)
        .send({ emails: [user.user.email], role: "read" })
        .expect(200);
      await request.patch(`${org}/members/${user.user.id}`).set(auth).send({ role: "edit" }).expect(200);
      team = (await request.put(`${org}/teams`).set(auth).send({ title: "Writers" }).expect(201)).body.id;
      await request.put(`${org}/teams/${team}/members/${user.user.id}`).set(auth).expect(204);
      await request
        .put(`${org}/teams/${team}/members/${user.user.id}`)
        .set(auth)
        .send({ role: "owner" })
        .expect(204);
      await request.delete(`${org}/teams/${team}/members/${user.user.id}`).set(auth).expect(204);
      await request.delete(`${org}/members/${user.user.id}`).set(auth).expect(204);
      await request.delete(`${org}/teams/${team}`).set(auth).expect(204);
    });
    const writers = { team, title: "Writers" };
    expect(shape(events)).toEqual([
      { type: "member_joined", data: { user: user.user.id, role: "read" } },
      { type: "member_role_updated", data: { user: user.user.id, role: "edit", previousRole: "read" } },
      { type: "team_created", data: writers },
      { type: "team_member_added", data: { ...writers, user: user.user.id } },
      { type: "team_member_removed", data: { ...writers, user: user.user.id } },
      { type: "member_removed", data: { user: user.user.id, role: "edit" } },
      { type: "team_deleted", data: writers },
    ]);
  });

  it("records sites published, unpublished and rearranged", async () => {
    const { request } = s.t;
    const auth = s.admin.auth;
    const space = await newSpaceContent(s);
    const sites = `/v1/orgs/${s.organizationId}/sites`;
    const site = (await request.post(sites).set(auth).send({ title: "Docs" }).expect(201)).body.id;
    const events = await recorded(async () => {
      await request.post(`${sites}/${site}/publish`).set(auth).expect(200);
      await request.post(`${sites}/${site}/publish`).set(auth).expect(200);
      await request
        .post(`${sites}/${site}/sections`)
        .set(auth)
        .send({ spaceId: space.spaceId, title: "Guides" })
        .expect(201);
      await request.post(`${sites}/${site}/unpublish`).set(auth).expect(200);
    });
    const docs = { site, title: "Docs" };
    expect(shape(events)).toEqual([
      { type: "site_published", data: docs },
      { type: "site_structure_updated", data: docs },
      { type: "site_unpublished", data: docs },
    ]);
  });

  it("records a transfer in both organizations, the one left and the one joined", async () => {
    const other = await s.t.organization();
    await joinOrganization(s.t, other.organizationId, s.admin, "admin");
    const space = await newSpaceContent(s);
    const before = await lastSequence(other.organizationId);
    const here = await recorded(() =>
      s.t.request
        .post(`/v1/spaces/${space.spaceId}/transfer`)
        .set(s.admin.auth)
        .send({ organization: other.organizationId })
        .expect(200),
    );
    const there = await eventsAfter(before, other.organizationId);
    const data = expect.objectContaining({
      space: space.spaceId,
      from: s.organizationId,
      to: other.organizationId,
    });
    expect(shape(here)).toEqual([{ type: "space_transferred", data }]);
    expect(shape(there)).toEqual([{ type: "space_transferred", data }]);
  });

  it("records nothing of a change that rolls back, and numbers what commits without a gap", async () => {
    const before = await lastSequence();
    const data = { space: "x", title: "Rolled back", visibility: "private" } as const;
    await expect(
      s.t.db.transaction().execute(async (tx) => {
        await recordEvent(tx, s.t, { organizationId: s.organizationId, type: "space_created", data });
        throw new Error("the cause fails");
      }),
    ).rejects.toThrow("the cause fails");
    expect(await lastSequence()).toBe(before);
    expect(await eventsAfter(before)).toEqual([]);

    await s.t.db.transaction().execute((tx) =>
      recordEvent(tx, s.t, {
        organizationId: s.organizationId,
        type: "space_created",
        data: { ...data, title: "Kept" },
      }),
    );
    expect(shape(await eventsAfter(before))).toEqual([
      { type: "space_created", data: { ...data, title: "Kept" } },
    ]);
    expect(await lastSequence()).toBe(before + 1);
  });

  it("records nothing inside withoutEvents (the bench's events-off side), and again after it", async () => {
    const before = await lastSequence();
    const record = (title: string) =>
      s.t.db.transaction().execute((tx) =>
        recordEvent(tx, s.t, {
          organizationId: s.organizationId,
          type: "space_created",
          data: { space: "x", title, visibility: "private" },
        }),
      );
    await withoutEvents(() => record("Not recorded"));
    expect(await lastSequence()).toBe(before);
    await record("Recorded");
    expect(shape(await eventsAfter(before)).map(({ data }) => data)).toEqual([
      { space: "x", title: "Recorded", visibility: "private" },
    ]);
  });

  it("numbers the events of concurrent writes in the order they commit", async () => {
    const before = await lastSequence();
    const org = `/v1/orgs/${s.organizationId}`;
    const titles = Array.from({ length: 20 }, (_, i) => `Concurrent ${i}`);
    await Promise.all(
      titles.map((title) => s.t.request.post(`${org}/spaces`).set(s.admin.auth).send({ title }).expect(201)),
    );
    const events = await eventsAfter(before);
    expect(events.map((event) => event.sequence)).toEqual(titles.map((_, i) => before + 1 + i));
    expect(new Set(events.map((event) => (event.data as { title: string }).title))).toEqual(new Set(titles));
    // Commit order: an event with a higher number never committed before one with a lower number, which
    // `created_at` (taken in the transaction) shows as never decreasing.
    const times = events.map((event) => event.createdAt);
    expect([...times].sort()).toEqual(times);
  });
});
