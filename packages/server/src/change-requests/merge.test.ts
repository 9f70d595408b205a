import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ContentScenario,
  createContentScenario,
  deletePage,
  expectError,
  flatten,
  insertPage,
  newSpaceContent,
  updatePage,
} from "./testing.js";

let s: ContentScenario;
beforeAll(async () => {
  s = await createContentScenario();
});
afterAll(() => s.t.close());

const lines = (...items: string[]) => `${items.join("\n")}\n`;
const INTRO = lines("one", "two", "three", "four", "five", "six", "seven", "eight");

/** A space whose main content has three pages (Intro, Guide, FAQ) and two change requests on it. */
async function scenario() {
  const space = await newSpaceContent(s);
  const ids = await space.seed([
    insertPage("Intro", INTRO),
    insertPage("Guide", "guide\n"),
    insertPage("FAQ", "faq\n"),
  ]);
  const mine = await space.createChangeRequest(s.editor, "mine");
  const theirs = await space.createChangeRequest(s.editor, "theirs");
  return { space, ids: ids as Record<"Intro" | "Guide" | "FAQ", string>, mine, theirs };
}

describe("merge and update-from-main", () => {
  it("fast-forwards when the main content did not move, as a new merge revision", async () => {
    const { space, ids, mine, theirs } = await scenario();
    const before = await space.space();
    await space.edit(
      mine.number,
      [updatePage(ids.Intro, { title: "Introduction" }), insertPage("New")],
      s.editor,
    );
    const edited = await space.getChangeRequest(mine.number);
    const res = await space.merge(mine.number, s.reviewer);
    expect(res.body).toEqual({ revision: expect.any(String), result: "merge" });

    const after = await space.space();
    expect(after.revision).toBe(res.body.revision);
    expect(after).toMatchObject({
      changeRequests: before.changeRequests,
      changeRequestsDraft: before.changeRequestsDraft - 1,
    });
    const current = (
      await s.t.request.get(`/v1/spaces/${space.spaceId}/content`).set(s.reader.auth).expect(200)
    ).body;
    expect(current).toMatchObject({
      object: "revision",
      id: res.body.revision,
      type: "merge",
      parents: [before.revision, edited.revision],
    });
    expect(current.pages.map((p: { title: string }) => p.title)).toEqual([
      "Introduction",
      "Guide",
      "FAQ",
      "New",
    ]);
    expect(await space.snapshot()).toEqual(await space.snapshot(mine.number));

    const merged = await space.getChangeRequest(mine.number);
    expect(merged).toMatchObject({ status: "merged", revisionMerged: res.body.revision, outdated: false });
    expect((await space.getChangeRequest(theirs.number)).outdated).toBe(true);
  });

  it("combines edits of different pages, and of different lines of one page", async () => {
    const { space, ids, mine, theirs } = await scenario();
    await space.edit(mine.number, [
      updatePage(ids.Guide, { markdown: "guide, mine\n" }),
      updatePage(ids.Intro, { markdown: INTRO.replace("two", "TWO (mine)") }),
    ]);
    await space.edit(theirs.number, [
      updatePage(ids.FAQ, { title: "Questions" }),
      updatePage(ids.Intro, { markdown: INTRO.replace("seven", "SEVEN (theirs)") }),
    ]);
    await space.merge(theirs.number);
    await space.merge(mine.number);
    const main = await space.snapshot();
    expect(main).toEqual({
      intro: {
        title: "Intro",
        markdown: INTRO.replace("two", "TWO (mine)").replace("seven", "SEVEN (theirs)"),
      },
      guide: { title: "Guide", markdown: "guide, mine\n" },
      faq: { title: "Questions", markdown: "faq\n" },
    });
    expect((await space.space()).changeRequestsDraft).toBe(0);
  });

  it("refuses with 412 and a list of conflicts when both sides changed the same lines, writing nothing", async () => {
    const { space, ids, mine, theirs } = await scenario();
    await space.edit(theirs.number, [
      updatePage(ids.Intro, { markdown: INTRO.replace("three", "3 (theirs)") }),
      updatePage(ids.Guide, { title: "Guide (theirs)" }),
    ]);
    await space.merge(theirs.number);
    await space.edit(mine.number, [
      updatePage(ids.Intro, { markdown: INTRO.replace("three", "3 (mine)") }),
      updatePage(ids.Guide, { title: "Guide (mine)" }),
    ]);
    const spaceBefore = await space.space();
    const crBefore = await space.getChangeRequest(mine.number);

    const res = await space.merge(mine.number, s.admin, 412);
    expectError(res.body, 412, ids.Intro, "merge_conflict");
    expect(res.body.error.message).toContain("markdown");
    expect(res.body.error.message).toContain(`"Guide (mine)" (${ids.Guide}): title`);
    // Every conflict, with both sides' text for bodies, so that a client can reconcile them.
    expect(res.body.error.conflicts).toEqual([
      {
        page: ids.Guide,
        title: "Guide (mine)",
        field: "title",
        changeRequest: "Guide (mine)",
        main: "Guide (theirs)",
        base: "Guide",
      },
      {
        page: ids.Intro,
        title: "Intro",
        field: "markdown",
        changeRequest: INTRO.replace("three", "3 (mine)"),
        main: INTRO.replace("three", "3 (theirs)"),
        base: INTRO,
      },
    ]);

    expect(await space.space()).toEqual(spaceBefore);
    expect(await space.getChangeRequest(mine.number)).toEqual(crBefore);

    // Updating from main conflicts the same way, with 409.
    const updated = await space.update(mine.number, s.admin, 409);
    expectError(updated.body, 409, ids.Intro, "merge_conflict");
    expect(updated.body.error.conflicts).toEqual(res.body.error.conflicts);
    expect(await space.getChangeRequest(mine.number)).toEqual(crBefore);
  });

  it("conflicts on an edit against a delete, either way round, and not when both delete", async () => {
    const { space, ids, mine, theirs } = await scenario();
    await space.edit(theirs.number, [deletePage(ids.Intro), deletePage(ids.FAQ)]);
    await space.merge(theirs.number);
    await space.edit(mine.number, [updatePage(ids.Intro, { markdown: "edited" }), deletePage(ids.FAQ)]);
    expectError(
      (await space.merge(mine.number, s.admin, 412)).body,
      412,
      `(${ids.Intro}): deleted`,
      "merge_conflict",
    );

    const other = await space.createChangeRequest();
    await space.edit(other.number, [updatePage(ids.Guide, { markdown: "main edits the guide" })]);
    await space.merge(other.number);
    const deleting = await space.createChangeRequest();
    await s.t.request
      .post(`/v1/spaces/${space.spaceId}/change-requests/${deleting.number}/content`)
      .set(s.admin.auth)
      .send({ changes: [deletePage(ids.Guide)] })
      .expect(200);
    // `deleting` started after the guide edit: nothing conflicts, the guide goes.
    await space.merge(deleting.number);
    expect(flatten(await space.pages()).map((p) => p.title)).toEqual([]);

    // A change request from before the guide edit that deletes it: conflict.
    const { space: second, ids: secondIds, mine: stale, theirs: editor } = await scenario();
    await second.edit(stale.number, [deletePage(secondIds.Guide)]);
    await second.edit(editor.number, [updatePage(secondIds.Guide, { title: "Edited guide" })]);
    await second.merge(editor.number);
    expectError(
      (await second.merge(stale.number, s.admin, 412)).body,
      412,
      `(${secondIds.Guide}): deleted`,
      "merge_conflict",
    );
  });

  it("keeps inserts of both sides, the change request's page giving way on a slug collision", async () => {
    const { space, ids, mine, theirs } = await scenario();
    await space.edit(mine.number, [insertPage("New", "mine"), insertPage("Child of intro", "c", ids.Intro)]);
    await space.edit(theirs.number, [insertPage("New", "theirs"), insertPage("Other", "o")]);
    await space.merge(theirs.number);
    await space.merge(mine.number);
    const pages = await space.pages();
    // Both "New" pages went after FAQ: the main content's first, then the change request's.
    expect(pages.map((p) => `${p.title}:${p.slug}`)).toEqual([
      "Intro:intro",
      "Guide:guide",
      "FAQ:faq",
      "New:new",
      "New:new-2",
      "Other:other",
    ]);
    const snapshot = await space.snapshot();
    expect(snapshot.new?.markdown).toBe("theirs");
    expect(snapshot["new-2"]?.markdown).toBe("mine");
    expect(snapshot["intro/child-of-intro"]?.markdown).toBe("c");
  });

  it("does not conflict on identical changes", async () => {
    const { space, ids, mine, theirs } = await scenario();
    const same = [
      updatePage(ids.Intro, { title: "Same title", markdown: INTRO.replace("four", "FOUR") }),
      deletePage(ids.FAQ),
    ];
    await space.edit(mine.number, same);
    await space.edit(theirs.number, same);
    await space.merge(theirs.number);
    await space.merge(mine.number);
    expect(await space.snapshot()).toEqual({
      intro: { title: "Same title", markdown: INTRO.replace("four", "FOUR") },
      guide: { title: "Guide", markdown: "guide\n" },
    });
  });

  it("conflicts when both sides move a page differently, or a page goes under a parent the other side deleted", async () => {
    const { space, ids, mine, theirs } = await scenario();
    await space.edit(theirs.number, [
      { operation: "update_page", page: ids.FAQ, into: ids.Intro },
      deletePage(ids.Guide),
    ]);
    await space.merge(theirs.number);
    await space.edit(mine.number, [
      { operation: "update_page", page: ids.FAQ, into: ids.Guide },
      insertPage("Under the guide", "", ids.Guide),
    ]);
    const res = await space.merge(mine.number, s.admin, 412);
    expect(res.body.error.message).toContain(`(${ids.FAQ}): parent`);
    expect(res.body.error.message).toContain("Under the guide");
  });

  it("updates from main (409 on conflicts, reconciled with update_page), then merges", async () => {
    const { space, ids, mine, theirs } = await scenario();
    await space.edit(mine.number, [updatePage(ids.Intro, { markdown: INTRO.replace("one", "ONE") })]);
    // Not outdated: nothing to do, no new revision.
    const unchanged = await space.getChangeRequest(mine.number);
    expect((await space.update(mine.number, s.editor)).body).toEqual({
      revision: unchanged.revision,
      result: "update",
    });

    await space.edit(theirs.number, [
      updatePage(ids.Intro, { markdown: INTRO.replace("one", "uno") }),
      insertPage("Theirs"),
    ]);
    await space.merge(theirs.number);
    const outdated = await space.getChangeRequest(mine.number);
    expect(outdated.outdated).toBe(true);
    expectError((await space.update(mine.number, s.editor, 409)).body, 409, ids.Intro, "merge_conflict");

    // Reconcile: take main's line into the change request; identical hunks merge.
    await space.edit(mine.number, [updatePage(ids.Intro, { markdown: INTRO.replace("one", "uno") })]);
    const reconciled = await space.getChangeRequest(mine.number);
    const updated = await space.update(mine.number, s.editor);
    expect(updated.body).toEqual({ revision: expect.any(String), result: "update" });
    const main = await space.space();
    const cr = await space.getChangeRequest(mine.number);
    expect(cr).toMatchObject({
      revision: updated.body.revision,
      revisionMergedAncestor: main.revision,
      outdated: false,
    });
    const revision = (
      await s.t.request
        .get(`/v1/spaces/${space.spaceId}/revisions/${cr.revision}`)
        .set(s.admin.auth)
        .expect(200)
    ).body;
    expect(revision).toMatchObject({ type: "update", parents: [reconciled.revision, main.revision] });
    expect(flatten(revision.pages).map((p: { title: string }) => p.title)).toEqual([
      "Intro",
      "Guide",
      "FAQ",
      "Theirs",
    ]);

    await space.edit(mine.number, [
      updatePage(ids.Intro, { markdown: INTRO.replace("one", "uno").replace("eight", "ocho") }),
    ]);
    await space.merge(mine.number, s.reviewer);
    expect((await space.page(ids.Intro)).markdown).toBe(INTRO.replace("one", "uno").replace("eight", "ocho"));
    expect((await space.space()).revision).toBe((await space.getChangeRequest(mine.number)).revisionMerged);
  });

  it("refuses archived and merged change requests (409) until reopened, and deleted spaces", async () => {
    const { space, mine, theirs } = await scenario();
    const patch = (number: number, status: string) =>
      s.t.request
        .patch(`/v1/spaces/${space.spaceId}/change-requests/${number}`)
        .set(s.admin.auth)
        .send({ status });
    await patch(mine.number, "archived").expect(200);
    expectError(
      (await space.merge(mine.number, s.admin, 409)).body,
      409,
      "archived",
      "change_request_closed",
    );
    expectError(
      (await space.update(mine.number, s.admin, 409)).body,
      409,
      "archived",
      "change_request_closed",
    );
    await patch(mine.number, "open").expect(200);
    await space.merge(mine.number);
    expectError((await space.merge(mine.number, s.admin, 409)).body, 409, "merged", "change_request_closed");
    expectError((await space.update(mine.number, s.admin, 409)).body, 409, "merged", "change_request_closed");

    await s.t.db
      .updateTable("spaces")
      .set({ deleted_at: s.t.clock.now().toISOString() })
      .where("id", "=", space.spaceId)
      .execute();
    expectError((await space.merge(theirs.number, s.admin, 409)).body, 409, "deleted", "space_deleted");
    expectError((await space.update(theirs.number, s.admin, 409)).body, 409, "deleted", "space_deleted");
  });

  it("answers 404 and 403 (review to merge, edit to update)", async () => {
    const { space, mine } = await scenario();
    const base = `/v1/spaces/${space.spaceId}/change-requests`;
    for (const action of ["merge", "update"]) {
      await s.t.request.post(`${base}/${mine.number}/${action}`).set(s.outsider.auth).expect(404);
      await s.t.request.post(`${base}/12345/${action}`).set(s.admin.auth).expect(404);
      await s.t.request.post(`${base}/${mine.number}/${action}`).set(s.commenter.auth).expect(403);
    }
    expectError((await space.merge(mine.number, s.editor, 403)).body, 403, "merge");
    await space.update(mine.number, s.editor);
    expect((await space.getChangeRequest(mine.number)).status).toBe("draft");
    await space.merge(mine.number, s.reviewer);
  });
});

/** An edit a side makes, by page title (each space has its own ids). */
type Edit =
  | { kind: "title"; page: string; title: string }
  | { kind: "body"; page: string; markdown: string }
  | { kind: "delete"; page: string }
  | { kind: "insert"; parent: string | null; title: string; markdown: string };

const PAGES = ["P0", "P1", "P2", "P3", "P4", "P5"];
const body = (page: string) => lines(`${page} a`, `${page} b`, `${page} c`);

/** The change that makes an edit in a space whose pages have `ids` (by title). */
function changeOf(edit: Edit, ids: Record<string, string>) {
  if (edit.kind === "insert")
    return insertPage(edit.title, edit.markdown, edit.parent === null ? undefined : ids[edit.parent]);
  const page = ids[edit.page] as string;
  if (edit.kind === "delete") return deletePage(page);
  return updatePage(page, edit.kind === "title" ? { title: edit.title } : { markdown: edit.markdown });
}

const changesOf = (edits: Edit[], ids: Record<string, string>) => edits.map((edit) => changeOf(edit, ids));

/** Edits of one side on its own pages; inserts go at the top level or under its own pages. */
function editsOn(side: string, own: string[]) {
  const page = fc.constantFrom(...own);
  const text = fc.string({ minLength: 1, maxLength: 8 }).map((t) => t.replace(/\s/g, "_"));
  return fc
    .array(
      fc.oneof(
        fc.record({ kind: fc.constant("title" as const), page, title: text.map((t) => `${side} ${t}`) }),
        fc.record({
          kind: fc.constant("body" as const),
          page,
          markdown: text.map((t) => lines(`${side} ${t}`, "shared")),
        }),
        fc.record({ kind: fc.constant("delete" as const), page }),
        fc.record({
          kind: fc.constant("insert" as const),
          parent: fc.option(page, { nil: null }),
          title: fc.constant(""),
          markdown: text,
        }),
      ),
      { maxLength: 6 },
    )
    .map((edits) => {
      // Drop edits of deleted pages, and name inserted pages uniquely per side.
      const deleted = new Set<string>();
      const kept: Edit[] = [];
      for (const [i, edit] of edits.entries()) {
        if (edit.kind === "insert") {
          if (edit.parent !== null && deleted.has(edit.parent)) continue;
          kept.push({ ...edit, title: `${side} new ${i}` });
          continue;
        }
        if (deleted.has(edit.page)) continue;
        if (edit.kind === "delete") deleted.add(edit.page);
        kept.push(edit);
      }
      return kept;
    });
}

describe("merge(update(change request)), property", () => {
  it("equals applying both sides' edits when they touch disjoint pages", { timeout: 300_000 }, async () => {
    const split = fc.shuffledSubarray(PAGES, { minLength: 1, maxLength: PAGES.length - 1 });
    const scenarioArb = split.chain((mine) => {
      const theirs = PAGES.filter((p) => !mine.includes(p));
      return fc.record({ mine: editsOn("mine", mine), theirs: editsOn("theirs", theirs) });
    });
    await fc.assert(
      fc.asyncProperty(scenarioArb, async ({ mine, theirs }) => {
        const seed = PAGES.map((p) => insertPage(p, body(p)));
        // Both sides in parallel: theirs merged first, then mine updated from main and merged.
        const merged = await newSpaceContent(s);
        const ids = await merged.seed(seed);
        const mineCr = await merged.createChangeRequest();
        const theirsCr = await merged.createChangeRequest();
        if (mine.length > 0) await merged.edit(mineCr.number, changesOf(mine, ids));
        if (theirs.length > 0) await merged.edit(theirsCr.number, changesOf(theirs, ids));
        await merged.merge(theirsCr.number);
        await merged.update(mineCr.number);
        await merged.merge(mineCr.number);

        // The same edits one after the other, in one change request of another space.
        const sequential = await newSpaceContent(s);
        const otherIds = await sequential.seed(seed);
        const cr = await sequential.createChangeRequest();
        const all = [...changesOf(mine, otherIds), ...changesOf(theirs, otherIds)];
        if (all.length > 0) await sequential.edit(cr.number, all);
        await sequential.merge(cr.number);

        expect(await merged.snapshot()).toEqual(await sequential.snapshot());
      }),
      { numRuns: 25 },
    );
  });
});
