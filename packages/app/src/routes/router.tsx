import type { ComponentType } from "react";
import { createBrowserRouter } from "react-router";
import { Shell } from "../layout/Shell.js";
import { FirstOrganization } from "./FirstOrganization.js";
import { NotFound } from "./NotFound.js";
import { APP_BASENAME } from "./paths.js";
import { SettingsRedirect } from "./SettingsRedirect.js";

/** A screen loaded when first visited: each is a chunk of its own, so the first screen loads only its code. */
const screen = (load: () => Promise<{ default: ComponentType }>) => ({
  lazy: async () => ({ Component: (await load()).default }),
});

/** The app's screens, at the paths of the API's `urls.app` (the server sends the app for each). */
export const router = createBrowserRouter(
  [
    {
      path: "/",
      element: <Shell />,
      children: [
        { index: true, element: <FirstOrganization /> },
        { path: "orgs/:organizationId", ...screen(() => import("./Home.js")) },
        {
          path: "orgs/:organizationId/search",
          ...screen(() => import("../screens/content/SearchScreen.js")),
        },
        {
          path: "orgs/:organizationId/deleted-spaces",
          ...screen(() => import("../screens/content/DeletedSpacesScreen.js")),
        },
        {
          path: "collections/:collectionId",
          ...screen(() => import("../screens/content/CollectionScreen.js")),
        },
        {
          path: "spaces/:spaceId/change-requests/:number/*",
          ...screen(() => import("../screens/change-request/ChangeRequestScreen.js")),
        },
        { path: "spaces/:spaceId/*", ...screen(() => import("../screens/space/SpaceScreen.js")) },
        {
          path: "orgs/:organizationId/people/*",
          ...screen(() => import("../screens/people/PeopleScreen.js")),
        },
        { path: "orgs/:organizationId/sites/*", ...screen(() => import("../screens/sites/SitesScreen.js")) },
        {
          path: "orgs/:organizationId/settings/*",
          ...screen(() => import("../screens/settings/OrganizationSettingsScreen.js")),
        },
        { path: "settings/*", ...screen(() => import("../screens/account/AccountScreen.js")) },
        { path: "integrations/:integrationName", element: <SettingsRedirect tab="integrations" /> },
        {
          path: "orgs/:organizationId/integrations/:integrationName",
          element: <SettingsRedirect tab="integrations" />,
        },
        { path: "orgs/:organizationId/openapi/:specSlug", element: <SettingsRedirect tab="openapi" /> },
        { path: "*", element: <NotFound /> },
      ],
    },
  ],
  { basename: APP_BASENAME },
);
