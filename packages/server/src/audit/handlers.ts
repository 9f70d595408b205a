import type { AccessMap, AreaHandlers } from "../area.js";
import { badRequest, notFound } from "../http/errors.js";
import { presentPage } from "../http/paging.js";
import { ok } from "../http/results.js";
import type { Services } from "../services.js";
import { readsAuditLog } from "./access.js";
import {
  presentActions,
  presentAuditEvent,
  presentAuditEventDetails,
  typeOfAuditAction,
} from "./presenter.js";
import { auditEventOf, listAuditEvents } from "./store.js";

export const auditAccess = {
  listOrganizationAuditEvents: readsAuditLog,
  getOrganizationAuditEvent: readsAuditLog,
  listOrganizationAuditEventActions: readsAuditLog,
} satisfies AccessMap;

/** A time of the query as stored (UTC, milliseconds), so that text comparison orders it right. */
const stored = (time: string | undefined) => (time === undefined ? undefined : new Date(time).toISOString());

export function auditHandlers(services: Services): AreaHandlers<typeof auditAccess> {
  const { db, urls } = services;

  return {
    async listOrganizationAuditEvents({ query }, { organization }) {
      const { action, actor, target, from, to, ...paging } = query;
      const type = action === undefined ? undefined : typeOfAuditAction(action);
      if (action !== undefined && type === undefined)
        throw badRequest(`\`action\` ${action} is no audit action (see listOrganizationAuditEventActions).`);
      const range = { from: stored(from), to: stored(to) };
      if (range.from !== undefined && range.to !== undefined && range.from > range.to)
        throw badRequest("`from` is after `to`.");
      const page = await listAuditEvents(db, organization.id, { type, actor, target, ...range }, paging);
      return ok(presentPage(page, (row) => presentAuditEvent(row, urls)));
    },

    async getOrganizationAuditEvent({ path }, { organization }) {
      const row = await auditEventOf(db, organization.id, path.auditEventId);
      if (!row) throw notFound("Audit event");
      return ok(presentAuditEventDetails(row, urls));
    },

    listOrganizationAuditEventActions() {
      return ok(presentActions());
    },
  };
}
