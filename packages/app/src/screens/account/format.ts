import { language } from "../../i18n/index.js";

const dateTime = new Intl.DateTimeFormat(language, { dateStyle: "medium", timeStyle: "short" });

/** A moment of the API (ISO 8601), in the app's language. */
export const formatTime = (iso: string): string => dateTime.format(new Date(iso));
