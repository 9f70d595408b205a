import type { AccessMap, AreaHandlers } from "../area.js";
import { onChangeRequest } from "../change-requests/index.js";
import { revisionOf, treeOf } from "../content/revisions.js";
import { ContentStorage } from "../content/storage.js";
import type { Db } from "../db/database.js";
import { publicBase } from "../files/index.js";
import { badRequest, notFound } from "../http/errors.js";
import { ok } from "../http/results.js";
import type { Services } from "../services.js";
import { onSpace } from "../spaces/index.js";
import { PDF_URL_LIFETIME_MS, signPdfToken } from "./token.js";

export const pdfAccess = {
  // Any member who reads the space may export it (who cannot gets 404, as for every read).
  getSpacePDF: onSpace("export this space"),
  getChangeRequestPDF: onChangeRequest("export this change request"),
} satisfies AccessMap;

/** What an export may ask: one page (with its descendants, or `only` it), or all pages. */
type PdfQuery = { only?: boolean; page?: string };

/**
 * A URL, valid for an hour, of a revision of the space's content as a PDF: the revision is fixed in
 * it, so that later edits do not change what it serves. A page asked for must be in the revision.
 */
async function pdfUrl(
  { db, clock, urls, secretKey }: Services,
  content: { spaceId: string; revisionId: string; changeRequestId?: string },
  query: PdfQuery,
) {
  if (query.only && query.page === undefined)
    throw badRequest("`only` exports one page: give it with `page`.");
  if (query.page !== undefined) await assertPageIn(db, content, query.page);
  const token = signPdfToken(secretKey, {
    ...content,
    ...(query.page !== undefined && { page: query.page }),
    ...(query.only && { only: true }),
    expires: clock.now().getTime() + PDF_URL_LIFETIME_MS,
  });
  return ok({ url: `${publicBase(urls)}/pdf/${token}` });
}

async function assertPageIn(db: Db, content: { spaceId: string; revisionId: string }, page: string) {
  const revision = await revisionOf(db, content.spaceId, content.revisionId);
  const tree = await treeOf(new ContentStorage(db, content.spaceId), revision);
  if (!tree.get(page)) throw notFound("Page");
}

export function pdfHandlers(services: Services): AreaHandlers<typeof pdfAccess> {
  return {
    /** The space's main content as it is now. */
    async getSpacePDF({ query }, { space }) {
      return pdfUrl(services, { spaceId: space.id, revisionId: space.revision_id }, query);
    },

    /** The change request's content as it is now. */
    async getChangeRequestPDF({ query }, { space, changeRequest }) {
      const content = {
        spaceId: space.id,
        changeRequestId: changeRequest.id,
        revisionId: changeRequest.revision_id,
      };
      return pdfUrl(services, content, query);
    },
  };
}
