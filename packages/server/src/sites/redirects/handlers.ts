import type { Schema } from "@quire/api-types";
import type { AccessMap, AreaHandlers } from "../../area.js";
import type { PageTree } from "../../content/pages.js";
import { type Flag, flag, isSet, toJson } from "../../db/codecs.js";
import type { Db } from "../../db/database.js";
import { ApiError, badRequest, conflict, notFound } from "../../http/errors.js";
import { presentPage } from "../../http/paging.js";
import { ok } from "../../http/results.js";
import type { Services } from "../../services.js";
import { administersSite, readsSite } from "../access.js";
import { siteHandling } from "../context.js";
import { activeShareLink } from "../store.js";
import { loadSiteStructure, type SiteSpaceEntry, type SiteStructure } from "../structure.js";
import { publishedRoot, urlsUnder } from "../urls.js";
import { presentSiteRedirect } from "./presenter.js";
import { canonicalSource, liveRedirect, pageTrees } from "./resolve.js";
import {
  deleteRedirect,
  insertRedirect,
  listRedirects,
  redirectFrom,
  redirectOf,
  updateRedirect,
} from "./store.js";

type Destination = Schema<"SiteRedirectDestination">;

const managesRedirects = administersSite("change the redirects of this site");

export const siteRedirectAccess = {
  createSiteRedirect: managesRedirects,
  bulkUpsertSiteRedirects: managesRedirects,
  listSiteRedirects: readsSite,
  updateSiteRedirectById: managesRedirects,
  deleteSiteRedirectById: managesRedirects,
  getSiteRedirectBySource: readsSite,
} satisfies AccessMap;

/** Which redirects of a source: the live one or the draft one. */
const kindOf = (draft: Flag) => (isSet(draft) ? "draft" : "live");

/** The site space of this site with `siteSpaceId`; 400 when there is none. */
function siteSpaceIn(structure: SiteStructure, siteSpaceId: string): SiteSpaceEntry {
  const entry = structure.siteSpaces.find((e) => e.row.id === siteSpaceId);
  if (!entry) throw badRequest(`Site space "${siteSpaceId}" does not exist in this site.`);
  return entry;
}

/**
 * The destination a request gives, as stored: 400 unless the section, site space or page it names
 * is in the site. A page named by its path in a space becomes the page of the first site space of
 * that space.
 */
async function storedDestination(
  structure: SiteStructure,
  trees: (entry: SiteSpaceEntry) => Promise<PageTree>,
  input: Schema<"SiteRedirectInputDestination">,
): Promise<Destination> {
  switch (input.kind) {
    case "external":
      return { kind: "external", url: input.url };
    case "site-section":
      if (!structure.sections.some((s) => s.id === input.siteSectionId))
        throw badRequest(`Section "${input.siteSectionId}" does not exist in this site.`);
      return { kind: "site-section", siteSectionId: input.siteSectionId };
    case "site-space":
      siteSpaceIn(structure, input.siteSpaceId);
      return { kind: "site-space", siteSpaceId: input.siteSpaceId };
    case "site-page": {
      const tree = await trees(siteSpaceIn(structure, input.siteSpaceId));
      if (!tree.get(input.pageId))
        throw badRequest(`Page "${input.pageId}" is not in site space "${input.siteSpaceId}".`);
      return { kind: "site-page", siteSpaceId: input.siteSpaceId, pageId: input.pageId };
    }
    case "path": {
      const entry = structure.siteSpaces.find((e) => e.space.id === input.spaceId);
      if (!entry) throw badRequest(`Space "${input.spaceId}" is not in this site.`);
      const page = (await trees(entry)).atPath(input.path.replace(/^\/+|\/+$/g, ""));
      if (!page) throw badRequest(`No page of space "${input.spaceId}" is at the path "${input.path}".`);
      return { kind: "site-page", siteSpaceId: entry.row.id, pageId: page.id };
    }
  }
}

/** 409 when the site has another redirect of the same kind from `source`. */
async function assertSourceFree(tx: Db, siteId: string, draft: Flag, source: string, except?: string) {
  const clash = await redirectFrom(tx, siteId, draft, source);
  if (clash && clash.id !== except)
    throw conflict(`The site already has a ${kindOf(draft)} redirect from "${source}".`);
}

export function siteRedirectHandlers(services: Services): AreaHandlers<typeof siteRedirectAccess> {
  const { db, ids, urls } = services;
  const sites = siteHandling(services);

  /** The redirect as stored, once written (404 if deleted meanwhile). */
  async function stored(siteId: string, id: string) {
    const row = await redirectOf(db, siteId, id);
    if (!row) throw notFound("Redirect");
    return presentSiteRedirect(row);
  }

  /** One item of a bulk request, applied in `tx`; an ApiError it throws is the item's error. */
  async function applyItem(
    tx: Db,
    siteId: string,
    destinationOf: (input: Schema<"SiteRedirectInputDestination">) => Promise<Destination>,
    item: Schema<"BulkSiteRedirectItem">,
    source: string,
  ): Promise<Schema<"BulkSiteRedirectResult">> {
    const now = sites.now();
    if (item.intent === "publish") {
      const draft = await redirectFrom(tx, siteId, 1, source);
      if (!draft) throw badRequest(`There is no draft redirect from "${source}".`);
      const live = await redirectFrom(tx, siteId, 0, source);
      const { capture_wildcard, permanent, destination } = draft;
      let id = draft.id;
      if (live) {
        await deleteRedirect(tx, siteId, draft.id);
        await updateRedirect(tx, live.id, { capture_wildcard, permanent, destination }, now);
        id = live.id;
      } else await updateRedirect(tx, draft.id, { draft: 0 }, now);
      return { status: "published", source, draft: false, id };
    }
    const draft = flag(item.intent === "draft");
    const existing = await redirectFrom(tx, siteId, draft, source);
    if (item.destination === null) {
      if (!existing) throw badRequest(`There is no ${kindOf(draft)} redirect from "${source}".`);
      await deleteRedirect(tx, siteId, existing.id);
      return { status: "deleted", source, draft: isSet(draft) };
    }
    const fields = {
      capture_wildcard: flag(item.captureWildcard ?? false),
      destination: toJson(await destinationOf(item.destination)),
    };
    if (existing) {
      const permanent = item.permanent === undefined ? existing.permanent : flag(item.permanent);
      await updateRedirect(tx, existing.id, { ...fields, permanent }, now);
      return { status: "updated", source, draft: isSet(draft), id: existing.id };
    }
    const id = ids.next();
    await insertRedirect(tx, {
      id,
      site_id: siteId,
      source,
      draft,
      permanent: flag(item.permanent ?? false),
      ...fields,
      created_at: now,
      updated_at: null,
    });
    return { status: "created", source, draft: isSet(draft), id };
  }

  return {
    async createSiteRedirect({ path, body }, member) {
      const siteId = member.site.id;
      const id = ids.next();
      await sites.changeStructure(member, async ({ tx, structure }) => {
        const destination = await storedDestination(structure, pageTrees(tx), body.destination);
        const source = canonicalSource(body.source);
        const draft = flag(body.draft ?? false);
        await assertSourceFree(tx, siteId, draft, source);
        await insertRedirect(tx, {
          id,
          site_id: siteId,
          source,
          draft,
          capture_wildcard: flag(body.captureWildcard ?? false),
          permanent: flag(body.permanent ?? false),
          destination: toJson(destination),
          created_at: sites.now(),
          updated_at: null,
        });
      });
      return sites.createdWithLocation(
        `orgs/${path.organizationId}/sites/${path.siteId}/redirects/${id}`,
        await stored(siteId, id),
      );
    },

    async bulkUpsertSiteRedirects({ body }, member) {
      const siteId = member.site.id;
      const { result } = await sites.changeStructure(member, async ({ tx, structure }) => {
        const trees = pageTrees(tx);
        const destinationOf = (input: Schema<"SiteRedirectInputDestination">) =>
          storedDestination(structure, trees, input);
        const results: Schema<"BulkSiteRedirectResult">[] = [];
        for (const item of body.redirects) {
          const source = canonicalSource(item.source);
          // Each item on its own: one refused (checked before it writes) leaves the others applied.
          results.push(
            await applyItem(tx, siteId, destinationOf, item, source).catch((error: unknown) => {
              if (!(error instanceof ApiError)) throw error;
              return { status: "error", source, draft: item.intent === "draft", error: error.message };
            }),
          );
        }
        return results;
      });
      return ok({ results: result });
    },

    async listSiteRedirects({ query }, { site }) {
      const page = await listRedirects(
        db,
        {
          siteId: site.id,
          draft: flag(query.draft ?? false),
          ...(query.search !== undefined && { search: query.search }),
          orderBy: query.orderBy ?? "createdAt",
        },
        query,
      );
      return ok(presentPage(page, presentSiteRedirect));
    },

    async updateSiteRedirectById({ path, body }, member) {
      const siteId = member.site.id;
      await sites.changeStructure(member, async ({ tx, structure }) => {
        const row = await redirectOf(tx, siteId, path.siteRedirectId);
        if (!row) throw notFound("Redirect");
        const source = body.source === undefined ? row.source : canonicalSource(body.source);
        const draft = body.draft === undefined ? row.draft : flag(body.draft);
        if (source !== row.source || draft !== row.draft)
          await assertSourceFree(tx, siteId, draft, source, row.id);
        const changes = {
          ...(body.source !== undefined && { source }),
          ...(body.draft !== undefined && { draft }),
          ...(body.captureWildcard !== undefined && { capture_wildcard: flag(body.captureWildcard) }),
          ...(body.permanent !== undefined && { permanent: flag(body.permanent) }),
          ...(body.destination !== undefined && {
            destination: toJson(await storedDestination(structure, pageTrees(tx), body.destination)),
          }),
        };
        // An empty change leaves the redirect as it was, unchanged since its last change.
        if (Object.keys(changes).length > 0) await updateRedirect(tx, row.id, changes, sites.now());
      });
      return ok(await stored(siteId, path.siteRedirectId));
    },

    async deleteSiteRedirectById({ path }, member) {
      const deleted = await deleteRedirect(db, member.site.id, path.siteRedirectId);
      // GitBook's answers: 205 once deleted, 204 when there was no such redirect.
      return { status: deleted ? 205 : 204, body: undefined };
    },

    async getSiteRedirectBySource({ query }, { site }) {
      const link =
        query.shareKey === undefined ? undefined : await activeShareLink(db, site.id, query.shareKey);
      const found = await liveRedirect(
        db,
        await loadSiteStructure(db, site),
        canonicalSource(query.source),
        urlsUnder(publishedRoot(urls, site.id), link?.share_key),
      );
      if (!found) throw notFound("Redirect");
      return ok({ redirect: presentSiteRedirect(found.row), target: found.target });
    },
  };
}
