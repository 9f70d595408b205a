import type { AccessMap, AreaHandlers } from "../../area.js";
import { flag, isSet } from "../../db/codecs.js";
import { badRequest, conflict, notFound } from "../../http/errors.js";
import { noContent, ok } from "../../http/results.js";
import type { Services } from "../../services.js";
import { arrangesSite, readsSite } from "../access.js";
import { siteHandling } from "../context.js";
import { newSpaceFor, refuseTemplate } from "../new-space.js";
import { updateRow } from "../store.js";
import { anchorOf, pathAndCondition, placeInOrder, renumber, type SiteStructure } from "../structure.js";
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

/** 400 for a custom home page: a site space opens on its space's first page (GitBook's `pageId: null`). */
function refusePageId(pageId: string | null | undefined) {
  if (typeof pageId === "string")
    throw badRequest(
      "pageId cannot be set: Quire has no custom home pages, a site space opens on its space's first page.",
    );
}

/** Presents the site space `id` as stored after a change. */
function presentStored(structure: SiteStructure, id: string, presentation: SitePresentation) {
  return presentSiteSpace(siteSpaceIn(structure, id), structure, presentation);
}

export const siteSpaceAccess = {
  listSiteSpaces: readsSite,
  // The space linked must be one the caller can read (400 otherwise).
  addSpaceToSite: arrangesSite,
  updateSiteSpaceById: arrangesSite,
  deleteSiteSpaceById: arrangesSite,
  moveSiteSpace: arrangesSite,
} satisfies AccessMap;

export function siteSpaceHandlers(services: Services): AreaHandlers<typeof siteSpaceAccess> {
  const { db, ids } = services;
  const sites = siteHandling(services);

  const changeSiteSpace = sites.itemChange(siteSpaceIn);

  return {
    async listSiteSpaces({ query }, member) {
      const args = { siteId: member.site.id };
      const page =
        query.default === undefined
          ? await listSiteSpaceIds(db, args, query)
          : await listSiteSpaceIdsByDefault(db, { ...args, isDefault: flag(query.default) }, query);
      const byId = (structure: SiteStructure) => new Map(structure.siteSpaces.map((e) => [e.row.id, e]));
      return ok(await sites.presentPageOf(member, page, byId, presentSiteSpace, query.shareKey));
    },

    async addSpaceToSite({ path, body }, member) {
      refusePageId(body.pageId);
      if (body.spaceId === null) refuseTemplate(body.template);
      const { spaceId } = body;
      const { result: id, structure } = await sites.changeStructure(
        member,
        async ({ tx, structure }) => {
          const sectionId = body.sectionId ?? structure.sections.find((s) => isSet(s.is_default))?.id ?? null;
          if (body.sectionId !== undefined && !structure.sections.some((s) => s.id === body.sectionId))
            throw badRequest(`Section "${body.sectionId}" does not exist in this site.`);
          const { organization_id } = member.site;
          // GitBook's null space: a new space for the site space, titled as it.
          const space =
            spaceId === null
              ? await newSpaceFor(tx, services, organization_id, member.role, body.title ?? "Untitled")
              : await linkableSpace(tx, organization_id, member.role, spaceId);
          const siblings = await containerRows(tx, member.site.id, sectionId);
          if (siblings.some((row) => row.space_id === space.id))
            throw conflict("The space is already in this part of the site.", "already_done");
          const row = await linkSpace(tx, {
            id: ids.next(),
            siteId: member.site.id,
            sectionId,
            space,
            now: sites.now(),
            ...(body.title !== undefined && { title: body.title }),
            ...(body.draft !== undefined && { draft: body.draft }),
          });
          return row.id;
        },
        { createsSpace: spaceId === null },
      );
      const presentation = await sites.presentation(member);
      return sites.createdWithLocation(
        `orgs/${path.organizationId}/sites/${path.siteId}/site-spaces/${id}`,
        presentStored(structure, id, presentation),
      );
    },

    async updateSiteSpaceById({ path, body }, member) {
      refusePageId(body.pageId);
      if (body.hidden === true)
        throw badRequest(
          "hidden cannot be true: Quire lists every live site space in the site's navigation; make it a draft (draft: true) to take it off the site.",
        );
      const { structure } = await changeSiteSpace(member, path.siteSpaceId, async ({ row }, { tx }) => {
        const siblings = () => containerRows(tx, row.site_id, row.section_id);
        const changes = await pathAndCondition(body, row, siblings, "in this part of the site");
        let spaceId: string | undefined;
        if (body.spaceId !== undefined && body.spaceId !== row.space_id) {
          spaceId = (await linkableSpace(tx, member.site.organization_id, member.role, body.spaceId)).id;
          if ((await siblings()).some((sibling) => sibling.space_id === spaceId))
            throw conflict("The space is already in this part of the site.", "already_done");
        }
        await updateRow(
          tx,
          "site_spaces",
          row.id,
          {
            ...changes,
            ...(spaceId !== undefined && { space_id: spaceId }),
            ...(body.draft !== undefined && { draft: flag(body.draft) }),
          },
          sites.now(),
        );
      });
      return ok(presentStored(structure, path.siteSpaceId, await sites.presentation(member)));
    },

    async deleteSiteSpaceById({ path }, member) {
      await changeSiteSpace(member, path.siteSpaceId, async ({ row }, { tx }) => {
        await tx.deleteFrom("site_spaces").where("id", "=", row.id).execute();
        await passDefaultOn(tx, row);
      });
      return noContent();
    },

    async moveSiteSpace({ path, body }, member) {
      const { structure } = await changeSiteSpace(member, path.siteSpaceId, async ({ row }, { tx }) => {
        const siblings = await containerRows(tx, row.site_id, row.section_id);
        const order = placeInOrder(
          siblings.map((s) => s.id),
          row.id,
          anchorOf(body.position, (pointer) => pointer.siteSpace),
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
