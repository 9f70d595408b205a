import { editChangeRequestContent, type NewPage } from "../change-requests/edits.js";
import { canEditChangeRequests } from "../change-requests/policy.js";
import { changeRequestOf } from "../change-requests/store.js";
import { addFile } from "../files/store.js";
import { badRequest, conflict } from "../http/errors.js";
import { authorize } from "../policy.js";
import type { AreaHandlers, Services } from "../services.js";
import { spaceForMember } from "../spaces/store.js";
import { type ImportSourceKind, nestPages, readImport } from "./crawl.js";

const SUPPORTED = new Set<string>(["website", "html", "markdown"]);

export function importHandlers(services: Services): AreaHandlers<"importContentInChangeRequest"> {
  const { db, ids, now, clock, urls, files, fetcher } = services;
  return {
    /**
     * Pages (and their images) from a URL, appended to the change request's content as one revision.
     * Everything is fetched first, with no lock held; then one transaction writes the files and the
     * revision, or nothing.
     */
    async importContentInChangeRequest({ path, body, caller }) {
      const member = await spaceForMember(db, path.spaceId, caller.user.id, clock.now());
      const changeRequest = await changeRequestOf(db, member.space.id, path.changeRequestId);
      authorize(canEditChangeRequests(member.role), "import content into change requests in this space");
      if (changeRequest.status === "merged" || changeRequest.status === "archived")
        throw conflict(`The change request is ${changeRequest.status}; its content cannot change.`);
      if (!SUPPORTED.has(body.source))
        throw badRequest(
          `Importing from a ${body.source} source is not supported: use website, html or markdown.`,
        );
      const url = new URL(body.url);
      if (url.protocol !== "http:" && url.protocol !== "https:")
        throw badRequest("Only http and https URLs can be imported.");

      const imported = await readImport(fetcher, body.source as ImportSourceKind, url, {
        maxFileBytes: files.maxUploadBytes,
        nextId: () => ids.next(),
      });
      const pageIds = imported.pages.map(() => ids.next());
      const pages: NewPage[] = nestPages(imported.pages).map(({ index, parent }) => {
        const page = imported.pages[index] as (typeof imported.pages)[number];
        return {
          id: pageIds[index] as string,
          title: page.title,
          parent: parent === null ? null : (pageIds[parent] as string),
          markdown: page.markdown,
        };
      });
      const updated = await db.transaction().execute(async (tx) => {
        const at = now();
        // The files first, at the revision's time, so that the revision lists them (see `revisionFiles`).
        for (const file of imported.files)
          await addFile(tx, files.blobs, {
            spaceId: member.space.id,
            changeRequestId: changeRequest.id,
            name: file.name,
            contentType: file.contentType,
            bytes: file.bytes,
            now: at,
            id: file.id,
          });
        return editChangeRequestContent(
          tx,
          { ids, now: at },
          {
            spaceId: member.space.id,
            changeRequestId: changeRequest.id,
            userId: caller.user.id,
            changes: [],
            pages,
          },
        );
      });
      const revision = updated.changeRequest.revision_id;
      return {
        status: 201 as const,
        headers: { location: urls.api(`spaces/${member.space.id}/revisions/${revision}`) },
        body: {
          revision,
          importedResources: imported.pages.length + imported.files.length,
          totalResources: imported.total,
        },
      };
    },
  };
}
