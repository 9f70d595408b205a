import { notFound } from "../http/errors.js";
import { presentPage } from "../http/paging.js";
import { created, noContent, ok } from "../http/results.js";
import { organizationForCaller } from "../organizations/index.js";
import { authorize } from "../policy.js";
import type { AreaHandlers, Services } from "../services.js";
import { canManageTranslations } from "./policy.js";
import { presentTranslationSettings } from "./presenter.js";
import {
  deleteTranslationSettings,
  findTranslationSettings,
  insertTranslationSettings,
  listTranslationSettings,
  updateTranslationSettings,
} from "./store.js";

export function translationHandlers(
  services: Services,
): AreaHandlers<
  "listTranslations" | "createTranslation" | "getTranslation" | "updateTranslation" | "deleteTranslation"
> {
  const { db, urls, ids, now } = services;
  /** The caller's organization role, once it allows managing translations: 404 to non-members, 403 below admin. */
  const adminRole = async (organizationId: string, userId: string, action: string) => {
    const { role } = await organizationForCaller(db, organizationId, userId);
    authorize(canManageTranslations(role), action);
    return role;
  };

  return {
    async listTranslations({ path, query, caller }) {
      const role = await adminRole(path.organizationId, caller.user.id, "list translation settings");
      const page = await listTranslationSettings(db, { organizationId: path.organizationId }, query);
      return ok(presentPage(page, (row) => presentTranslationSettings(row, role, urls)));
    },

    async createTranslation({ path, body, caller }) {
      const role = await adminRole(path.organizationId, caller.user.id, "create translation settings");
      const at = now();
      const settings = await insertTranslationSettings(db, {
        id: ids.next(),
        organization_id: path.organizationId,
        title: body.title,
        languages: JSON.stringify(body.languages ?? []),
        created_at: at,
        updated_at: at,
      });
      return created(presentTranslationSettings(settings, role, urls));
    },

    async getTranslation({ path, caller }) {
      const role = await adminRole(path.organizationId, caller.user.id, "view translation settings");
      const settings = await findTranslationSettings(db, path.organizationId, path.translationSettingsId);
      if (!settings) throw notFound("Translation settings");
      return ok(presentTranslationSettings(settings, role, urls));
    },

    async updateTranslation({ path, body, caller }) {
      const role = await adminRole(path.organizationId, caller.user.id, "change translation settings");
      const changes = {
        title: body.title,
        ...(body.languages !== undefined && { languages: JSON.stringify(body.languages) }),
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

    async deleteTranslation({ path, caller }) {
      await adminRole(path.organizationId, caller.user.id, "delete translation settings");
      const deleted = await deleteTranslationSettings(db, path.organizationId, path.translationSettingsId);
      if (!deleted) throw notFound("Translation settings");
      return noContent();
    },
  };
}
