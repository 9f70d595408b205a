import { defineArea } from "../area.js";

/** Links between content: the links of a space or change request and the pages that use a file. */
export const linksArea = defineArea({
  name: "links",
  pending: ["listChangeRequestFileBacklinks", "listPageLinksInChangeRequest", "listSpaceLinks"],
});
