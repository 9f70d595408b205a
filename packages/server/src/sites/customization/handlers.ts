import type { AccessMap, AreaHandlers } from "../../area.js";
import { noContent, ok } from "../../http/results.js";
import type { Services } from "../../services.js";
import { administersSite, readsSite } from "../access.js";
import { lockSite } from "../store.js";
import { patchedOverride, settingsOf } from "./settings.js";
import {
  assertSiteSpace,
  customizationOf,
  deleteSiteSpaceOverride,
  replaceSiteCustomization,
  saveSiteSpaceOverride,
  siteCustomization,
  siteSpaceOverride,
} from "./store.js";
import { assertSupported } from "./unsupported.js";

// The branding is one of the site's settings: read as the site is, changed as its settings are.
const customizes = administersSite("change the customization of this site");

export const customizationAccess = {
  getSiteCustomizationById: readsSite,
  updateSiteCustomizationById: customizes,
  getSiteSpaceCustomizationById: readsSite,
  overrideSiteSpaceCustomizationById: customizes,
  deleteSiteSpaceCustomizationById: customizes,
} satisfies AccessMap;

export function customizationHandlers(services: Services): AreaHandlers<typeof customizationAccess> {
  const { db, now, transaction } = services;

  return {
    async getSiteCustomizationById(_input, { site }) {
      return ok(await siteCustomization(db, site.id));
    },

    async updateSiteCustomizationById({ body }, { site }) {
      assertSupported(body);
      await replaceSiteCustomization(db, site.id, settingsOf(body), now());
      return ok(await siteCustomization(db, site.id));
    },

    async getSiteSpaceCustomizationById({ path }, { site }) {
      await assertSiteSpace(db, site.id, path.siteSpaceId);
      return ok(await customizationOf(db, site.id, path.siteSpaceId));
    },

    async overrideSiteSpaceCustomizationById({ path, body }, { site }) {
      const ids = { siteId: site.id, siteSpaceId: path.siteSpaceId };
      // Under the site's lock, the site space stays while its override is read, changed and written.
      await transaction(async (tx) => {
        await lockSite(tx, site.id);
        await assertSiteSpace(tx, site.id, path.siteSpaceId);
        assertSupported(body);
        const override = patchedOverride(await siteSpaceOverride(tx, path.siteSpaceId), body);
        await saveSiteSpaceOverride(tx, ids, override, now());
      });
      return ok(await customizationOf(db, site.id, path.siteSpaceId));
    },

    async deleteSiteSpaceCustomizationById({ path }, { site }) {
      await assertSiteSpace(db, site.id, path.siteSpaceId);
      await deleteSiteSpaceOverride(db, path.siteSpaceId);
      return noContent();
    },
  };
}
