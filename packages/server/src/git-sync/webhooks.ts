import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import express, { type Router } from "express";
import { publicBase } from "../files/index.js";
import type { Services } from "../services.js";
import { revealSecret } from "./remote.js";
import { connectionOf, hasQueuedImport, queueFromConnection } from "./store.js";

/** What a Git host's webhook request says, once its signature checked out. */
export type HostEvent = { kind: "push"; ref: string } | { kind: "ping" } | { kind: "other"; name: string };

/** The path a space's push webhook posts to, under the server's root. */
export const webhookPath = (spaceId: string) => `/git-sync/webhooks/${encodeURIComponent(spaceId)}`;

/** GitHub pushes can be large (every commit listed); GitHub caps them at 25 MB, 10 MB is ample for a branch of docs. */
const BODY_LIMIT = "10mb";

const header = (headers: IncomingHttpHeaders, name: string) => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

const sameBytes = (a: Buffer, b: Buffer) => a.length === b.length && timingSafeEqual(a, b);
const hmacHex = (secret: string, body: Buffer) => createHmac("sha256", secret).update(body).digest();

/** A hex signature equal to the body's HMAC-SHA256 under the secret. */
function signedHex(signature: string | undefined, secret: string, body: Buffer): boolean {
  if (signature === undefined || !/^[0-9a-f]{64}$/i.test(signature)) return false;
  return sameBytes(Buffer.from(signature, "hex"), hmacHex(secret, body));
}

/**
 * The event of a request signed as GitHub, GitLab, or Gitea and Forgejo sign theirs, or null when it
 * is not signed with `secret`. Gitea also sends GitHub's headers: its own are read first.
 */
export function verifiedEvent(headers: IncomingHttpHeaders, body: Buffer, secret: string): HostEvent | null {
  let event: string | undefined;
  const giteaSignature = header(headers, "x-gitea-signature") ?? header(headers, "x-forgejo-signature");
  const githubSignature = header(headers, "x-hub-signature-256");
  const gitlabToken = header(headers, "x-gitlab-token");
  if (giteaSignature !== undefined) {
    if (!signedHex(giteaSignature, secret, body)) return null;
    event = header(headers, "x-gitea-event") ?? header(headers, "x-forgejo-event");
  } else if (githubSignature !== undefined) {
    if (!signedHex(githubSignature.replace(/^sha256=/, ""), secret, body)) return null;
    event = header(headers, "x-github-event");
  } else if (gitlabToken !== undefined) {
    // A token, not a signature: compared by digest, in constant time whatever its length.
    const digest = (text: string) => createHash("sha256").update(text).digest();
    if (!sameBytes(digest(gitlabToken), digest(secret))) return null;
    event = header(headers, "x-gitlab-event") === "Push Hook" ? "push" : header(headers, "x-gitlab-event");
  } else return null;
  if (event === "ping") return { kind: "ping" };
  if (event !== "push") return { kind: "other", name: event ?? "" };
  let ref: unknown;
  try {
    ref = (JSON.parse(body.toString("utf8")) as { ref?: unknown }).ref;
  } catch {
    return { kind: "other", name: "push without a JSON body" };
  }
  return typeof ref === "string" ? { kind: "push", ref } : { kind: "other", name: "push without a ref" };
}

/** The push webhook's URL of a space. */
export function webhookUrl(services: Pick<Services, "urls">, spaceId: string): string {
  return `${publicBase(services.urls)}${webhookPath(spaceId)}`;
}

/**
 * The route Git hosts post their push events to: a push to the synchronized branch, signed with the
 * space's webhook secret, queues an import (in the name of whoever last synchronized the space), unless
 * one waits already. Anything else is answered and ignored; a wrong signature is a 401.
 */
export function gitSyncRoutes(router: Router, services: Services): void {
  const { db, clock, ids, secretKey, transaction } = services;
  router.post(
    "/git-sync/webhooks/:spaceId",
    express.raw({ type: () => true, limit: BODY_LIMIT }),
    async (req, res) => {
      const spaceId = String(req.params.spaceId);
      const connection = await connectionOf(db, spaceId);
      if (!connection?.webhook_secret) {
        res.status(404).json({ error: "No webhook for this space." });
        return;
      }
      const secret = revealSecret(connection.webhook_secret, { secretKey, spaceId });
      const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const event = verifiedEvent(req.headers, body, secret);
      if (!event) {
        res.status(401).json({ error: "The request is not signed with this space's webhook secret." });
        return;
      }
      if (event.kind !== "push" || event.ref !== connection.ref) {
        res.status(200).json({ ignored: event.kind === "push" ? `a push to ${event.ref}` : event.kind });
        return;
      }
      const queued = await transaction(async (tx) => {
        if (await hasQueuedImport(tx, spaceId)) return false;
        await queueFromConnection(tx, { clock, ids }, connection, {
          direction: "import",
          requestedBy: connection.synced_by,
        });
        return true;
      });
      res.status(202).json({ queued });
    },
  );
}
