import type { AccessMap, AreaHandlers } from "../area.js";
import { toJson } from "../db/codecs.js";
import { notFound } from "../http/errors.js";
import { presentPage } from "../http/paging.js";
import { created, noContent, ok } from "../http/results.js";
import { onOrganization } from "../organizations/index.js";
import type { Services } from "../services.js";
import { canManageTranslations } from "./policy.js";
import { presentTranslationSettings } from "./presenter.js";
import {
  deleteTranslationSettings,
  findTranslationSettings,
  insertTranslationSettings,
  listTranslationSettings,
  updateTranslationSettings,
} from "./store.js";

/** Translation settings are for organization admins alone: 404 to non-members, 403 below admin. */
const admins = (action: string) => onOrganization(action, ({ role }) => canManageTranslations(role));

export const translationAccess = {
  listTranslations: admins("list translation settings"),
  createTranslation: admins("create translation settings"),
  getTranslation: admins("view translation settings"),
  updateTranslation: admins("change translation settings"),
  deleteTranslation: admins("delete translation settings"),
} satisfies AccessMap;

export function translationHandlers(services: Services): AreaHandlers<typeof translationAccess> {
  const { db, urls, ids, now } = services;

  return {
    async listTranslations({ path, query }, { role }) {
      const page = await listTranslationSettings(db, { organizationId: path.organizationId }, query);
      return ok(presentPage(page, (row) => presentTranslationSettings(row, role, urls)));
    },

    async createTranslation({ path, body }, { role }) {
      const at = now();
      const settings = await insertTranslationSettings(db, {
        id: ids.next(),
        organization_id: path.organizationId,
        title: body.title,
        languages: toJson(body.languages ?? []),
        created_at: at,
        updated_at: at,
      });
      return created(presentTranslationSettings(settings, role, urls));
    },

    async getTranslation({ path }, { role }) {
      const settings = await findTranslationSettings(db, path.organizationId, path.translationSettingsId);
      if (!settings) throw notFound("Translation settings");
      return ok(presentTranslationSettings(settings, role, urls));
    },

    async updateTranslation({ path, body }, { role }) {
      const changes = {
        title: body.title,
        ...(body.languages !== undefined && { languages: toJson(body.languages) }),
      };
      const settings = await updateTranslationSettings(
        db,
        path.organizationId,
        path.translationSettingsId,
        changes,
        now(),
      );
      if (!settings) throw notFound("Translation settings");
      return ok(presentTranslationSettings(settings, role, urls));
    },

    async deleteTranslation({ path }) {
      const deleted = await deleteTranslationSettings(db, path.organizationId, path.translationSettingsId);
      if (!deleted) throw notFound("Translation settings");
      return noContent();
    },
  };
}
