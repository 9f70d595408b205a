import { defineArea } from "../area.js";
import { commentAccess, commentHandlers } from "./handlers.js";

/** Operations of `spec/comments.tsp`: the comments of spaces and of change requests. */
export const commentsArea = defineArea({
  name: "comments",
  access: commentAccess,
  handlers: commentHandlers,
});
