import { defineArea } from "../area.js";
import { appPreviewRoutes } from "./routes.js";

/** The HTML previews behind the API's `urls.app` links: routes only, no operation of the contract. */
export const appPreviewsArea = defineArea({
  name: "app-previews",
  routes: appPreviewRoutes,
});
