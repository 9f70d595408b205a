import { useEffect, useId, useRef } from "react";
import { useNavigate } from "react-router";
import { t } from "../i18n/index.js";
import { paths } from "../routes/paths.js";

/** Ctrl-K, or ⌘-K on a Mac: the search box, from anywhere in the app. */
const isSearchShortcut = (event: KeyboardEvent) =>
  event.key.toLowerCase() === "k" && (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey;

/** The organization's search (Ctrl/Cmd-K focuses it): opens the search screen for the words typed. */
export function SearchBox({ organizationId }: { organizationId: string }) {
  const id = useId();
  const field = useRef<HTMLInputElement>(null);
  const navigate = useNavigate();
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!isSearchShortcut(event)) return;
      event.preventDefault();
      field.current?.focus();
      field.current?.select();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
  return (
    <search className="search">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          const q = field.current?.value.trim() ?? "";
          if (q) navigate(paths.search(organizationId, q));
        }}
      >
        <label htmlFor={id}>{t("search.label")}</label>
        <input
          ref={field}
          id={id}
          name="q"
          type="search"
          aria-keyshortcuts="Control+K Meta+K"
          placeholder={t("search.shortcut")}
        />
        <button type="submit">{t("search.submit")}</button>
      </form>
    </search>
  );
}
