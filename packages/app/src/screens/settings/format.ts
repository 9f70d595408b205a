import { language } from "../../i18n/index.js";

const timeFormat = new Intl.DateTimeFormat(language, { dateStyle: "medium", timeStyle: "medium" });

/** A moment of the API (ISO 8601) in the reader's language and time zone. */
export const formatTime = (iso: string) => timeFormat.format(new Date(iso));
