import { defineArea } from "../area.js";

/** Operations of `spec/space-content.tsp`; each moves from `pending` to `handlers` when it is written. */
export const spaceContentArea = defineArea({
  name: "space-content",
  pending: [
    "getCurrentRevision",
    "getFileById",
    "getPageById",
    "getRevisionById",
    "listFiles",
    "listPages",
    "listSpaceLinks",
  ],
});
