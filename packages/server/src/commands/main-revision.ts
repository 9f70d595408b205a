import { changeRequestMergedAs, presentChangeRequest } from "../change-requests/index.js";
import type { SpaceTable } from "../db/schema.js";
import { ok } from "../http/results.js";
import type { Services } from "../services.js";
import { contentReads } from "../space-content/index.js";

/**
 * A revision of the space's main content as GitBook shows it: on a `merge` revision, with the change
 * request whose merge made it (`mergedFrom`), which the change-requests area keeps.
 */
export async function mainRevision(services: Services, space: SpaceTable, revisionId: string) {
  const { body } = await contentReads(services).revision(
    { spaceId: space.id, appPath: `spaces/${space.id}` },
    revisionId,
    { spaceId: space.id, changeRequestId: null },
  );
  if (body.type !== "merge") return ok(body);
  const merged = await changeRequestMergedAs(services.db, space.id, body.id);
  return ok(
    merged ? { ...body, mergedFrom: presentChangeRequest(merged, space.revision_id, services.urls) } : body,
  );
}
