import { defineArea } from "../area.js";
import { commentHandlers } from "./handlers.js";

/** Operations of `spec/comments.tsp` and of the comments of `spec/change-requests.tsp`. */
export const commentsArea = defineArea({
  name: "comments",
  handlers: commentHandlers,
});
