import { defineArea } from "../area.js";
import { importHandlers } from "./handlers.js";

/** Content brought into a change request from outside: a website, an HTML page or a markdown file. */
export const importsArea = defineArea({ name: "imports", handlers: importHandlers });
