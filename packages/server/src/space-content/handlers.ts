import type { AreaHandlers, Services } from "../services.js";
import { spaceForCaller } from "../spaces/index.js";
import { contentReads } from "./reads.js";

export function spaceContentHandlers(
  services: Services,
): AreaHandlers<
  "getCurrentRevision" | "getRevisionById" | "listPages" | "getPageById" | "listFiles" | "getFileById"
> {
  const { db, clock } = services;
  const reads = contentReads(services);
  /** The space's main content as the caller sees it (404 when they cannot), and its current revision. */
  const mainContent = async (spaceId: string, userId: string) => {
    const { space } = await spaceForCaller(db, spaceId, userId, clock.now());
    return { view: { spaceId: space.id, appPath: `spaces/${space.id}` }, revisionId: space.revision_id };
  };

  return {
    async getCurrentRevision({ path, caller }) {
      const { view, revisionId } = await mainContent(path.spaceId, caller.user.id);
      return reads.revision(view, revisionId, { spaceId: view.spaceId, changeRequestId: null });
    },

    async getRevisionById({ path, caller }) {
      const { view } = await mainContent(path.spaceId, caller.user.id);
      return reads.revision(view, path.revisionId, { spaceId: view.spaceId, changeRequestId: null });
    },

    async listPages({ path, caller }) {
      const { view, revisionId } = await mainContent(path.spaceId, caller.user.id);
      return reads.pages(view, revisionId);
    },

    async getPageById({ path, query, caller }) {
      const { view, revisionId } = await mainContent(path.spaceId, caller.user.id);
      return reads.page(view, revisionId, path.pageId, query);
    },

    async listFiles({ path, query, caller }) {
      const { view } = await mainContent(path.spaceId, caller.user.id);
      return reads.files({ spaceId: view.spaceId, changeRequestId: null }, query);
    },

    async getFileById({ path, caller }) {
      const { view } = await mainContent(path.spaceId, caller.user.id);
      return reads.file({ spaceId: view.spaceId, changeRequestId: null }, path.fileId);
    },
  };
}
