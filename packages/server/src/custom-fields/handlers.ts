import type { AccessMap, AreaHandlers } from "../area.js";
import { badRequest, conflict } from "../http/errors.js";
import { presentPage } from "../http/paging.js";
import { created, noContent, ok } from "../http/results.js";
import { onOrganization } from "../organizations/index.js";
import type { Services } from "../services.js";
import { assertSpaceNotDeleted, canManageSpace, onSpace } from "../spaces/index.js";
import { onCustomField } from "./access.js";
import { canManageCustomFields, canViewCustomFields } from "./policy.js";
import { presentCustomField, presentCustomFieldFor, presentSpaceValueFor } from "./presenter.js";
import {
  customFieldExists,
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

const managesField = onCustomField(MANAGE, ({ role }) => canManageCustomFields(role));

export const customFieldAccess = {
  listOrganizationCustomFields: onOrganization(VIEW, ({ role }) => canViewCustomFields(role)),
  createOrganizationCustomField: onOrganization(MANAGE, ({ role }) => canManageCustomFields(role)),
  getOrganizationCustomFieldByName: onCustomField(VIEW, ({ role }) => canViewCustomFields(role)),
  updateOrganizationCustomField: managesField,
  deleteOrganizationCustomField: managesField,
  getSpaceCustomFields: onSpace("see the custom fields of this space"),
  updateSpaceCustomFields: onSpace("set the custom fields of this space", ({ role }) => canManageSpace(role)),
} satisfies AccessMap;

export function customFieldHandlers(services: Services): AreaHandlers<typeof customFieldAccess> {
  const { db, urls, ids, now, transaction } = services;

  return {
    async listOrganizationCustomFields({ path, query, caller }, { role }) {
      const args = { organizationId: path.organizationId, userId: caller.user.id };
      const page = await listCustomFields(db, args, query);
      return ok(presentPage(page, presentCustomFieldFor(role, urls)));
    },

    async createOrganizationCustomField({ body }, { organization, role }) {
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

    async getOrganizationCustomFieldByName(_input, { field, role }) {
      return ok(presentCustomField(field, role, urls));
    },

    async updateOrganizationCustomField({ body }, { field, role }) {
      const changes = {
        ...(body.title !== undefined && { title: body.title }),
        ...(body.description !== undefined && { description: body.description }),
        ...(body.placeholder !== undefined && { placeholder: body.placeholder }),
        ...(body.options !== undefined && { options: checkOptions(field.type, body.options) }),
      };
      const updated = await transaction((tx) => updateCustomField(tx, field, changes, now()));
      return ok(presentCustomField(updated, role, urls));
    },

    async deleteOrganizationCustomField(_input, { field }) {
      await deleteCustomField(db, field);
      return noContent();
    },

    async getSpaceCustomFields(_input, { space, organizationRole }) {
      const rows = await customFieldsOfSpace(db, {
        organizationId: space.organization_id,
        spaceId: space.id,
      });
      return ok(rows.map(presentSpaceValueFor(organizationRole, urls)));
    },

    async updateSpaceCustomFields({ body }, { space }) {
      const entries = Object.entries(body.values);
      await transaction(async (tx) => {
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
