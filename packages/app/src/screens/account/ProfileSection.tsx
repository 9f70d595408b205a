import type { Schema } from "@quire/client";
import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { $api } from "../../api/client.js";
import { ErrorView, Loading } from "../../components/ErrorView.js";
import { t } from "../../i18n/index.js";

/** The contract's `UpdateUserRequest.displayName`: at most 100 characters. */
const NAME_MAX = 100;

/** Who the person is, as the API tells it; their name is theirs to change, their email is not. */
export function ProfileSection() {
  const user = $api.useQuery("get", "/v1/user");
  const id = useId();
  return (
    <section className="account-section" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{t("account.nav.profile")}</h2>
      {user.isPending && <Loading />}
      {user.isError && <ErrorView error={user.error} />}
      {user.data && (
        <>
          <NameForm user={user.data} />
          <dl className="account-fields">
            <dt>{t("account.profile.email")}</dt>
            <dd>{user.data.email ?? t("account.profile.noEmail")}</dd>
          </dl>
          <p className="account-note">{t("account.profile.emailNote")}</p>
        </>
      )}
    </section>
  );
}

/** The display name, saved with `PATCH /v1/user`; the shell's "Signed in as" reads it again after. */
function NameForm({ user }: { user: Schema<"User"> }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(user.displayName);
  const [empty, setEmpty] = useState(false);
  const [said, setSaid] = useState("");
  const save = $api.useMutation("patch", "/v1/user", {
    onSuccess: async (saved) => {
      setName(saved.displayName);
      await queryClient.invalidateQueries({ queryKey: ["get", "/v1/user"] });
      setSaid(t("account.profile.saved"));
    },
  });
  const id = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    setEmpty(trimmed === "");
    setSaid("");
    save.reset();
    if (trimmed !== "") save.mutate({ body: { displayName: trimmed } });
  };

  return (
    <form className="account-form" onSubmit={submit} noValidate>
      <div className="account-field">
        <label htmlFor={`${id}-name`}>{t("account.profile.name")}</label>
        <input
          id={`${id}-name`}
          autoComplete="name"
          value={name}
          maxLength={NAME_MAX}
          onChange={(event) => setName(event.target.value)}
          aria-invalid={empty}
          aria-describedby={`${id}-hint`}
        />
        <p id={`${id}-hint`} className="account-hint">
          {t("account.profile.nameHint", { max: NAME_MAX })}
        </p>
      </div>
      {empty && (
        <p className="error" role="alert">
          {t("account.profile.nameEmpty")}
        </p>
      )}
      {save.isError && <ErrorView error={save.error} />}
      <div>
        <button type="submit" disabled={save.isPending}>
          {t("account.profile.save")}
        </button>
      </div>
      <p role="status">{said}</p>
    </form>
  );
}
