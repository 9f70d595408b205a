import type { Schema } from "@quire/client";
import { useQuery } from "@tanstack/react-query";
import type { MouseEvent, ReactNode } from "react";
import { useNavigate } from "react-router";
import { ErrorView, Loading } from "../../components/ErrorView.js";
import { t } from "../../i18n/index.js";
import { APP_BASENAME } from "../../routes/paths.js";
import { renderedPageOptions } from "./queries.js";

type Page = Schema<"RevisionPage">;

/** The page being read: its title (the screen's h1), description, body and its On this page navigation. */
export function PageView({ spaceId, page, actions }: { spaceId: string; page: Page; actions?: ReactNode }) {
  const rendered = useQuery(renderedPageOptions(spaceId, page.id));
  const navigate = useNavigate();
  // A link to another page of the app stays in the app (no reload); any other link is the browser's.
  const followInApp = (event: MouseEvent) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    if (!(event.target instanceof Element)) return;
    const link = event.target.closest("a");
    if (!link || link.target || link.origin !== window.location.origin) return;
    if (!link.pathname.startsWith(`${APP_BASENAME}/`)) return;
    event.preventDefault();
    navigate(`${link.pathname.slice(APP_BASENAME.length)}${link.search}${link.hash}`);
  };
  const headings = rendered.data?.headings ?? [];
  return (
    <article className="space-page">
      <h1>{page.title}</h1>
      {actions}
      {(rendered.data?.description ?? page.description) && (
        <p className="space-description">{rendered.data?.description ?? page.description}</p>
      )}
      {rendered.isPending && <Loading />}
      {rendered.isError && <ErrorView error={rendered.error} />}
      {rendered.data?.refused !== undefined && <p>{t("space.refused", { reason: rendered.data.refused })}</p>}
      <div className="space-page-columns">
        {rendered.data?.html !== undefined && (
          // biome-ignore lint/a11y/noStaticElementInteractions: the clicks are its links', kept in the app
          // biome-ignore lint/a11y/useKeyWithClickEvents: a link's Enter is a click too
          <div
            className="space-body"
            onClick={followInApp}
            // Safe: the server's content engine sanitized this HTML, and the app's CSP refuses inline scripts.
            // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized by the engine (see above)
            dangerouslySetInnerHTML={{ __html: rendered.data.html }}
          />
        )}
        {headings.length > 0 && (
          <nav className="space-toc" aria-label={t("space.onThisPage")}>
            <p className="nav-title">{t("space.onThisPage")}</p>
            <ul>
              {headings.map((heading) => (
                <li key={heading.id} className={`toc-depth-${Math.min(heading.depth, 4)}`}>
                  <a href={`#${encodeURIComponent(heading.id)}`}>{heading.title}</a>
                </li>
              ))}
            </ul>
          </nav>
        )}
      </div>
    </article>
  );
}
