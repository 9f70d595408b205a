import { changeRequestOf } from "../change-requests/index.js";
import { revisionOf, treeOf } from "../content/revisions.js";
import { ContentStorage } from "../content/storage.js";
import { publicBase } from "../files/index.js";
import { badRequest, notFound } from "../http/errors.js";
import { ok } from "../http/results.js";
import type { AreaHandlers, Services } from "../services.js";
import { spaceForCaller } from "../spaces/index.js";
import { PDF_URL_LIFETIME_MS, signPdfToken } from "./token.js";

export function pdfHandlers(services: Services): AreaHandlers<"getChangeRequestPDF"> {
  const { db, clock, urls, secretKey } = services;
  return {
    /**
     * A URL, valid for an hour, of the change request's content as it is now, as a PDF: any member who
     * reads the space may export it (who cannot gets 404, as for every read).
     */
    async getChangeRequestPDF({ path, query, caller }) {
      const now = clock.now();
      const { space } = await spaceForCaller(db, path.spaceId, caller.user.id, now);
      const changeRequest = await changeRequestOf(db, space.id, path.changeRequestId);
      if (query.only && query.page === undefined)
        throw badRequest("`only` exports one page: give it with `page`.");
      if (query.page !== undefined) {
        const revision = await revisionOf(db, space.id, changeRequest.revision_id);
        const tree = await treeOf(new ContentStorage(db, space.id), revision);
        if (!tree.get(query.page)) throw notFound("Page");
      }
      const token = signPdfToken(secretKey, {
        spaceId: space.id,
        changeRequestId: changeRequest.id,
        revisionId: changeRequest.revision_id,
        ...(query.page !== undefined && { page: query.page }),
        ...(query.only && { only: true }),
        expires: now.getTime() + PDF_URL_LIFETIME_MS,
      });
      return ok({ url: `${publicBase(urls)}/pdf/${token}` });
    },
  };
}
