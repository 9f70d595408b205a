import { defineArea } from "../area.js";
import { importAccess, importHandlers } from "./handlers.js";

/** Content brought into a change request from outside: a website, an HTML page or a markdown file. */
export const importsArea = defineArea({ name: "imports", access: importAccess, handlers: importHandlers });
