import type { AccessMap, AreaHandlers } from "../area.js";
import { onChangeRequest } from "../change-requests/index.js";
import { revisionOf, treeOf } from "../content/revisions.js";
import { ContentStorage } from "../content/storage.js";
import { publicBase } from "../files/index.js";
import { badRequest, notFound } from "../http/errors.js";
import { ok } from "../http/results.js";
import type { Services } from "../services.js";
import { PDF_URL_LIFETIME_MS, signPdfToken } from "./token.js";

export const pdfAccess = {
  // Any member who reads the space may export it (who cannot gets 404, as for every read).
  getChangeRequestPDF: onChangeRequest("export this change request"),
} satisfies AccessMap;

export function pdfHandlers(services: Services): AreaHandlers<typeof pdfAccess> {
  const { db, clock, urls, secretKey } = services;
  return {
    /** A URL, valid for an hour, of the change request's content as it is now, as a PDF. */
    async getChangeRequestPDF({ query }, { space, changeRequest }) {
      const now = clock.now();
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
