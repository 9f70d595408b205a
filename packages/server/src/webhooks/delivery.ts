import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { fromJson, timestamp } from "../db/codecs.js";
import { presentEvent } from "../events/record.js";
import type { EventTable } from "../events/tables.js";
import { decryptSecret, encryptSecrets } from "../integrations/index.js";
import type { Fetcher } from "../net/fetch.js";
import { type Attempt, postDelivery } from "../net/post.js";
import type { WebhookDeliveryTable, WebhookTable } from "./tables.js";

const SECRET = "secret";

/** A new signing secret, as the Standard Webhooks specification writes one. */
export const generateSecret = () => `whsec_${randomBytes(32).toString("base64")}`;

/** The secret as stored: encrypted under the server key, bound to the webhook. */
export const sealSecret = (secretKey: string, webhookId: string, secret: string) =>
  encryptSecrets(secretKey, webhookId, { [SECRET]: secret });

export const revealSecret = (secretKey: string, row: Pick<WebhookTable, "id" | "secret">) =>
  decryptSecret(secretKey, row.id, SECRET, fromJson(row.secret)[SECRET] ?? "");

/**
 * POSTs the event to `url`, signed with `secret`, through the network policy: a 2xx answer is
 * success; any other answer (redirects are not followed), no answer in time, or an address the
 * policy refuses is a failure, with why.
 */
export async function sendEvent(
  fetcher: Fetcher,
  target: { url: string; secret: string },
  event: EventTable,
  { now, timeoutMs, signal }: { now: Date; timeoutMs: number; signal?: AbortSignal },
): Promise<Attempt> {
  const body = JSON.stringify(presentEvent(event));
  const headers = {
    "user-agent": "Quire-Webhooks",
    "webhook-id": event.id,
    "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
    "webhook-signature": new Webhook(target.secret).sign(event.id, now, body),
  };
  return postDelivery(fetcher, target.url, body, headers, { now, timeoutMs, ...(signal && { signal }) });
}

/** How long after failed attempt n (1 for the first) the next is due. */
const RETRY_DELAYS_MS = [5_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 5 * 3_600_000, 10 * 3_600_000];
/** A delivery still failing this long after its first attempt is given up. */
export const GIVE_UP_AFTER_MS = 24 * 3_600_000;

/**
 * The delivery's columns after `attempt`: success; or a retry, due after a delay growing with the
 * attempts but no later than a day after the first; or, a day after the first, given up.
 */
export function afterAttempt(
  delivery: Pick<WebhookDeliveryTable, "attempts" | "first_attempt_at">,
  attempt: Attempt,
  now: Date,
): Pick<
  WebhookDeliveryTable,
  | "status"
  | "attempts"
  | "first_attempt_at"
  | "last_attempt_at"
  | "last_status_code"
  | "last_duration_ms"
  | "last_error"
  | "next_attempt_at"
> {
  const attempts = delivery.attempts + 1;
  const first = delivery.first_attempt_at ?? attempt.at;
  const columns = {
    attempts,
    first_attempt_at: first,
    last_attempt_at: attempt.at,
    last_status_code: attempt.statusCode ?? null,
    last_duration_ms: attempt.durationMs,
    last_error: attempt.error ?? null,
  };
  if (attempt.ok) return { ...columns, status: "success", next_attempt_at: null };
  const giveUpAt = new Date(first).getTime() + GIVE_UP_AFTER_MS;
  if (now.getTime() >= giveUpAt) return { ...columns, status: "failed", next_attempt_at: null };
  const delay = RETRY_DELAYS_MS[Math.min(attempts, RETRY_DELAYS_MS.length) - 1] ?? 0;
  return {
    ...columns,
    status: "pending",
    next_attempt_at: timestamp(new Date(Math.min(now.getTime() + delay, giveUpAt))),
  };
}
