import type { Schema } from "@quire/api-types";
import { membershipOfPage } from "../access.js";
import { badRequest, conflict } from "../http/errors.js";
import { presentPage } from "../http/paging.js";
import { created, noContent, ok } from "../http/results.js";
import { organizationForCaller, organizationRoleOf } from "../organizations/index.js";
import { authorize } from "../policy.js";
import type { AreaHandlers, Services } from "../services.js";
import { canEditSpecs, canViewSpecs } from "./policy.js";
import { presentSpec } from "./presenter.js";
import { deleteSpec, insertSpec, listSpecs, replaceSource, type SpecSource, specForCaller } from "./store.js";

/** `OpenAPISpecSlug` of the contract, checked here for the PUT path, which takes any text. */
const isSlug = (slug: string) => slug.length <= 100 && /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(slug);

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

export function openApiSpecHandlers(
  services: Services,
): AreaHandlers<
  | "listOpenAPISpecs"
  | "createOpenAPISpec"
  | "getOpenAPISpecBySlug"
  | "createOrUpdateOpenAPISpecBySlug"
  | "deleteOpenAPISpecBySlug"
> {
  const { db, urls } = services;
  /** The caller's role once it allows changing the organization's specifications (403 otherwise). */
  const editorRole = async (organizationId: string, userId: string, action: string) => {
    const { role } = await organizationForCaller(db, organizationId, userId);
    authorize(canEditSpecs(role), action);
    return role;
  };
  const callerSpec = (path: { organizationId: string; specSlug: string }, userId: string) =>
    specForCaller(db, { organizationId: path.organizationId, slug: path.specSlug, userId });

  return {
    async listOpenAPISpecs({ path, query, caller }) {
      const args = { organizationId: path.organizationId, userId: caller.user.id };
      const page = await listSpecs(db, args, query);
      const role = await membershipOfPage(page, () => organizationRoleOf(db, args));
      authorize(canViewSpecs(role), "list the OpenAPI specifications of this organization");
      return ok(presentPage(page, (spec) => presentSpec(spec, role, urls)));
    },

    async createOpenAPISpec({ path, body, caller }) {
      const role = await editorRole(path.organizationId, caller.user.id, "add OpenAPI specifications");
      const source = sourceOf(body.source);
      const spec = await db
        .transaction()
        .execute((tx) => insertSpec(tx, services, path.organizationId, body.slug, source));
      if (!spec)
        throw conflict(`An OpenAPI specification with the slug "${body.slug}" already exists.`, "slug_taken");
      return created(presentSpec(spec, role, urls));
    },

    async getOpenAPISpecBySlug({ path, caller }) {
      const { spec, role } = await callerSpec(path, caller.user.id);
      authorize(canViewSpecs(role), "view this OpenAPI specification");
      return ok(presentSpec(spec, role, urls));
    },

    async createOrUpdateOpenAPISpecBySlug({ path, body, caller }) {
      const { organizationId, specSlug } = path;
      const role = await editorRole(organizationId, caller.user.id, "add or change OpenAPI specifications");
      if (!isSlug(specSlug))
        throw badRequest(
          "A slug is at most 100 lowercase letters and digits, in words joined by single hyphens.",
        );
      const source = sourceOf(body.source);
      const put = await db.transaction().execute(async (tx) => {
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

    async deleteOpenAPISpecBySlug({ path, caller }) {
      const { spec, role } = await callerSpec(path, caller.user.id);
      authorize(canEditSpecs(role), "delete this OpenAPI specification");
      await deleteSpec(db, spec.id);
      return noContent();
    },
  };
}
