import { useCreateCollection, useCreateSpace } from "../api/create.js";
import { CreateDialog } from "../components/CreateDialog.js";
import { t } from "../i18n/index.js";

/** The "New collection" and "New space" buttons under the Content navigation, each with its dialog. */
export function CreateContent({ organizationId }: { organizationId: string }) {
  const collection = useCreateCollection(organizationId);
  const space = useCreateSpace(organizationId);
  return (
    <div className="create-content">
      <CreateDialog label={t("create.collection")} creator={collection} />
      <CreateDialog label={t("create.space")} creator={space} />
    </div>
  );
}
