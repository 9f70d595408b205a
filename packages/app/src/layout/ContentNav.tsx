import { NavLink } from "react-router";
import { useCollections, useSpaces } from "../api/pages.js";
import { ErrorView, Loading } from "../components/ErrorView.js";
import { t } from "../i18n/index.js";
import { type ContentNode, contentTree } from "../lib/content-tree.js";
import { paths } from "../routes/paths.js";

/** The organization's collections and spaces, as links to them, nested as they are. */
export function ContentNav({ organizationId }: { organizationId: string }) {
  const collections = useCollections(organizationId);
  const spaces = useSpaces(organizationId);
  const failed = collections.error ?? spaces.error;
  const tree =
    collections.data && spaces.data
      ? contentTree(
          collections.data.map((c) => ({
            id: c.id,
            title: c.title,
            parent: c.parent,
            href: paths.collection(c.id),
          })),
          spaces.data.map((s) => ({ id: s.id, title: s.title, parent: s.parent, href: paths.space(s.id) })),
        )
      : undefined;
  return (
    <nav className="content-nav" aria-label={t("nav.content")}>
      <h2 className="nav-title">{t("nav.content")}</h2>
      {failed ? <ErrorView error={failed} /> : tree ? <Tree nodes={tree} /> : <Loading />}
      {tree?.length === 0 && <p>{t("nav.empty")}</p>}
    </nav>
  );
}

function Tree({ nodes }: { nodes: readonly ContentNode[] }) {
  if (nodes.length === 0) return null;
  return (
    <ul>
      {nodes.map((node) => (
        <li key={node.item.id} className={node.kind}>
          <NavLink to={node.item.href}>{node.item.title}</NavLink>
          <Tree nodes={node.children} />
        </li>
      ))}
    </ul>
  );
}
