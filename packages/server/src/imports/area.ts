import { defineArea } from "../area.js";

/** Content brought into a change request from outside: a website. */
export const importsArea = defineArea({
  name: "imports",
  pending: ["importContentInChangeRequest"],
});
