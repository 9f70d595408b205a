import { defineArea } from "../area.js";
import { fileAccess, fileHandlers } from "./handlers.js";
import { fileRoutes } from "./routes.js";

/** Files' bytes: their upload into a change request and their download URLs (reads are in space-content). */
export const filesArea = defineArea({
  name: "files",
  access: fileAccess,
  handlers: fileHandlers,
  routes: fileRoutes,
});
