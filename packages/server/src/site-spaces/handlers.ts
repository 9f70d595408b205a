import { badRequest, conflict, notFound } from "../http/errors.js";
import { presentPage } from "../http/paging.js";
import { noContent, ok } from "../http/results.js";
import type { AreaHandlers, Services } from "../services.js";
import {
  anchorOf,
  assertPathSegment,
  canChangeSiteStructure,
  checkedCondition,
  placeInOrder,
  renumber,
  type SiteStructure,
  siteHandling,
} from "../sites/index.js";
import { presentSiteSpace, type SitePresentation } from "./presenter.js";
import {
  containerRows,
  linkableSpace,
  linkSpace,
  listSiteSpaceIds,
  listSiteSpaceIdsByDefault,
  passDefaultOn,
} from "./store.js";

/** The site space of the structure with this id; 404 when the site has none (or its space is not shown). */
function siteSpaceIn(structure: SiteStructure, siteSpaceId: string) {
  const entry = structure.siteSpaces.find((e) => e.row.id === siteSpaceId);
  if (!entry) throw notFound("Site space");
  return entry;
}

/** Presents the site space `id` as stored after a change. */
function presentStored(structure: SiteStructure, id: string, presentation: SitePresentation) {
  return presentSiteSpace(siteSpaceIn(structure, id), structure, presentation);
}

export function siteSpaceHandlers(
  services: Services,
): AreaHandlers<
  "listSiteSpaces" | "addSpaceToSite" | "updateSiteSpaceById" | "deleteSiteSpaceById" | "moveSiteSpace"
> {
  const { db, ids } = services;
  const sites = siteHandling(services);
  const changeAction = "change the structure of this site";

  return {
    async listSiteSpaces({ path, query, caller }) {
      const member = await sites.site(path, caller);
      const args = { siteId: member.site.id };
      const page =
        query.default === undefined
          ? await listSiteSpaceIds(db, args, query)
          : await listSiteSpaceIdsByDefault(db, { ...args, isDefault: query.default ? 1 : 0 }, query);
      const [structure, presentation] = await Promise.all([
        sites.structure(member),
        sites.presentation(member, query.shareKey),
      ]);
      const entries = new Map(structure.siteSpaces.map((e) => [e.row.id, e]));
      return ok(
        presentPage({ ...page, rows: page.rows.flatMap((row) => entries.get(row.id) ?? []) }, (entry) =>
          presentSiteSpace(entry, structure, presentation),
        ),
      );
    },

    async addSpaceToSite({ path, body, caller }) {
      const member = await sites.site(path, caller);
      const { result: id, structure } = await sites.changeStructure(
        member,
        async ({ tx, structure, authorize }) => {
          const sectionId = body.sectionId ?? structure.sections.find((s) => s.is_default === 1)?.id ?? null;
          authorize(canChangeSiteStructure, changeAction);
          if (body.sectionId !== undefined && !structure.sections.some((s) => s.id === body.sectionId))
            throw badRequest(`Section "${body.sectionId}" does not exist in this site.`);
          const space = await linkableSpace(tx, member.site.organization_id, member.role, body.spaceId);
          const siblings = await containerRows(tx, member.site.id, sectionId);
          if (siblings.some((row) => row.space_id === space.id))
            throw conflict("The space is already in this part of the site.", "already_done");
          const row = await linkSpace(tx, {
            id: ids.next(),
            siteId: member.site.id,
            sectionId,
            space,
            now: sites.now(),
          });
          return row.id;
        },
      );
      const presentation = await sites.presentation(member);
      return sites.createdWithLocation(
        `orgs/${path.organizationId}/sites/${path.siteId}/site-spaces/${id}`,
        presentStored(structure, id, presentation),
      );
    },

    async updateSiteSpaceById({ path, body, caller }) {
      const member = await sites.site(path, caller);
      const { structure } = await sites.changeStructure(member, async ({ tx, structure, authorize }) => {
        const { row } = siteSpaceIn(structure, path.siteSpaceId);
        authorize(canChangeSiteStructure, changeAction);
        const condition = checkedCondition(body.condition);
        if (body.path !== undefined && body.path !== row.path) {
          assertPathSegment(body.path);
          const siblings = await containerRows(tx, row.site_id, row.section_id);
          if (siblings.some((s) => s.path === body.path))
            throw conflict(
              `The path "${body.path}" is already taken in this part of the site.`,
              "path_taken",
            );
        }
        const changes = {
          ...(body.path !== undefined && { path: body.path }),
          ...(condition !== undefined && { condition }),
        };
        if (Object.keys(changes).length > 0)
          await tx
            .updateTable("site_spaces")
            .set({ ...changes, updated_at: sites.now() })
            .where("id", "=", row.id)
            .execute();
      });
      return ok(presentStored(structure, path.siteSpaceId, await sites.presentation(member)));
    },

    async deleteSiteSpaceById({ path, caller }) {
      const member = await sites.site(path, caller);
      await sites.changeStructure(member, async ({ tx, structure, authorize }) => {
        const { row } = siteSpaceIn(structure, path.siteSpaceId);
        authorize(canChangeSiteStructure, changeAction);
        await tx.deleteFrom("site_spaces").where("id", "=", row.id).execute();
        await passDefaultOn(tx, row);
      });
      return noContent();
    },

    async moveSiteSpace({ path, body, caller }) {
      const member = await sites.site(path, caller);
      const { structure } = await sites.changeStructure(member, async ({ tx, structure, authorize }) => {
        const { row } = siteSpaceIn(structure, path.siteSpaceId);
        authorize(canChangeSiteStructure, changeAction);
        const anchor = anchorOf(body.position);
        const siblings = await containerRows(tx, row.site_id, row.section_id);
        const order = placeInOrder(
          siblings.map((s) => s.id),
          row.id,
          anchor && { key: anchor.pointer.siteSpace, before: anchor.before },
        );
        await renumber(
          tx,
          order.map((id) => ({ table: "site_spaces" as const, id })),
        );
      });
      return ok(presentStored(structure, path.siteSpaceId, await sites.presentation(member)));
    },
  };
}
