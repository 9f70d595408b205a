import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ContentScenario,
  createContentScenario,
  insertPage,
  newSpaceContent,
} from "../change-requests/testing.js";
import type { TestUser } from "../testing/harness.js";

let s: ContentScenario;
beforeAll(async () => {
  s = await createContentScenario();
});
afterAll(() => s.t.close());

const setSpaceRules = (spaceId: string, mergeRules: object, user: TestUser = s.admin, status = 200) =>
  s.t.request.patch(`/v1/spaces/${spaceId}`).set(user.auth).send({ mergeRules }).expect(status);

/** A space with content and a change request the editor wrote, and how to review and merge it. */
async function proposal(subject = "A change") {
  const space = await newSpaceContent(s);
  await space.seed([insertPage("Guide", "Read me.")]);
  const cr = await space.createChangeRequest(s.editor, subject);
  await space.edit(cr.number, [insertPage(`Page ${cr.number}`, "Hello.")], s.editor);
  const review = (user: TestUser, status: "approved" | "changes-requested") =>
    s.t.request
      .post(`/v1/spaces/${space.spaceId}/change-requests/${cr.number}/reviews`)
      .set(user.auth)
      .send({ status })
      .expect(201);
  return { space, cr, review };
}

describe("merge rules", () => {
  it("an organization's rule holds a merge (409, naming the rule, nothing merged) until a review approves", async () => {
    const { organizationId } = s;
    // Seeding their content merges: both are made before the organization has rules.
    const { space, cr, review } = await proposal();
    const free = await proposal();
    const rules = { type: "rules", rules: [{ rule: "require_at_least_one_approved_review" }] };
    const updated = await s.t.request
      .patch(`/v1/orgs/${organizationId}`)
      .set(s.admin.auth)
      .send({ mergeRules: rules })
      .expect(200);
    expect(updated.body.mergeRules).toEqual(rules);
    expect(
      (await s.t.request.get(`/v1/orgs/${organizationId}`).set(s.reader.auth).expect(200)).body.mergeRules,
    ).toEqual(rules);
    try {
      expect((await space.space()).mergeRules).toEqual({ type: "inherit" });
      const refused = await space.merge(cr.number, s.admin, 409);
      expect(refused.body.error).toMatchObject({ type: "merge_rules_not_met" });
      expect(refused.body.error.message).toContain("require_at_least_one_approved_review");
      expect((await space.getChangeRequest(cr.number)).status).toBe(cr.status);
      await review(s.reviewer, "changes-requested");
      await space.merge(cr.number, s.admin, 409);
      await review(s.reviewer, "approved");
      await space.merge(cr.number, s.admin, 200);
      expect((await space.getChangeRequest(cr.number)).status).toBe("merged");

      // A space of its own rules (here none) is not held by the organization's.
      expect((await setSpaceRules(free.space.spaceId, { type: "none" })).body.mergeRules).toEqual({
        type: "none",
      });
      await free.space.merge(free.cr.number, s.admin, 200);
    } finally {
      await s.t.request
        .patch(`/v1/orgs/${organizationId}`)
        .set(s.admin.auth)
        .send({ mergeRules: { type: "none" } })
        .expect(200);
    }
  });

  it("a space's rules: specific reviewers on the change request as it is, up to date with main", async () => {
    const { space, cr, review } = await proposal();
    const rules = {
      type: "rules",
      rules: [
        { rule: "require_specific_reviewers", users: [s.reviewer.user.id] },
        { rule: "require_up_to_date_change_request" },
      ],
    };
    expect((await setSpaceRules(space.spaceId, rules)).body.mergeRules).toEqual(rules);
    expect((await space.space()).mergeRules).toEqual(rules);
    await review(s.admin, "approved");
    const refused = await space.merge(cr.number, s.admin, 409);
    expect(refused.body.error.message).toContain(
      `require_specific_reviewers (no approval yet from ${s.reviewer.user.id})`,
    );
    await review(s.reviewer, "approved");
    // An edit after the approval outdates it.
    await space.edit(cr.number, [insertPage("Late", "")], s.editor);
    await space.merge(cr.number, s.admin, 409);
    await review(s.reviewer, "approved");
    // Main moved meanwhile: the change request must be brought up to date first.
    const other = await space.createChangeRequest(s.editor);
    await space.edit(other.number, [insertPage("Other", "")], s.editor);
    await s.t.request
      .patch(`/v1/spaces/${space.spaceId}`)
      .set(s.admin.auth)
      .send({ mergeRules: { type: "none" } })
      .expect(200);
    await space.merge(other.number, s.admin, 200);
    await setSpaceRules(space.spaceId, rules);
    const stale = await space.merge(cr.number, s.admin, 409);
    expect(stale.body.error.message).toContain("require_up_to_date_change_request");
    await space.update(cr.number, s.editor);
    // Bringing main in changed the change request: the approval no longer stands.
    await space.merge(cr.number, s.admin, 409);
    await review(s.reviewer, "approved");
    await space.merge(cr.number, s.admin, 200);
  });

  it("who merges: the author only, unless a user may bypass the rules; a subject is required", async () => {
    const { space, cr } = await proposal("");
    await setSpaceRules(space.spaceId, {
      type: "rules",
      rules: [
        { rule: "require_author_to_merge" },
        { rule: "require_change_request_subject" },
        { rule: "require_all_reviews_approved" },
      ],
    });
    const refused = await space.merge(cr.number, s.admin, 409);
    for (const rule of [
      "require_author_to_merge",
      "require_change_request_subject",
      "require_all_reviews_approved",
    ])
      expect(refused.body.error.message).toContain(rule);
    await setSpaceRules(space.spaceId, {
      type: "rules",
      rules: [{ rule: "require_author_to_merge" }, { rule: "allow_bypass", users: [s.admin.user.id] }],
    });
    await space.merge(cr.number, s.reviewer, 409);
    await space.merge(cr.number, s.admin, 200);
  });

  it("answers 400 for a rule it does not know, a user outside the organization or an organization inheriting; 403 to a non-admin", async () => {
    const { space } = await proposal();
    await setSpaceRules(
      space.spaceId,
      { type: "rules", rules: [{ rule: "require_agent_review" }] },
      s.admin,
      400,
    );
    await setSpaceRules(
      space.spaceId,
      { type: "rules", rules: [{ rule: "require_specific_reviewers", users: [] }] },
      s.admin,
      400,
    );
    const stranger = await setSpaceRules(
      space.spaceId,
      { type: "rules", rules: [{ rule: "require_specific_reviewers", users: [s.outsider.user.id] }] },
      s.admin,
      400,
    );
    expect(stranger.body.error.message).toContain(s.outsider.user.id);
    await setSpaceRules(space.spaceId, { type: "whatever" }, s.admin, 400);
    await setSpaceRules(space.spaceId, { type: "none" }, s.editor, 403);
    await s.t.request
      .patch(`/v1/orgs/${s.organizationId}`)
      .set(s.admin.auth)
      .send({ mergeRules: { type: "inherit" } })
      .expect(400);
    await s.t.request
      .patch(`/v1/orgs/${s.organizationId}`)
      .set(s.editor.auth)
      .send({ mergeRules: { type: "none" } })
      .expect(403);
    // Nothing changed.
    expect((await space.space()).mergeRules).toEqual({ type: "inherit" });
    expect(
      (await s.t.request.get(`/v1/orgs/${s.organizationId}`).set(s.admin.auth).expect(200)).body.mergeRules,
    ).toEqual({
      type: "none",
    });
  });
});
