import { timingSafeEqual } from "node:crypto";
import type { Router } from "express";
import type { Services } from "../services.js";
import { downloadSignature } from "./presenter.js";
import { fileById } from "./store.js";

/**
 * What the files area serves outside the contract: a file's bytes at its `downloadURL`. The
 * signature, keyed by the server's secret, stands for the right to read it.
 */
export function fileRoutes(router: Router, { db, secretKey, files }: Services): void {
  router.get("/files/:fileId/:signature/:name", async (req, res, next) => {
    const expected = Buffer.from(downloadSignature(secretKey, req.params.fileId));
    const given = Buffer.from(req.params.signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return next();
    const file = await fileById(db, req.params.fileId);
    const bytes = file && (await files.blobs.get(file.sha256));
    if (!file || !bytes) return next();
    // Raster images show in place; anything else (SVG, HTML…) downloads, so it never runs as a page here.
    const inline = file.content_type.startsWith("image/") && file.content_type !== "image/svg+xml";
    res
      .status(200)
      .set({
        "Content-Type": file.content_type,
        "Content-Length": String(bytes.byteLength),
        "Content-Disposition": `${inline ? "inline" : "attachment"}; filename*=UTF-8''${encodeURIComponent(file.name)}`,
        "X-Content-Type-Options": "nosniff",
        "Content-Security-Policy": "default-src 'none'; sandbox",
        "Cache-Control": "private, max-age=31536000, immutable",
      })
      .end(Buffer.from(bytes));
  });
}
