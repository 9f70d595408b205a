import { membershipOfPage } from "../access.js";
import { badRequest, conflict } from "../http/errors.js";
import { presentPage } from "../http/paging.js";
import { created, noContent, ok } from "../http/results.js";
import { organizationForCaller, organizationRoleOf } from "../organizations/index.js";
import { authorize, type OrganizationRole } from "../policy.js";
import type { AreaHandlers, Services } from "../services.js";
import { assertSpaceNotDeleted, canManageSpace, spaceForCaller } from "../spaces/index.js";
import { canManageCustomFields, canViewCustomFields } from "./policy.js";
import { presentCustomField, presentCustomFieldFor, presentSpaceValueFor } from "./presenter.js";
import {
  customFieldExists,
  customFieldForCaller,
  customFieldsNamed,
  customFieldsOfSpace,
  deleteCustomField,
  insertCustomField,
  listCustomFields,
  setSpaceValues,
  updateCustomField,
} from "./store.js";
import { checkOptions, checkValue } from "./values.js";

const MANAGE = "manage the custom fields of this organization";
const VIEW = "view the custom fields of this organization";

export function customFieldHandlers(
  services: Services,
): AreaHandlers<
  | "listOrganizationCustomFields"
  | "createOrganizationCustomField"
  | "getOrganizationCustomFieldByName"
  | "updateOrganizationCustomField"
  | "deleteOrganizationCustomField"
  | "getSpaceCustomFields"
  | "updateSpaceCustomFields"
> {
  const { db, urls, ids, clock, now } = services;
  /** The field, once the caller's organization role allows `allowed` (403 otherwise). */
  const fieldFor = async (
    path: { organizationId: string; fieldName: string },
    userId: string,
    allowed: (role: OrganizationRole) => boolean,
    action: string,
  ) => {
    const member = await customFieldForCaller(db, path.organizationId, path.fieldName, userId);
    authorize(allowed(member.role), action);
    return member;
  };

  return {
    async listOrganizationCustomFields({ path, query, caller }) {
      const args = { organizationId: path.organizationId, userId: caller.user.id };
      const page = await listCustomFields(db, args, query);
      const role = await membershipOfPage(page, () => organizationRoleOf(db, args));
      authorize(canViewCustomFields(role), VIEW);
      return ok(presentPage(page, presentCustomFieldFor(role, urls)));
    },

    async createOrganizationCustomField({ path, body, caller }) {
      const { organization, role } = await organizationForCaller(db, path.organizationId, caller.user.id);
      authorize(canManageCustomFields(role), MANAGE);
      const options = checkOptions(body.type, body.options);
      // A concurrent create of the same name fails on the unique key instead, also with 409.
      if (await customFieldExists(db, organization.id, body.name))
        throw conflict(
          `A custom field named \`${body.name}\` already exists in this organization.`,
          "name_taken",
        );
      const field = await insertCustomField(db, {
        id: ids.next(),
        organization_id: organization.id,
        name: body.name,
        title: body.title ?? body.name,
        description: body.description ?? "",
        type: body.type,
        placeholder: body.placeholder ?? "",
        options,
        created_at: now(),
        updated_at: now(),
      });
      return created(presentCustomField(field, role, urls));
    },

    async getOrganizationCustomFieldByName({ path, caller }) {
      const { field, role } = await fieldFor(path, caller.user.id, canViewCustomFields, VIEW);
      return ok(presentCustomField(field, role, urls));
    },

    async updateOrganizationCustomField({ path, body, caller }) {
      const { field, role } = await fieldFor(path, caller.user.id, canManageCustomFields, MANAGE);
      const changes = {
        ...(body.title !== undefined && { title: body.title }),
        ...(body.description !== undefined && { description: body.description }),
        ...(body.placeholder !== undefined && { placeholder: body.placeholder }),
        ...(body.options !== undefined && { options: checkOptions(field.type, body.options) }),
      };
      const updated = await db.transaction().execute((tx) => updateCustomField(tx, field, changes, now()));
      return ok(presentCustomField(updated, role, urls));
    },

    async deleteOrganizationCustomField({ path, caller }) {
      const { field } = await fieldFor(path, caller.user.id, canManageCustomFields, MANAGE);
      await deleteCustomField(db, field);
      return noContent();
    },

    async getSpaceCustomFields({ path, caller }) {
      const { space, organizationRole } = await spaceForCaller(db, path.spaceId, caller.user.id, clock.now());
      const rows = await customFieldsOfSpace(db, {
        organizationId: space.organization_id,
        spaceId: space.id,
      });
      return ok(rows.map(presentSpaceValueFor(organizationRole, urls)));
    },

    async updateSpaceCustomFields({ path, body, caller }) {
      const { space, role } = await spaceForCaller(db, path.spaceId, caller.user.id, clock.now());
      authorize(canManageSpace(role), "set the custom fields of this space");
      const entries = Object.entries(body.values);
      await db.transaction().execute(async (tx) => {
        const fields = await customFieldsNamed(
          tx,
          space.organization_id,
          entries.map(([name]) => name),
        );
        const byName = new Map(fields.map((field) => [field.name, field]));
        // Every value is checked before any is written: one that does not fit changes nothing.
        const values = entries.map(([name, { value }]) => {
          const field = byName.get(name);
          if (!field) throw badRequest(`The organization has no custom field named \`${name}\`.`);
          return { field, value: value === null ? null : checkValue(field, value) };
        });
        assertSpaceNotDeleted(space);
        await setSpaceValues(tx, space.id, values);
      });
      return noContent();
    },
  };
}
