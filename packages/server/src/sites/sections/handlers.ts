import type { Schema } from "@quire/api-types";
import type { AccessMap, AreaHandlers } from "../../area.js";
import { flag, isSet } from "../../db/codecs.js";
import type { Db } from "../../db/database.js";
import { badRequest, conflict, notFound } from "../../http/errors.js";
import { noContent, ok } from "../../http/results.js";
import type { Services } from "../../services.js";
import { arrangesSite, readsSite } from "../access.js";
import { type SitePath, siteHandling } from "../context.js";
import { newSpaceFor, refuseTemplate } from "../new-space.js";
import { linkableSpace, setDefaultSiteSpace } from "../site-spaces/store.js";
import { type MemberSite, updateRow } from "../store.js";
import {
  anchorOf,
  pathAndCondition,
  placeInOrder,
  refuseLocalizedText,
  renumber,
  type SiteStructure,
  siteSpacesIn,
  topEnd,
  topItemsOf,
  topKey,
} from "../structure.js";
import type { SiteSectionTable } from "../tables.js";
import { presentSection, presentSectionGroup } from "./presenter.js";
import {
  addSection,
  groupEnd,
  groupIn,
  listGroupIds,
  listSectionIds,
  sectionIn,
  setDefaultSection,
} from "./store.js";

/** The site's top level as keys, in order. */
const topKeys = (structure: SiteStructure) => structure.top.map(topKey);

/** The title, icon (null removes it) and draft state a request body sets on a section or a section group. */
const titleIconAndDraft = (body: { title?: string; icon?: string | null; draft?: boolean }) => ({
  ...(body.title !== undefined && { title: body.title }),
  ...(body.icon !== undefined && { icon: body.icon }),
  ...(body.draft !== undefined && { draft: flag(body.draft) }),
});

/** The group a request body names (`siteSectionGroupId`): 400 when the site has none with that id. */
function namedGroup(structure: SiteStructure, groupId: string) {
  const group = structure.groups.get(groupId);
  if (!group) throw badRequest(`Section group "${groupId}" does not exist in this site.`);
  return group;
}

/** 400 for a parent group: Quire's section groups all sit at the site's top level. */
function refuseParentGroup(field: string, parent: string | null | undefined) {
  if (typeof parent === "string")
    throw badRequest(
      `${field} cannot be set: Quire does not nest section groups, they sit at the site's top level.`,
    );
}

/**
 * Where `siteSectionGroupId` moves a section: into the end of the group it names (400 when the site
 * has none), or with null to the end of the site's top level; nothing when it is there already.
 */
function grouping(structure: SiteStructure, section: SiteSectionTable, groupId: string | null | undefined) {
  if (groupId === undefined || groupId === section.group_id) return {};
  if (groupId === null) return { group_id: null, position: topEnd(structure) };
  return { group_id: namedGroup(structure, groupId).id, position: groupEnd(structure, groupId) };
}

/** The sections of a group, in order. */
const sectionsOf = (structure: SiteStructure, groupId: string) =>
  structure.sections.filter((s) => s.group_id === groupId);

export const sectionAccess = {
  listSiteSections: readsSite,
  // The space a new section shows must be one the caller can read (400 otherwise).
  addSectionToSite: arrangesSite,
  updateSiteSectionById: arrangesSite,
  deleteSiteSectionById: arrangesSite,
  moveSiteSection: arrangesSite,
  listSiteSectionGroups: readsSite,
  addSectionGroupToSite: arrangesSite,
  updateSiteSectionGroupById: arrangesSite,
  deleteSiteSectionGroupById: arrangesSite,
  addSectionToGroup: arrangesSite,
  removeSectionFromGroup: arrangesSite,
  moveSiteSectionGroup: arrangesSite,
} satisfies AccessMap;

export function siteSectionHandlers(services: Services): AreaHandlers<typeof sectionAccess> {
  const { db, ids } = services;
  const sites = siteHandling(services);
  const sectionLocation = (path: SitePath, id: string) =>
    `orgs/${path.organizationId}/sites/${path.siteId}/sections/${id}`;
  const groupLocation = (path: SitePath, id: string) =>
    `orgs/${path.organizationId}/sites/${path.siteId}/section-groups/${id}`;

  const changeSection = sites.itemChange(sectionIn);
  const changeGroup = sites.itemChange(groupIn);

  /** The section `id` of the structure as stored after a change. */
  const storedSection = async (member: MemberSite, structure: SiteStructure, id: string) =>
    presentSection(sectionIn(structure, id), structure, await sites.presentation(member));

  /** The group `id` of the structure as stored after a change. */
  const storedGroup = async (member: MemberSite, structure: SiteStructure, id: string) =>
    presentSectionGroup(groupIn(structure, id), structure, await sites.presentation(member));

  /** Sections leave their group; the caller renumbers the top level they return to. */
  async function takeOutOfGroup(tx: Db, sections: readonly SiteSectionTable[]) {
    for (const section of sections)
      await tx.updateTable("site_sections").set({ group_id: null }).where("id", "=", section.id).execute();
  }

  return {
    async listSiteSections({ query }, member) {
      const page = await listSectionIds(db, { siteId: member.site.id }, query);
      const byId = (structure: SiteStructure) => new Map(structure.sections.map((s) => [s.id, s]));
      return ok(await sites.presentPageOf(member, page, byId, presentSection, query.shareKey));
    },

    async addSectionToSite({ path, body }, member) {
      if (body.spaceId === null) refuseTemplate(body.template);
      if (body.pageId !== undefined)
        throw badRequest(
          "pageId cannot be set: Quire has no custom home pages, a section opens on its space's first page.",
        );
      const { spaceId } = body;
      const { result: id, structure } = await sites.changeStructure(
        member,
        async ({ tx, structure }) => {
          const group =
            body.siteSectionGroupId === undefined
              ? undefined
              : namedGroup(structure, body.siteSectionGroupId);
          const { organization_id } = member.site;
          // GitBook's null space: a new space for the section, titled as it.
          const space =
            spaceId === null
              ? await newSpaceFor(tx, services, organization_id, member.role, body.title ?? "Untitled")
              : await linkableSpace(tx, organization_id, member.role, spaceId);
          const section = await addSection(tx, structure, {
            space,
            title: body.title ?? space.title,
            now: sites.now(),
            nextId: () => ids.next(),
            ...(body.icon !== undefined && { icon: body.icon }),
            ...(body.draft !== undefined && { draft: body.draft }),
            ...(group !== undefined && { group }),
          });
          return section.id;
        },
        { createsSpace: spaceId === null },
      );
      return sites.createdWithLocation(sectionLocation(path, id), await storedSection(member, structure, id));
    },

    async updateSiteSectionById({ path, body }, member) {
      refuseLocalizedText({
        localizedTitle: body.localizedTitle,
        localizedDescription: body.localizedDescription,
      });
      const { structure } = await changeSection(
        member,
        path.siteSectionId,
        async (section, { tx, structure }) => {
          const placement = await pathAndCondition(
            body,
            section,
            async () => structure.sections,
            "by another section of the site",
          );
          if (body.defaultSiteSpace !== undefined) {
            if (!siteSpacesIn(structure, section.id).some((e) => e.row.id === body.defaultSiteSpace))
              throw badRequest(`Site space "${body.defaultSiteSpace}" is not in this section.`);
            await setDefaultSiteSpace(tx, section.site_id, section.id, body.defaultSiteSpace);
          }
          const changes = {
            ...placement,
            ...titleIconAndDraft(body),
            ...(body.description !== undefined && { description: body.description }),
            ...grouping(structure, section, body.siteSectionGroupId),
          };
          await updateRow(tx, "site_sections", section.id, changes, sites.now());
        },
      );
      return ok(await storedSection(member, structure, path.siteSectionId));
    },

    async deleteSiteSectionById({ path }, member) {
      await changeSection(member, path.siteSectionId, async (section, { tx, structure }) => {
        // Its site spaces go with it (by cascade); the spaces themselves stay.
        await tx.deleteFrom("site_sections").where("id", "=", section.id).execute();
        const next = structure.sections.find((s) => s.id !== section.id);
        if (isSet(section.is_default) && next) await setDefaultSection(tx, section.site_id, next.id);
      });
      return noContent();
    },

    async moveSiteSection({ path, body }, member) {
      const { structure } = await changeSection(
        member,
        path.siteSectionId,
        async (section, { tx, structure }) => {
          if (section.group_id === null) {
            const order = placeInOrder(
              topKeys(structure),
              topKey({ kind: "site-section", id: section.id }),
              anchorOf(body.position, (pointer) => topKey({ kind: "site-section", id: pointer.siteSection })),
            );
            await renumber(tx, topItemsOf(order));
          } else {
            const order = placeInOrder(
              sectionsOf(structure, section.group_id).map((s) => s.id),
              section.id,
              anchorOf(body.position, (pointer) => pointer.siteSection),
            );
            await renumber(
              tx,
              order.map((id) => ({ table: "site_sections" as const, id })),
            );
          }
        },
      );
      return ok(await storedSection(member, structure, path.siteSectionId));
    },

    async listSiteSectionGroups({ query }, member) {
      const page = await listGroupIds(db, { siteId: member.site.id }, query);
      return ok(
        await sites.presentPageOf(member, page, (structure) => structure.groups, presentSectionGroup),
      );
    },

    async addSectionGroupToSite({ path, body }, member) {
      refuseParentGroup("parent", body.parent);
      const { result: id, structure } = await sites.changeStructure(member, async ({ tx, structure }) => {
        const members = [...new Set(body.sections ?? [])].map((sectionId) => {
          const section = structure.sections.find((s) => s.id === sectionId);
          if (!section) throw badRequest(`Section "${sectionId}" does not exist in this site.`);
          if (section.group_id !== null) throw badRequest(`Section "${sectionId}" is already in a group.`);
          return section;
        });
        const now = sites.now();
        const group = {
          id: ids.next(),
          site_id: member.site.id,
          title: body.title,
          icon: body.icon ?? null,
          draft: flag(body.draft ?? false),
          position: topEnd(structure),
          created_at: now,
          updated_at: now,
        };
        await tx.insertInto("site_section_groups").values(group).execute();
        for (const [position, section] of members.entries())
          await tx
            .updateTable("site_sections")
            .set({ group_id: group.id, position })
            .where("id", "=", section.id)
            .execute();
        return group.id;
      });
      return sites.createdWithLocation(groupLocation(path, id), await storedGroup(member, structure, id));
    },

    async updateSiteSectionGroupById({ path, body }, member) {
      refuseLocalizedText({ localizedTitle: body.localizedTitle });
      refuseParentGroup("parentSectionGroupId", body.parentSectionGroupId);
      const { structure } = await changeGroup(member, path.siteSectionGroupId, async (group, { tx }) => {
        await updateRow(tx, "site_section_groups", group.id, titleIconAndDraft(body), sites.now());
      });
      return ok(await storedGroup(member, structure, path.siteSectionGroupId));
    },

    async deleteSiteSectionGroupById({ path }, member) {
      await changeGroup(member, path.siteSectionGroupId, async (group, { tx, structure }) => {
        // Its sections take the group's place at the top level, in the group's order.
        const inGroup = sectionsOf(structure, group.id);
        const order = topKeys(structure).flatMap((key) =>
          key === topKey({ kind: "site-section-group", id: group.id })
            ? inGroup.map((s) => topKey({ kind: "site-section", id: s.id }))
            : [key],
        );
        await takeOutOfGroup(tx, inGroup);
        await renumber(tx, topItemsOf(order));
        await tx.deleteFrom("site_section_groups").where("id", "=", group.id).execute();
      });
      return noContent();
    },

    async addSectionToGroup({ path, body }, member) {
      const { structure } = await changeGroup(
        member,
        path.siteSectionGroupId,
        async (group, { tx, structure }) => {
          const section = structure.sections.find((s) => s.id === body.sectionId);
          if (!section) throw badRequest(`Section "${body.sectionId}" does not exist in this site.`);
          if (section.group_id !== null) throw conflict("The section is already in a group.");
          const last = sectionsOf(structure, group.id).at(-1);
          await tx
            .updateTable("site_sections")
            .set({ group_id: group.id, position: (last?.position ?? -1) + 1 })
            .where("id", "=", section.id)
            .execute();
        },
      );
      return sites.createdWithLocation(
        groupLocation(path, path.siteSectionGroupId),
        await storedGroup(member, structure, path.siteSectionGroupId),
      );
    },

    async removeSectionFromGroup({ path }, member) {
      const sectionInGroup = sites.itemChange((structure, sectionId) => {
        const group = groupIn(structure, path.siteSectionGroupId);
        const section = sectionsOf(structure, group.id).find((s) => s.id === sectionId);
        if (!section) throw notFound("Site section in this group");
        return { group, section };
      });
      await sectionInGroup(member, path.siteSectionId, async ({ group, section }, { tx, structure }) => {
        // The section goes back to the top level right after its group.
        const order = placeInOrder(topKeys(structure), topKey({ kind: "site-section", id: section.id }), {
          key: topKey({ kind: "site-section-group", id: group.id }),
          before: false,
        });
        await takeOutOfGroup(tx, [section]);
        await renumber(tx, topItemsOf(order));
      });
      return noContent();
    },

    async moveSiteSectionGroup({ path, body }, member) {
      const { structure } = await changeGroup(
        member,
        path.siteSectionGroupId,
        async (group, { tx, structure }) => {
          const order = placeInOrder(
            topKeys(structure),
            topKey({ kind: "site-section-group", id: group.id }),
            anchorOf(body.position, (pointer: Schema<"SiteSectionGroupPointer">) =>
              topKey({ kind: pointer.type, id: pointer.id }),
            ),
          );
          await renumber(tx, topItemsOf(order));
        },
      );
      return ok(await storedGroup(member, structure, path.siteSectionGroupId));
    },
  };
}
