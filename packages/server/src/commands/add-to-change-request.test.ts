import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prepareContentEdit } from "../change-requests/index.js";
import {
  type ContentScenario,
  createContentScenario,
  flatten,
  newSpaceContent,
} from "../change-requests/testing.js";
import { pngOf } from "../files/testing.js";
import { testFileSettings } from "../testing/harness.js";
import { addToChangeRequest } from "./add-to-change-request.js";

let s: ContentScenario;
beforeAll(async () => {
  s = await createContentScenario();
});
afterAll(() => s.t.close());

const blobs = testFileSettings().blobs;

describe("addToChangeRequest", () => {
  it("adds files and nested pages as one revision, the files at its time", async () => {
    const space = await newSpaceContent(s);
    const cr = await space.createChangeRequest();
    const now = s.t.clock.now().toISOString();
    const ids = { parent: s.t.ids.next(), child: s.t.ids.next(), file: s.t.ids.next() };
    const edit = await prepareContentEdit(
      [],
      [
        { id: ids.parent, title: "Parent", parent: null, markdown: "![dot](/files/x)" },
        { id: ids.child, title: "Child", parent: ids.parent, markdown: "Under it." },
      ],
    );
    const result = await s.t.db.transaction().execute((tx) =>
      addToChangeRequest(
        tx,
        { ids: s.t.ids, now, blobs },
        {
          spaceId: space.spaceId,
          changeRequestId: cr.id,
          userId: s.editor.user.id,
          files: [{ id: ids.file, name: "dot.png", contentType: "image/png", bytes: pngOf(1, 1) }],
          edit,
        },
      ),
    );
    expect(result.files).toEqual([expect.objectContaining({ id: ids.file, created_at: now, width: 1 })]);
    const after = await space.getChangeRequest(cr.number);
    expect(after.revision).toBe(result.revisionId);
    const pages = await space.pages(cr.number);
    expect(pages.map((page) => [page.id, page.title, flatten(page.pages ?? []).map((p) => p.id)])).toEqual([
      [ids.parent, "Parent", [ids.child]],
    ]);
    const revision = await s.t.db
      .selectFrom("revisions")
      .selectAll()
      .where("id", "=", result.revisionId)
      .executeTakeFirstOrThrow();
    expect(revision).toMatchObject({ type: "edits", created_at: now });
  });

  it("writes nothing to a merged change request (409)", async () => {
    const space = await newSpaceContent(s);
    const cr = await space.createChangeRequest();
    await space.merge(cr.number);
    const fileId = s.t.ids.next();
    await expect(
      s.t.db.transaction().execute((tx) =>
        addToChangeRequest(
          tx,
          { ids: s.t.ids, now: s.t.clock.now().toISOString(), blobs },
          {
            spaceId: space.spaceId,
            changeRequestId: cr.id,
            userId: s.admin.user.id,
            files: [{ id: fileId, name: "dot.png", contentType: "image/png", bytes: pngOf(1, 1) }],
          },
        ),
      ),
    ).rejects.toMatchObject({ status: 409 });
    expect(await s.t.db.selectFrom("files").select("id").where("id", "=", fileId).execute()).toEqual([]);
  });
});
