import { sql } from "kysely";
import { callerOwnsTeam } from "../access.js";
import type { AccessMap, AreaHandlers } from "../area.js";
import { type MemberChangeRequest, onChangeRequest } from "../change-requests/index.js";
import { revisionOf, treeOf } from "../content/revisions.js";
import { ContentStorage } from "../content/storage.js";
import { type FileScope, publicBase, visibleFilesById } from "../files/index.js";
import { pagePaths } from "../git-sync/index.js";
import { notFound } from "../http/errors.js";
import { ok } from "../http/results.js";
import { presentOrganization } from "../organizations/index.js";
import type { Services } from "../services.js";
import type { ContentView, PagesMeta } from "../space-content/index.js";
import { onSpace, presentSpace } from "../spaces/index.js";
import { pageOf } from "./paging.js";
import { presentLink, presentPageReference, type ReferenceContext } from "./presenter.js";
import { type ResolvedLink, type RevisionIndex, resolveLinks } from "./resolve.js";
import { linksOfDocuments } from "./store.js";

export const linksAccess = {
  listSpaceLinks: onSpace("read this space"),
  listPageLinksInChangeRequest: onChangeRequest("read this change request"),
  listChangeRequestFileBacklinks: onChangeRequest("read this change request"),
} satisfies AccessMap;

/** What the caller's standing on a space gives the presentation of references: the space and their roles. */
type Member = Pick<MemberChangeRequest, "space" | "role" | "organizationRole">;

/** Counts of a list of link targets (`LinkStats`). */
function statsOf(links: readonly ResolvedLink[]) {
  return { total: links.length, broken: { total: links.filter((link) => link.status === "broken").length } };
}

/** A change request's view (from its space, at its number in the app) and file scope. */
function changeRequestContent({ space, changeRequest }: MemberChangeRequest) {
  const view = { spaceId: space.id, appPath: `spaces/${space.id}/change-requests/${changeRequest.number}` };
  return { view, scope: { spaceId: space.id, changeRequestId: changeRequest.id } };
}

export function linksHandlers(services: Services): AreaHandlers<typeof linksAccess> {
  const { db, urls, secretKey } = services;
  const base = publicBase(urls);

  /** A revision's pages and files, and the links of its pages' bodies (stored when they were written). */
  const open = async (spaceId: string, revisionId: string, scope: FileScope) => {
    const storage = new ContentStorage(db, spaceId);
    const tree = await treeOf(storage, await revisionOf(db, spaceId, revisionId));
    const index: RevisionIndex = {
      tree,
      files: await visibleFilesById(db, scope),
      publicBase: base,
      pageFiles: await pagePaths(db, spaceId),
    };
    const pages = tree.inOrder();
    const documents = pages.flatMap((page) => (page.document === null ? [] : [page.document]));
    const meta = await storage.pageMeta(documents);
    return { index, pages, meta, links: await linksOfDocuments(db, spaceId, documents) };
  };

  /** How the space's references are presented to the caller. */
  const referencesOf = async ({ space, role, organizationRole }: Member, callerId: string) => {
    const { caller_owns_team, ...organization } = await db
      .selectFrom("organizations")
      .selectAll()
      .select(callerOwnsTeam(callerId, sql.ref("organizations.id")).as("caller_owns_team"))
      .where("id", "=", space.organization_id)
      .executeTakeFirstOrThrow();
    const caller = { role: organizationRole, ownsTeam: Boolean(caller_owns_team) };
    return (
      { index, meta }: { index: RevisionIndex; meta: PagesMeta },
      view: ContentView,
    ): ReferenceContext => ({
      organization: presentOrganization(organization, caller, urls),
      space: presentSpace(space, role, urls),
      tree: index.tree,
      meta,
      view,
      urls,
      secretKey,
    });
  };

  return {
    async listSpaceLinks({ query, caller }, member) {
      const { space } = member;
      const context = await referencesOf(member, caller.user.id);
      const revision = await open(space.id, space.revision_id, { spaceId: space.id, changeRequestId: null });
      const all = resolveLinks(revision.index, revision.pages, revision.links);
      const shown = query.status === undefined ? all : all.filter((link) => link.status === query.status);
      const reference = context(revision, { spaceId: space.id, appPath: `spaces/${space.id}` });
      const page = pageOf(shown, query);
      return ok({
        ...page,
        items: page.items.map((link) => presentLink(link, reference)),
        stats: statsOf(all),
      });
    },

    async listPageLinksInChangeRequest({ path, query, caller }, member) {
      const { changeRequest } = member;
      const context = await referencesOf(member, caller.user.id);
      const { view, scope } = changeRequestContent(member);
      const revision = await open(view.spaceId, changeRequest.revision_id, scope);
      const { index, links } = revision;
      const entry = index.tree.get(path.pageId);
      if (!entry) throw notFound("Page");
      const all = resolveLinks(index, [entry], links);

      // Broken by the change request: broken here, not broken from the same page of its base revision.
      const baseId = changeRequest.revision_merged_ancestor_id ?? changeRequest.revision_initial_id;
      const before = await open(view.spaceId, baseId, { spaceId: view.spaceId, changeRequestId: null });
      const baseEntry = before.index.tree.get(path.pageId);
      const brokenBefore = new Set(
        baseEntry
          ? resolveLinks(before.index, [baseEntry], before.links)
              .filter((link) => link.status === "broken")
              .map((link) => link.key)
          : [],
      );
      const stats = statsOf(all);
      const brokenByChangeRequest = all.filter(
        (link) => link.status === "broken" && !brokenBefore.has(link.key),
      );

      const reference = context(revision, view);
      const page = pageOf(all, query);
      return ok({
        ...page,
        items: page.items.map((link) => presentLink(link, reference)),
        stats: { ...stats, broken: { ...stats.broken, changeRequest: brokenByChangeRequest.length } },
      });
    },

    async listChangeRequestFileBacklinks({ path, query, caller }, member) {
      const { changeRequest } = member;
      const context = await referencesOf(member, caller.user.id);
      const { view, scope } = changeRequestContent(member);
      const revision = await open(view.spaceId, changeRequest.revision_id, scope);
      const { index, pages, links } = revision;
      if (!index.files.has(path.fileId)) throw notFound("File");
      const target = resolveLinks(index, pages, links).find((link) => link.key === `file:${path.fileId}`);
      const reference = context(revision, view);
      const page = pageOf(target?.locations ?? [], query);
      return ok({ ...page, items: page.items.map((entry) => presentPageReference(entry, reference)) });
    },
  };
}
