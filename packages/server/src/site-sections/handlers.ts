import type { Schema } from "@quire/api-types";
import type { Db } from "../db/database.js";
import { badRequest, conflict, notFound } from "../http/errors.js";
import { presentPage } from "../http/paging.js";
import { noContent, ok } from "../http/results.js";
import type { AreaHandlers, Services } from "../services.js";
import { linkableSpace, setDefaultSiteSpace } from "../site-spaces/index.js";
import {
  anchorOf,
  assertPathSegment,
  canChangeSiteStructure,
  checkedCondition,
  placeInOrder,
  renumber,
  type SiteStructure,
  siteHandling,
  siteSpacesIn,
  topEnd,
  topItemsOf,
  topKey,
} from "../sites/index.js";
import { presentSection, presentSectionGroup } from "./presenter.js";
import { addSection, groupIn, listGroupIds, listSectionIds, sectionIn, setDefaultSection } from "./store.js";
import type { SiteSectionTable } from "./tables.js";

const CHANGE = "change the structure of this site";

/** The site's top level as keys, in order. */
const topKeys = (structure: SiteStructure) => structure.top.map(topKey);

/** The sections of a group, in order. */
const sectionsOf = (structure: SiteStructure, groupId: string) =>
  structure.sections.filter((s) => s.group_id === groupId);

export function siteSectionHandlers(
  services: Services,
): AreaHandlers<
  | "listSiteSections"
  | "addSectionToSite"
  | "updateSiteSectionById"
  | "deleteSiteSectionById"
  | "moveSiteSection"
  | "listSiteSectionGroups"
  | "addSectionGroupToSite"
  | "updateSiteSectionGroupById"
  | "deleteSiteSectionGroupById"
  | "addSectionToGroup"
  | "removeSectionFromGroup"
  | "moveSiteSectionGroup"
> {
  const { db, ids } = services;
  const sites = siteHandling(services);
  const sectionLocation = (path: { organizationId: string; siteId: string }, id: string) =>
    `orgs/${path.organizationId}/sites/${path.siteId}/sections/${id}`;
  const groupLocation = (path: { organizationId: string; siteId: string }, id: string) =>
    `orgs/${path.organizationId}/sites/${path.siteId}/section-groups/${id}`;

  /** Sections leave their group; the caller renumbers the top level they return to. */
  async function takeOutOfGroup(tx: Db, sections: readonly SiteSectionTable[]) {
    for (const section of sections)
      await tx.updateTable("site_sections").set({ group_id: null }).where("id", "=", section.id).execute();
  }

  return {
    async listSiteSections({ path, query, caller }) {
      const member = await sites.site(path, caller);
      const page = await listSectionIds(db, { siteId: member.site.id }, query);
      const [structure, presentation] = await Promise.all([
        sites.structure(member),
        sites.presentation(member, query.shareKey),
      ]);
      const sections = new Map(structure.sections.map((s) => [s.id, s]));
      return ok(
        presentPage({ ...page, rows: page.rows.flatMap((row) => sections.get(row.id) ?? []) }, (section) =>
          presentSection(section, structure, presentation),
        ),
      );
    },

    async addSectionToSite({ path, body, caller }) {
      const member = await sites.site(path, caller, canChangeSiteStructure, CHANGE);
      const { result: id, structure } = await sites.changeStructure(member, async ({ tx, structure }) => {
        const space = await linkableSpace(tx, member.site.organization_id, member.role, body.spaceId);
        const section = await addSection(tx, structure, {
          space,
          title: body.title ?? space.title,
          now: sites.now(),
          nextId: () => ids.next(),
        });
        return section.id;
      });
      const presentation = await sites.presentation(member);
      return sites.createdWithLocation(
        sectionLocation(path, id),
        presentSection(sectionIn(structure, id), structure, presentation),
      );
    },

    async updateSiteSectionById({ path, body, caller }) {
      const member = await sites.site(path, caller);
      const { structure } = await sites.changeStructure(member, async ({ tx, structure, authorize }) => {
        const section = sectionIn(structure, path.siteSectionId);
        authorize(canChangeSiteStructure, CHANGE);
        const condition = checkedCondition(body.condition);
        if (body.path !== undefined && body.path !== section.path) {
          assertPathSegment(body.path);
          if (structure.sections.some((s) => s.path === body.path))
            throw conflict(
              `The path "${body.path}" is already taken by another section of the site.`,
              "path_taken",
            );
        }
        if (body.defaultSiteSpace !== undefined) {
          if (!siteSpacesIn(structure, section.id).some((e) => e.row.id === body.defaultSiteSpace))
            throw badRequest(`Site space "${body.defaultSiteSpace}" is not in this section.`);
          await setDefaultSiteSpace(tx, member.site.id, section.id, body.defaultSiteSpace);
        }
        const changes = {
          ...(body.title !== undefined && { title: body.title }),
          ...(body.path !== undefined && { path: body.path }),
          ...(condition !== undefined && { condition }),
          ...(body.icon !== undefined && { icon: body.icon }),
          ...(body.description !== undefined && { description: body.description }),
        };
        if (Object.keys(changes).length > 0)
          await tx
            .updateTable("site_sections")
            .set({ ...changes, updated_at: sites.now() })
            .where("id", "=", section.id)
            .execute();
      });
      const presentation = await sites.presentation(member);
      return ok(presentSection(sectionIn(structure, path.siteSectionId), structure, presentation));
    },

    async deleteSiteSectionById({ path, caller }) {
      const member = await sites.site(path, caller);
      await sites.changeStructure(member, async ({ tx, structure, authorize }) => {
        const section = sectionIn(structure, path.siteSectionId);
        authorize(canChangeSiteStructure, CHANGE);
        // Its site spaces go with it (by cascade); the spaces themselves stay.
        await tx.deleteFrom("site_sections").where("id", "=", section.id).execute();
        const next = structure.sections.find((s) => s.id !== section.id);
        if (section.is_default === 1 && next) await setDefaultSection(tx, member.site.id, next.id);
      });
      return noContent();
    },

    async moveSiteSection({ path, body, caller }) {
      const member = await sites.site(path, caller);
      const { structure } = await sites.changeStructure(member, async ({ tx, structure, authorize }) => {
        const section = sectionIn(structure, path.siteSectionId);
        authorize(canChangeSiteStructure, CHANGE);
        const anchor = anchorOf(body.position);
        if (section.group_id === null) {
          const order = placeInOrder(
            topKeys(structure),
            topKey({ kind: "site-section", id: section.id }),
            anchor && {
              key: topKey({ kind: "site-section", id: anchor.pointer.siteSection }),
              before: anchor.before,
            },
          );
          await renumber(tx, topItemsOf(order));
        } else {
          const order = placeInOrder(
            sectionsOf(structure, section.group_id).map((s) => s.id),
            section.id,
            anchor && { key: anchor.pointer.siteSection, before: anchor.before },
          );
          await renumber(
            tx,
            order.map((id) => ({ table: "site_sections" as const, id })),
          );
        }
      });
      const presentation = await sites.presentation(member);
      return ok(presentSection(sectionIn(structure, path.siteSectionId), structure, presentation));
    },

    async listSiteSectionGroups({ path, query, caller }) {
      const member = await sites.site(path, caller);
      const page = await listGroupIds(db, { siteId: member.site.id }, query);
      const [structure, presentation] = await Promise.all([
        sites.structure(member),
        sites.presentation(member),
      ]);
      return ok(
        presentPage(
          { ...page, rows: page.rows.flatMap((row) => structure.groups.get(row.id) ?? []) },
          (group) => presentSectionGroup(group, structure, presentation),
        ),
      );
    },

    async addSectionGroupToSite({ path, body, caller }) {
      const member = await sites.site(path, caller, canChangeSiteStructure, CHANGE);
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
      const presentation = await sites.presentation(member);
      return sites.createdWithLocation(
        groupLocation(path, id),
        presentSectionGroup(groupIn(structure, id), structure, presentation),
      );
    },

    async updateSiteSectionGroupById({ path, body, caller }) {
      const member = await sites.site(path, caller);
      const { structure } = await sites.changeStructure(member, async ({ tx, structure, authorize }) => {
        const group = groupIn(structure, path.siteSectionGroupId);
        authorize(canChangeSiteStructure, CHANGE);
        const changes = {
          ...(body.title !== undefined && { title: body.title }),
          ...(body.icon !== undefined && { icon: body.icon }),
        };
        if (Object.keys(changes).length > 0)
          await tx
            .updateTable("site_section_groups")
            .set({ ...changes, updated_at: sites.now() })
            .where("id", "=", group.id)
            .execute();
      });
      const presentation = await sites.presentation(member);
      return ok(presentSectionGroup(groupIn(structure, path.siteSectionGroupId), structure, presentation));
    },

    async deleteSiteSectionGroupById({ path, caller }) {
      const member = await sites.site(path, caller);
      await sites.changeStructure(member, async ({ tx, structure, authorize }) => {
        const group = groupIn(structure, path.siteSectionGroupId);
        authorize(canChangeSiteStructure, CHANGE);
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

    async addSectionToGroup({ path, body, caller }) {
      const member = await sites.site(path, caller);
      const { structure } = await sites.changeStructure(member, async ({ tx, structure, authorize }) => {
        const group = groupIn(structure, path.siteSectionGroupId);
        authorize(canChangeSiteStructure, CHANGE);
        const section = structure.sections.find((s) => s.id === body.sectionId);
        if (!section) throw badRequest(`Section "${body.sectionId}" does not exist in this site.`);
        if (section.group_id !== null) throw conflict("The section is already in a group.");
        const last = sectionsOf(structure, group.id).at(-1);
        await tx
          .updateTable("site_sections")
          .set({ group_id: group.id, position: (last?.position ?? -1) + 1 })
          .where("id", "=", section.id)
          .execute();
      });
      const presentation = await sites.presentation(member);
      return sites.createdWithLocation(
        groupLocation(path, path.siteSectionGroupId),
        presentSectionGroup(groupIn(structure, path.siteSectionGroupId), structure, presentation),
      );
    },

    async removeSectionFromGroup({ path, caller }) {
      const member = await sites.site(path, caller);
      await sites.changeStructure(member, async ({ tx, structure, authorize }) => {
        const group = groupIn(structure, path.siteSectionGroupId);
        const section = sectionsOf(structure, group.id).find((s) => s.id === path.siteSectionId);
        if (!section) throw notFound("Site section in this group");
        authorize(canChangeSiteStructure, CHANGE);
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

    async moveSiteSectionGroup({ path, body, caller }) {
      const member = await sites.site(path, caller);
      const { structure } = await sites.changeStructure(member, async ({ tx, structure, authorize }) => {
        const group = groupIn(structure, path.siteSectionGroupId);
        authorize(canChangeSiteStructure, CHANGE);
        const anchor = anchorOf<Schema<"SiteSectionGroupPointer">>(body.position);
        const order = placeInOrder(
          topKeys(structure),
          topKey({ kind: "site-section-group", id: group.id }),
          anchor && {
            key: topKey({ kind: anchor.pointer.type, id: anchor.pointer.id }),
            before: anchor.before,
          },
        );
        await renumber(tx, topItemsOf(order));
      });
      const presentation = await sites.presentation(member);
      return ok(presentSectionGroup(groupIn(structure, path.siteSectionGroupId), structure, presentation));
    },
  };
}
