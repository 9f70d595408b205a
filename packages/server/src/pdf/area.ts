import { defineArea } from "../area.js";

/** Change requests exported as PDF. */
export const pdfArea = defineArea({
  name: "pdf",
  pending: ["getChangeRequestPDF"],
});
