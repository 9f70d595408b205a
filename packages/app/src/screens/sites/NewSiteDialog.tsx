import { useId, useState } from "react";
import { useNavigate } from "react-router";
import { $api } from "../../api/client.js";
import { useSpaces } from "../../api/pages.js";
import { FormDialog } from "../../components/FormDialog.js";
import { t } from "../../i18n/index.js";
import { paths } from "../../routes/paths.js";
import { useRefreshSites } from "./queries.js";

/** A new empty space for the site, rather than one of the organization's. */
const NEW_SPACE = "";

/** The "New site" button and its dialog: a title and the space the site publishes; opens the new site. */
export function NewSiteDialog({ organizationId }: { organizationId: string }) {
  const id = useId();
  const navigate = useNavigate();
  const refresh = useRefreshSites();
  const spaces = useSpaces(organizationId);
  const [title, setTitle] = useState("");
  const [spaceId, setSpaceId] = useState(NEW_SPACE);
  const [tooShort, setTooShort] = useState(false);
  const create = $api.useMutation("post", "/v1/orgs/{organizationId}/sites", { onSuccess: refresh });

  const open = () => {
    create.reset();
    setTitle("");
    setSpaceId(spaces.data?.[0]?.id ?? NEW_SPACE);
    setTooShort(false);
  };
  const submit = (close: () => void) => {
    const trimmed = title.trim();
    setTooShort(trimmed.length < 2);
    if (trimmed.length < 2) return;
    create.mutate(
      {
        params: { path: { organizationId } },
        body: { type: "basic", title: trimmed, spaces: spaceId === NEW_SPACE ? "empty" : [spaceId] },
      },
      {
        onSuccess: (site) => {
          close();
          navigate(paths.site(organizationId, site.id));
        },
      },
    );
  };

  return (
    <FormDialog
      label={t("sites.new")}
      submitLabel={t("create.submit")}
      pending={create.isPending}
      error={create.error}
      onOpen={open}
      onSubmit={submit}
    >
      <label htmlFor={`${id}-title`}>{t("create.title")}</label>
      <input
        id={`${id}-title`}
        value={title}
        onChange={(event) => setTitle(event.target.value)}
        aria-invalid={tooShort}
        aria-describedby={tooShort ? `${id}-short` : undefined}
      />
      {tooShort && (
        <p id={`${id}-short`} className="error" role="alert">
          {t("sites.titleTooShort")}
        </p>
      )}
      <label htmlFor={`${id}-space`}>{t("sites.space")}</label>
      <select id={`${id}-space`} value={spaceId} onChange={(event) => setSpaceId(event.target.value)}>
        {spaces.data?.map((space) => (
          <option key={space.id} value={space.id}>
            {space.title}
          </option>
        ))}
        <option value={NEW_SPACE}>{t("sites.newEmptySpace")}</option>
      </select>
    </FormDialog>
  );
}
