import type { Schema } from "@quire/api-types";
import type { AccessMap, AreaHandlers } from "../area.js";
import { badRequest, conflict } from "../http/errors.js";
import { presentPage } from "../http/paging.js";
import { created, noContent, ok } from "../http/results.js";
import { onOrganization } from "../organizations/index.js";
import type { Services } from "../services.js";
import { onSpec } from "./access.js";
import { canEditSpecs, canViewSpecs } from "./policy.js";
import { presentSpec } from "./presenter.js";
import { deleteSpec, insertSpec, listSpecs, replaceSource, type SpecSource } from "./store.js";

/** `OpenAPISpecSlug` of the contract, checked here for the PUT path, which takes any text. */
/** The contract's `OpenAPISpecSlug`, checked by hand where the path takes any text (see the spec). */
const isSlug = (slug: string) => slug.length <= 100 && /^[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*$/.test(slug);

/** The stored form of a source; 400 for both kinds at once or a URL that is not http(s). */
function sourceOf(source: Schema<"OpenAPISpecSource">): SpecSource {
  if ("url" in source && "text" in source)
    throw badRequest("Give the source as `url` or as `text`, not both.");
  if ("text" in source) return { source_url: null, source_text: source.text };
  const protocol = URL.parse(source.url)?.protocol;
  if (protocol !== "http:" && protocol !== "https:")
    throw badRequest("The source URL must be an http or https URL.");
  return { source_url: source.url, source_text: null };
}

/** Changing the organization's specifications: its members who create content. */
const editors = (action: string) => onOrganization(action, ({ role }) => canEditSpecs(role));

export const openApiSpecAccess = {
  listOpenAPISpecs: onOrganization("list the OpenAPI specifications of this organization", ({ role }) =>
    canViewSpecs(role),
  ),
  createOpenAPISpec: editors("add OpenAPI specifications"),
  getOpenAPISpecBySlug: onSpec("view this OpenAPI specification", ({ role }) => canViewSpecs(role)),
  createOrUpdateOpenAPISpecBySlug: editors("add or change OpenAPI specifications"),
  deleteOpenAPISpecBySlug: onSpec("delete this OpenAPI specification", ({ role }) => canEditSpecs(role)),
} satisfies AccessMap;

export function openApiSpecHandlers(services: Services): AreaHandlers<typeof openApiSpecAccess> {
  const { db, urls, transaction } = services;

  return {
    async listOpenAPISpecs({ path, query, caller }, { role }) {
      const args = { organizationId: path.organizationId, userId: caller.user.id };
      const page = await listSpecs(db, args, query);
      return ok(presentPage(page, (spec) => presentSpec(spec, role, urls)));
    },

    async createOpenAPISpec({ path, body }, { role }) {
      const source = sourceOf(body.source);
      const spec = await transaction((tx) =>
        insertSpec(tx, services, path.organizationId, body.slug, source),
      );
      if (!spec)
        throw conflict(`An OpenAPI specification with the slug "${body.slug}" already exists.`, "slug_taken");
      return created(presentSpec(spec, role, urls));
    },

    async getOpenAPISpecBySlug(_input, { spec, role }) {
      return ok(presentSpec(spec, role, urls));
    },

    async createOrUpdateOpenAPISpecBySlug({ path, body }, { role }) {
      const { organizationId, specSlug } = path;
      if (!isSlug(specSlug))
        throw badRequest("A slug is at most 100 letters and digits, in words joined by single hyphens.");
      const source = sourceOf(body.source);
      const put = await transaction(async (tx) => {
        // A concurrent PUT may create the slug between the two statements: the next round replaces it.
        for (;;) {
          const replaced = await replaceSource(tx, services, organizationId, specSlug, source);
          if (replaced) return { spec: replaced, isNew: false };
          const inserted = await insertSpec(tx, services, organizationId, specSlug, source);
          if (inserted) return { spec: inserted, isNew: true };
        }
      });
      const presented = presentSpec(put.spec, role, urls);
      return put.isNew ? created(presented) : ok(presented);
    },

    async deleteOpenAPISpecBySlug(_input, { spec }) {
      await deleteSpec(db, spec.id);
      return noContent();
    },
  };
}
