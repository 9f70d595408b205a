import { type AccessRule, accessRule, pathParameter } from "../area.js";
import type { OrganizationRole } from "../policy.js";
import { webhookForCaller } from "./store.js";
import type { WebhookTable } from "./tables.js";

/** The webhook a path names, with the caller's role in its organization. */
export interface MemberWebhook {
  webhook: WebhookTable;
  role: OrganizationRole;
}

/**
 * The access rule of an operation on the webhook `webhookId` of the organization `organizationId`:
 * 404 unless the caller is in the organization and the webhook in it, 403 naming `action` unless
 * `allows` their standing there.
 */
export function onWebhook(
  action: string,
  allows: (standing: MemberWebhook) => boolean,
): AccessRule<MemberWebhook> {
  return accessRule(
    "webhook",
    action,
    async ({ db }, caller, path) => {
      const { webhook, callerRole } = await webhookForCaller(db, {
        organizationId: pathParameter(path, "organizationId"),
        webhookId: pathParameter(path, "webhookId"),
        callerId: caller.user.id,
      });
      return { webhook, role: callerRole ?? null };
    },
    allows,
  );
}
