import { defineArea } from "../area.js";
import { linksAccess, linksHandlers } from "./handlers.js";

/** Links between content: the links of a space or change request and the pages that use a file. */
export const linksArea = defineArea({ name: "links", access: linksAccess, handlers: linksHandlers });
