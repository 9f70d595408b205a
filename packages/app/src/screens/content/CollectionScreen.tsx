import type { Schema } from "@quire/client";
import { Link, useParams } from "react-router";
import { $api } from "../../api/client.js";
import { useCreateCollection, useCreateSpace } from "../../api/create.js";
import { useCollections, useSpaces } from "../../api/pages.js";
import { CreateDialog } from "../../components/CreateDialog.js";
import { ErrorView, Loading } from "../../components/ErrorView.js";
import { t } from "../../i18n/index.js";
import { useShownOrganization } from "../../layout/shell-context.js";
import { paths } from "../../routes/paths.js";
import { ContentAccess } from "../people/ContentAccess.js";
import "./content.css";

/** A collection: its title, description, what it holds (as links), and New space / New collection inside it. */
export default function CollectionScreen() {
  const { collectionId = "" } = useParams();
  const collection = $api.useQuery("get", "/v1/collections/{collectionId}", {
    params: { path: { collectionId } },
  });
  useShownOrganization(collection.data?.organization);
  if (collection.isPending) return <Loading />;
  if (collection.isError) return <ErrorView error={collection.error} />;
  const { title, description } = collection.data;
  return (
    <>
      <h1>{title}</h1>
      {description && <p className="collection-description">{description}</p>}
      {collection.data.permissions.admin && (
        <ContentAccess kind="collection" id={collectionId} organizationId={collection.data.organization} />
      )}
      <Contents collection={collection.data} />
    </>
  );
}

/**
 * What the collection holds, from the organization's lists (the navigation's, so both change together).
 * Creating needs the collection's `create` permission.
 */
function Contents({ collection }: { collection: Schema<"Collection"> }) {
  const collections = useCollections(collection.organization);
  const spaces = useSpaces(collection.organization);
  const newSpace = useCreateSpace(collection.organization, collection.id);
  const newCollection = useCreateCollection(collection.organization, collection.id);
  const failed = collections.error ?? spaces.error;
  if (failed) return <ErrorView error={failed} />;
  if (!collections.data || !spaces.data) return <Loading />;
  const inside = <T extends { parent?: string; title: string }>(items: readonly T[]) =>
    items.filter((item) => item.parent === collection.id).sort((a, b) => a.title.localeCompare(b.title));
  return (
    <>
      {collection.permissions.create && (
        <div className="collection-actions">
          <CreateDialog label={t("create.space")} creator={newSpace} />
          <CreateDialog label={t("create.collection")} creator={newCollection} />
        </div>
      )}
      <Listing
        heading={t("collection.spaces")}
        empty={t("collection.noSpaces")}
        items={inside(spaces.data).map((space) => ({
          id: space.id,
          title: space.title,
          href: paths.space(space.id),
        }))}
      />
      <Listing
        heading={t("collection.collections")}
        empty={t("collection.noCollections")}
        items={inside(collections.data).map((c) => ({
          id: c.id,
          title: c.title,
          href: paths.collection(c.id),
        }))}
      />
    </>
  );
}

function Listing({
  heading,
  empty,
  items,
}: {
  heading: string;
  empty: string;
  items: readonly { id: string; title: string; href: string }[];
}) {
  return (
    <section>
      <h2>{heading}</h2>
      {items.length === 0 ? (
        <p>{empty}</p>
      ) : (
        <ul className="collection-list">
          {items.map((item) => (
            <li key={item.id}>
              <Link to={item.href}>{item.title}</Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
