import type { AccessMap, AreaHandlers } from "../area.js";
import type { SpaceTable } from "../db/schema.js";
import type { Services } from "../services.js";
import { onSpace } from "../spaces/index.js";
import { contentReads } from "./reads.js";

const reads = onSpace("read this space");

export const spaceContentAccess = {
  getCurrentRevision: reads,
  getRevisionById: reads,
  listPages: reads,
  getPageById: reads,
  listFiles: reads,
  getFileById: reads,
} satisfies AccessMap;

/** How the space's main content is seen: from the space, in the app. */
const viewOf = (space: SpaceTable) => ({ spaceId: space.id, appPath: `spaces/${space.id}` });

/** The main content's file scope: the files of no change request. */
const scopeOf = (space: SpaceTable) => ({ spaceId: space.id, changeRequestId: null });

export function spaceContentHandlers(services: Services): AreaHandlers<typeof spaceContentAccess> {
  const content = contentReads(services);
  return {
    async getCurrentRevision(_input, { space }) {
      return content.revision(viewOf(space), space.revision_id, scopeOf(space));
    },

    async getRevisionById({ path }, { space }) {
      return content.revision(viewOf(space), path.revisionId, scopeOf(space));
    },

    async listPages(_input, { space }) {
      return content.pages(viewOf(space), space.revision_id);
    },

    async getPageById({ path, query }, { space }) {
      return content.page(viewOf(space), space.revision_id, path.pageId, query);
    },

    async listFiles({ query }, { space }) {
      return content.files(scopeOf(space), query);
    },

    async getFileById({ path }, { space }) {
      return content.file(scopeOf(space), path.fileId);
    },
  };
}
