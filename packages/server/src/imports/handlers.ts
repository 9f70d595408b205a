import type { AccessMap, AreaHandlers } from "../area.js";
import {
  canEditChangeRequests,
  type NewPage,
  onChangeRequest,
  prepareContentEdit,
} from "../change-requests/index.js";
import { addToChangeRequest } from "../commands/add-to-change-request.js";
import { badRequest, conflict } from "../http/errors.js";
import type { Services } from "../services.js";
import { nestPages, readImport } from "./crawl.js";

export const importAccess = {
  importContentInChangeRequest: onChangeRequest(
    "import content into change requests in this space",
    ({ role }) => canEditChangeRequests(role),
  ),
} satisfies AccessMap;

export function importHandlers(services: Services): AreaHandlers<typeof importAccess> {
  const { ids, now, urls, files, fetcher, transaction } = services;
  return {
    /**
     * Pages (and their images) from a URL, appended to the change request's content as one revision.
     * Everything is fetched first, with no lock held; then one transaction writes the files and the
     * revision, or nothing.
     */
    async importContentInChangeRequest({ body, caller }, { space, changeRequest }) {
      // Refused before anything is fetched (the transaction checks again).
      if (changeRequest.status === "merged" || changeRequest.status === "archived")
        throw conflict(
          `The change request is ${changeRequest.status}; its content cannot change.`,
          "change_request_closed",
        );
      const url = new URL(body.url);
      if (url.protocol !== "http:" && url.protocol !== "https:")
        throw badRequest("Only http and https URLs can be imported.");

      const imported = await readImport(fetcher, body.source, url, {
        maxFileBytes: files.maxUploadBytes,
        nextId: () => ids.next(),
      });
      const pages: NewPage[] = nestPages(imported.pages).map(({ index, parent }) => {
        const page = imported.pages[index] as (typeof imported.pages)[number];
        return {
          id: page.id,
          title: page.title,
          parent: parent === null ? null : (imported.pages[parent]?.id ?? null),
          markdown: page.markdown,
        };
      });
      // Read by the content engine before the transaction: its workers never hold the database.
      const edit = await prepareContentEdit([], pages);
      const { revisionId: revision } = await transaction((tx) =>
        addToChangeRequest(
          tx,
          { ids, now: now(), blobs: files.blobs },
          {
            spaceId: space.id,
            changeRequestId: changeRequest.id,
            userId: caller.user.id,
            files: imported.files,
            edit,
          },
        ),
      );
      return {
        status: 201 as const,
        headers: { location: urls.api(`spaces/${space.id}/revisions/${revision}`) },
        body: {
          revision,
          importedResources: imported.pages.length + imported.files.length,
          totalResources: imported.total,
        },
      };
    },
  };
}
