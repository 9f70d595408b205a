import type { Router } from "express";
import type { Services } from "../services.js";

/**
 * Serves the images of a published integration at `urls.assets/<sha256>.png`. Browsers load them
 * in `<img>` tags, without a token: the content hash in the URL is what grants access.
 */
export function integrationAssetRoutes(router: Router, { db }: Services): void {
  router.get("/v1/integrations/:integrationName/assets/:file", async (req, res, next) => {
    const hash = /^([0-9a-f]{64})\.png$/.exec(req.params.file)?.[1];
    if (!hash) return next();
    const image = await db
      .selectFrom("integration_images")
      .innerJoin("integrations", "integrations.id", "integration_images.integration_id")
      .select("integration_images.data")
      .where("integrations.name", "=", req.params.integrationName)
      .where("integration_images.hash", "=", hash)
      .executeTakeFirst();
    if (!image) return next();
    res
      .type("png")
      // The name is the content's hash: what it names never changes.
      .set("Cache-Control", "public, max-age=31536000, immutable")
      .send(Buffer.from(image.data, "base64"));
  });
}
