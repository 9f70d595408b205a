import { defineArea } from "../area.js";
import { pdfAccess, pdfHandlers } from "./handlers.js";
import { pdfRoutes } from "./routes.js";

/** Spaces and change requests exported as PDF: the operation gives a signed URL, which the area's route serves. */
export const pdfArea = defineArea({
  name: "pdf",
  access: pdfAccess,
  handlers: pdfHandlers,
  routes: pdfRoutes,
});
