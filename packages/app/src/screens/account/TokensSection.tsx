import type { Schema } from "@quire/client";
import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { $api } from "../../api/client.js";
import { Dialog } from "../../components/Dialog.js";
import { DialogActions } from "../../components/DialogActions.js";
import { ErrorView, Loading } from "../../components/ErrorView.js";
import { t } from "../../i18n/index.js";
import { formatTime } from "./format.js";
import { AccountList, ItemDialog, useItemAction } from "./items.js";
import { OneTimeSecret, ShownOnce } from "./secrets.js";

type ApiToken = Schema<"ApiToken">;

const TOKENS = "/v1/user/tokens";
/** The contract's `CreateApiTokenRequest.label`: at most 100 characters. */
const LABEL_MAX = 100;

function useRefreshTokens() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ["get", TOKENS] });
}

/** The person's API tokens: listed without their secrets, made (the secret shown once) and revoked. */
export function TokensSection() {
  const tokens = $api.useQuery("get", TOKENS);
  const [creating, setCreating] = useState(false);
  const revoking = useItemAction<ApiToken>();
  const id = useId();

  return (
    <section className="account-section" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{t("account.nav.tokens")}</h2>
      <p>{t("account.tokens.intro")}</p>
      {tokens.isPending && <Loading />}
      {tokens.isError && <ErrorView error={tokens.error} />}
      {tokens.data &&
        (tokens.data.items.length === 0 ? (
          <p>{t("account.tokens.none")}</p>
        ) : (
          <AccountList
            id={id}
            items={tokens.data.items}
            action={t("account.tokens.revoke")}
            onAction={revoking.start}
            text={(token) => (
              <>
                <p className="account-item-title">{token.label}</p>
                <p className="account-item-detail">
                  {t("account.tokens.created", { time: formatTime(token.createdAt) })}
                </p>
              </>
            )}
          />
        ))}
      <button
        type="button"
        onClick={() => {
          revoking.hush();
          setCreating(true);
        }}
      >
        {t("account.tokens.create")}
      </button>
      <p role="status">{revoking.said}</p>

      <Dialog open={creating} onClose={() => setCreating(false)} title={t("account.tokens.create")}>
        <CreateToken onClose={() => setCreating(false)} />
      </Dialog>
      <ItemDialog
        action={revoking}
        title={(token) => t("account.tokens.revokeTitle", { label: token.label })}
      >
        {(token) => (
          <RevokeToken
            token={token}
            onCancel={revoking.cancel}
            onRevoked={() => revoking.done(t("account.tokens.revoked"))}
          />
        )}
      </ItemDialog>
    </section>
  );
}

/** Asks for a label, makes the token, then shows its secret: the only time the server gives it. */
function CreateToken({ onClose }: { onClose: () => void }) {
  const refresh = useRefreshTokens();
  const create = $api.useMutation("post", TOKENS, { onSuccess: refresh });
  const [label, setLabel] = useState("");
  const [empty, setEmpty] = useState(false);
  const id = useId();

  if (create.data)
    return (
      <ShownOnce onClose={onClose}>
        <p>{t("account.tokens.createdIntro", { label: create.data.label })}</p>
        <OneTimeSecret label={t("account.tokens.secret")} value={create.data.secret} />
        <p>{t("account.shownOnce")}</p>
      </ShownOnce>
    );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = label.trim();
    setEmpty(trimmed === "");
    if (trimmed !== "") create.mutate({ body: { label: trimmed } });
  };
  return (
    <form className="account-form" onSubmit={submit} noValidate>
      <div className="account-field">
        <label htmlFor={`${id}-label`}>{t("account.tokens.label")}</label>
        <input
          id={`${id}-label`}
          value={label}
          maxLength={LABEL_MAX}
          onChange={(event) => setLabel(event.target.value)}
          aria-invalid={empty}
          aria-describedby={`${id}-hint`}
        />
        <p id={`${id}-hint`} className="account-hint">
          {t("account.tokens.labelHint")}
        </p>
      </div>
      {empty && (
        <p className="error" role="alert">
          {t("account.tokens.labelEmpty")}
        </p>
      )}
      {create.isError && <ErrorView error={create.error} />}
      <DialogActions submitLabel={t("account.tokens.submit")} pending={create.isPending} onCancel={onClose} />
    </form>
  );
}

/** Confirms, then revokes `token`: whatever uses it is refused from then on. */
function RevokeToken({
  token,
  onCancel,
  onRevoked,
}: {
  token: ApiToken;
  onCancel: () => void;
  onRevoked: () => void;
}) {
  const refresh = useRefreshTokens();
  const revoke = $api.useMutation("delete", "/v1/user/tokens/{tokenId}", {
    onSuccess: async () => {
      await refresh();
      onRevoked();
    },
  });
  return (
    <>
      <p>{t("account.tokens.revokeIntro")}</p>
      {revoke.isError && <ErrorView error={revoke.error} />}
      <div className="dialog-actions">
        <button
          type="button"
          className="account-danger"
          disabled={revoke.isPending}
          onClick={() => revoke.mutate({ params: { path: { tokenId: token.id } } })}
        >
          {t("account.tokens.revoke")}
        </button>
        <button type="button" onClick={onCancel}>
          {t("account.cancel")}
        </button>
      </div>
    </>
  );
}
