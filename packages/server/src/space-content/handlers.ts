import type { AccessMap, AreaHandlers } from "../area.js";
import { mainRevision } from "../commands/main-revision.js";
import { withPagesInGit } from "../commands/pages-in-git.js";
import { renderedPage } from "../commands/rendered-page.js";
import { revisionHistory } from "../commands/revision-history.js";
import { DEFAULT_CHANGES, revisionChanges } from "../commands/semantic-changes.js";
import type { SpaceTable } from "../db/schema.js";
import { ok } from "../http/results.js";
import type { Services } from "../services.js";
import { onSpace } from "../spaces/index.js";
import { presentRenderedPage } from "./presenter.js";
import { contentReads } from "./reads.js";

const reads = onSpace("read this space");

export const spaceContentAccess = {
  getCurrentRevision: reads,
  getRevisionById: reads,
  listPages: reads,
  getPageById: reads,
  getRenderedPage: reads,
  listFiles: reads,
  getFileById: reads,
  listRevisions: reads,
  getPageByPath: reads,
  listPagesInRevisionById: reads,
  getPageInRevisionById: reads,
  getPageDocumentInRevisionById: reads,
  getPageInRevisionByPath: reads,
  listFilesInRevisionById: reads,
  getFileInRevisionById: reads,
  getRevisionSemanticChanges: reads,
  listSpacePageMetaLinks: reads,
  listRevisionPageMetaLinks: reads,
} satisfies AccessMap;

/** How the space's main content is seen: from the space, in the app. */
const viewOf = (space: SpaceTable) => ({ spaceId: space.id, appPath: `spaces/${space.id}` });

/** The main content's file scope: the files of no change request. */
const scopeOf = (space: SpaceTable) => ({ spaceId: space.id, changeRequestId: null });

export function spaceContentHandlers(services: Services): AreaHandlers<typeof spaceContentAccess> {
  const content = contentReads(services);
  const inGit = <Result extends { body: unknown }>(space: SpaceTable, result: Result) =>
    withPagesInGit(services.db, space.id, result);
  return {
    async getCurrentRevision(_input, { space }) {
      return inGit(space, await mainRevision(services, space, space.revision_id));
    },

    async getRevisionById({ path }, { space }) {
      return inGit(space, await mainRevision(services, space, path.revisionId));
    },

    async listPages(_input, { space }) {
      return inGit(space, await content.pages(viewOf(space), space.revision_id));
    },

    async listSpacePageMetaLinks({ path }, { space }) {
      return content.metaLinks(space.id, space.revision_id, path.pageId);
    },

    async listRevisionPageMetaLinks({ path }, { space }) {
      return content.metaLinks(space.id, path.revisionId, path.pageId);
    },

    async getPageById({ path, query }, { space }) {
      return inGit(space, await content.page(viewOf(space), space.revision_id, path.pageId, query));
    },

    async getRenderedPage({ path }, { space }) {
      return ok(presentRenderedPage(await renderedPage(services, space, path.pageId)));
    },

    async listFiles({ query }, { space }) {
      return content.files(scopeOf(space), query);
    },

    async getFileById({ path }, { space }) {
      return content.file(scopeOf(space), path.fileId);
    },

    async listRevisions({ query }, { space }) {
      return ok(await revisionHistory(services.db, services.urls, space.id, query));
    },

    async getPageByPath({ path, query }, { space }) {
      return inGit(space, await content.pageAtPath(viewOf(space), space.revision_id, path.pagePath, query));
    },

    async listPagesInRevisionById({ path }, { space }) {
      return inGit(space, await content.pages(viewOf(space), path.revisionId));
    },

    async getPageInRevisionById({ path, query }, { space }) {
      return inGit(space, await content.page(viewOf(space), path.revisionId, path.pageId, query));
    },

    async getPageDocumentInRevisionById({ path }, { space }) {
      return content.document(space.id, path.revisionId, path.pageId);
    },

    async getPageInRevisionByPath({ path, query }, { space }) {
      return inGit(space, await content.pageAtPath(viewOf(space), path.revisionId, path.pagePath, query));
    },

    async listFilesInRevisionById({ path, query }, { space }) {
      return content.files(scopeOf(space), query, path.revisionId);
    },

    async getRevisionSemanticChanges({ path, query }, { space }) {
      return ok(await revisionChanges(services, space, path.revisionId, query.limit ?? DEFAULT_CHANGES));
    },

    async getFileInRevisionById({ path }, { space }) {
      return content.file(scopeOf(space), path.fileId, path.revisionId);
    },
  };
}
