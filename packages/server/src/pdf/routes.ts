import type { Router } from "express";
import { changeRequestOf } from "../change-requests/index.js";
import { contentEngine } from "../content/engine/index.js";
import { References } from "../content/engine/references.js";
import { revisionOf, treeOf } from "../content/revisions.js";
import { ContentStorage } from "../content/storage.js";
import type { Db } from "../db/database.js";
import { publicBase, revisionFiles } from "../files/index.js";
import { pagePaths } from "../git-sync/index.js";
import { errorBody, send } from "../http/errors.js";
import type { Services } from "../services.js";
import { spaceById } from "../spaces/index.js";
import { siblingModule } from "../workers/pool.js";
import { embeddedImages, pdfLinks } from "./links.js";
import { exportedPages } from "./pages.js";
import type { PdfContent } from "./render.js";
import { type PdfExport, verifyPdfToken } from "./token.js";

const renderModule = siblingModule(import.meta.url, "render");

/**
 * Whether the export's revision is one of its change request's own, in its space: on the change
 * request's first-parent line, from its latest revision back to the one it started from.
 */
async function namesOwnRevision(db: Db, pdf: PdfExport & { changeRequestId: string }): Promise<boolean> {
  const found = await db
    .withRecursive("line(id, parent_id, initial_id)", (qb) =>
      qb
        .selectFrom("change_requests")
        .innerJoin("revisions", "revisions.id", "change_requests.revision_id")
        .select(["revisions.id", "revisions.parent_id", "change_requests.revision_initial_id as initial_id"])
        .where("change_requests.id", "=", pdf.changeRequestId)
        .where("change_requests.space_id", "=", pdf.spaceId)
        .unionAll((qb) =>
          qb
            .selectFrom("revisions")
            .innerJoin("line", "line.parent_id", "revisions.id")
            .select(["revisions.id", "revisions.parent_id", "line.initial_id"])
            .whereRef("line.id", "!=", "line.initial_id"),
        ),
    )
    .selectFrom("line")
    .select("id")
    .where("id", "=", pdf.revisionId)
    .executeTakeFirst();
  return found !== undefined;
}

/**
 * The title and file name of what the export names, when it names a revision of its change request
 * or of its space: undefined for anything else.
 */
async function exported(db: Db, pdf: PdfExport): Promise<{ title: string; filename: string } | undefined> {
  const { changeRequestId } = pdf;
  if (changeRequestId !== undefined) {
    if (!(await namesOwnRevision(db, { ...pdf, changeRequestId }))) return undefined;
    const changeRequest = await changeRequestOf(db, pdf.spaceId, changeRequestId);
    return {
      title: changeRequest.subject || `Change request #${changeRequest.number}`,
      filename: `change-request-${changeRequest.number}.pdf`,
    };
  }
  const space = await spaceById(db, pdf.spaceId);
  const revision = await db
    .selectFrom("revisions")
    .select("id")
    .where("id", "=", pdf.revisionId)
    .where("space_id", "=", pdf.spaceId)
    .executeTakeFirst();
  if (!space || !revision) return undefined;
  return { title: space.title, filename: `space-${space.id}.pdf` };
}

/**
 * What the PDF area serves outside the contract: the PDF behind a URL of `getSpacePDF` or
 * `getChangeRequestPDF`. The token, signed with the server's key, stands for the right to read one
 * revision of one space or change request until it expires: a token naming anything else is no URL
 * of ours.
 */
export function pdfRoutes(router: Router, { db, clock, secretKey, urls, files: { blobs } }: Services): void {
  router.get("/pdf/:token", async (req, res, next) => {
    const pdf = verifyPdfToken(secretKey, req.params.token);
    if (!pdf) return next();
    if (clock.now().getTime() >= pdf.expires) {
      send(res, { status: 410, body: errorBody(410, "This PDF link has expired: ask for a new one.") });
      return;
    }
    const what = await exported(db, pdf);
    if (!what) return next();
    const storage = new ContentStorage(db, pdf.spaceId);
    const revision = await revisionOf(db, pdf.spaceId, pdf.revisionId);
    const tree = await treeOf(storage, revision);
    const root = pdf.page === undefined ? undefined : tree.get(pdf.page);
    const pages = exportedPages(tree, root, pdf.only === true);
    const bodies = await storage.documents(
      pages.flatMap(({ entry }) => (entry.document ? [entry.document] : [])),
    );
    const markdowns = pages.map(({ entry }) => (entry.document ? (bodies.get(entry.document) ?? "") : ""));
    const engine = contentEngine();
    const analyses = await engine.analyzeAll(markdowns);
    const scope = { spaceId: pdf.spaceId, changeRequestId: pdf.changeRequestId ?? null };
    const files = new Map(
      (await revisionFiles(db, scope, revision.created_at)).map((file) => [file.id, file]),
    );
    const links = pdfLinks(
      {
        references: new References(tree, publicBase(urls), await pagePaths(db, pdf.spaceId)),
        files,
        urls,
        secretKey,
      },
      pages.map(({ entry }) => entry),
      analyses.map(({ links }) => links),
    );
    const content: Omit<PdfContent, "images"> = {
      title: what.title,
      pages: pages.map(({ entry, depth }, i) => ({
        title: entry.title,
        depth,
        markdown: markdowns[i] ?? "",
        links: links[i] ?? {},
      })),
    };
    // Laid out in the engine's PDF pool, within its limits, once per content: a link's every GET after
    // the first is served from the engine's cache, without reading the images again (their files'
    // hashes stand for them).
    const identity = JSON.stringify({
      content,
      files: [...files.values()].map(({ id, sha256 }) => [id, sha256]),
    });
    const load = async (): Promise<PdfContent> => ({
      ...content,
      images: await embeddedImages(blobs, files, links),
    });
    const rendered = await engine.process<Uint8Array>(
      "pdf",
      renderModule,
      "renderPdf",
      { load, identity },
      { bodies: markdowns, what: "PDF export" },
    );
    const bytes = Buffer.from(rendered.buffer, rendered.byteOffset, rendered.byteLength);
    res
      .status(200)
      .set({
        "Content-Type": "application/pdf",
        "Content-Length": String(bytes.byteLength),
        "Content-Disposition": `inline; filename="${what.filename}"`,
        "X-Content-Type-Options": "nosniff",
        // The same URL always serves the same bytes: the revision is fixed in it.
        "Cache-Control": "private, max-age=3600, immutable",
      })
      .end(bytes);
  });
}
