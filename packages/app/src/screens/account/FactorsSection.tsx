import type { Schema } from "@quire/client";
import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { $api } from "../../api/client.js";
import { Dialog } from "../../components/Dialog.js";
import { DialogActions } from "../../components/DialogActions.js";
import { ErrorView, Loading } from "../../components/ErrorView.js";
import { t } from "../../i18n/index.js";
import { ChangeError, CurrentPasswordField } from "./fields.js";
import { formatTime } from "./format.js";
import { AccountList, ItemDialog, useItemAction } from "./items.js";
import { OneTimeSecret, RecoveryCodes, ShownOnce } from "./secrets.js";

type Factor = Schema<"Factor">;

const FACTORS = "/v1/user/factors";
/** The server's own security page, outside the app. */
const SECURITY_PAGE = "/account/security";

/** Refreshes the list of factors (and the count of recovery codes it carries). */
function useRefreshFactors() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ["get", FACTORS] });
}

/**
 * The person's second factors, each removable (with their password); an authenticator app set up here
 * through the contract's operations; passkeys added on the server's security page, whose script does
 * WebAuthn (a full page load).
 */
export function FactorsSection() {
  const factors = $api.useQuery("get", FACTORS);
  const refresh = useRefreshFactors();
  const startTotp = $api.useMutation("post", "/v1/user/factors/totp");
  const newCodes = $api.useMutation("post", "/v1/user/factors/recovery-codes", { onSuccess: refresh });
  const [settingUp, setSettingUp] = useState(false);
  const removing = useItemAction<Factor>();
  const id = useId();
  const hasTotp = factors.data?.items.some((factor) => factor.kind === "totp") ?? false;

  return (
    <section className="account-section" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{t("account.nav.factors")}</h2>
      <p>{t("account.factors.intro")}</p>
      {factors.isPending && <Loading />}
      {factors.isError && <ErrorView error={factors.error} />}
      {factors.data &&
        (factors.data.items.length === 0 ? (
          <p>{t("account.factors.none")}</p>
        ) : (
          <>
            <AccountList
              id={id}
              items={factors.data.items}
              action={t("account.factors.remove")}
              onAction={removing.start}
              text={(factor) => (
                <>
                  <p className="account-item-title">
                    {factor.name}
                    <span className="account-badge">{t(`account.factors.kind.${factor.kind}`)}</span>
                  </p>
                  <p className="account-item-detail">
                    {t("account.factors.added", { time: formatTime(factor.createdAt) })}
                    {factor.lastUsedAt &&
                      `, ${t("account.factors.lastUsed", { time: formatTime(factor.lastUsedAt) })}`}
                  </p>
                </>
              )}
            />
            <p>{t("account.factors.recoveryLeft", { count: factors.data.recoveryCodesLeft })}</p>
            <button type="button" disabled={newCodes.isPending} onClick={() => newCodes.mutate({})}>
              {t("account.factors.newCodes")}
            </button>
            {newCodes.isError && <ErrorView error={newCodes.error} />}
            {newCodes.data && (
              <>
                <h3>{t("account.factors.codes")}</h3>
                <p>{t("account.factors.codesIntro")}</p>
                <RecoveryCodes codes={newCodes.data.codes} />
              </>
            )}
          </>
        ))}
      <p role="status">{removing.said}</p>

      <h3>{t("account.factors.add")}</h3>
      {factors.data &&
        (hasTotp ? (
          <p>{t("account.factors.totpOn")}</p>
        ) : (
          <button
            type="button"
            onClick={() => {
              startTotp.mutate({});
              setSettingUp(true);
            }}
          >
            {t("account.factors.setUpTotp")}
          </button>
        ))}
      <p>
        {/* The server's page (a full page load): the app has no WebAuthn code of its own. */}
        <a href={SECURITY_PAGE}>{t("account.factors.addPasskey")}</a>
      </p>

      <Dialog open={settingUp} onClose={() => setSettingUp(false)} title={t("account.factors.setUpTotp")}>
        {startTotp.isPending && <Loading />}
        {startTotp.isError && <ErrorView error={startTotp.error} />}
        {startTotp.data ? (
          <ConfirmTotp setup={startTotp.data} onClose={() => setSettingUp(false)} />
        ) : (
          <div className="dialog-actions">
            <button type="button" onClick={() => setSettingUp(false)}>
              {t("account.cancel")}
            </button>
          </div>
        )}
      </Dialog>
      <ItemDialog
        action={removing}
        title={(factor) => t("account.factors.removeTitle", { name: factor.name })}
      >
        {(factor) => (
          <RemoveFactor
            factor={factor}
            onCancel={removing.cancel}
            onRemoved={() => removing.done(t("account.factors.removed"))}
          />
        )}
      </ItemDialog>
    </section>
  );
}

/** The secret of an authenticator app being set up, and the form turning it on with one of its codes. */
function ConfirmTotp({ setup, onClose }: { setup: Schema<"TotpSetup">; onClose: () => void }) {
  const refresh = useRefreshFactors();
  const confirm = $api.useMutation("post", "/v1/user/factors/totp/confirm", { onSuccess: refresh });
  const [code, setCode] = useState("");
  const [name, setName] = useState("");
  const [badCode, setBadCode] = useState(false);
  const id = useId();

  if (confirm.data)
    return (
      <ShownOnce onClose={onClose}>
        <p role="status">{t("account.factors.totpAdded")}</p>
        <RecoveryCodes codes={confirm.data.codes} />
      </ShownOnce>
    );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const digits = code.replace(/\s/g, "");
    const bad = !/^[0-9]{6}$/.test(digits);
    setBadCode(bad);
    if (!bad) confirm.mutate({ body: { code: digits, ...(name.trim() !== "" && { name: name.trim() }) } });
  };
  return (
    <form className="account-form" onSubmit={submit} noValidate>
      <p>{t("account.factors.totpSteps")}</p>
      <OneTimeSecret label={t("account.factors.secret")} value={setup.secret} />
      <OneTimeSecret label={t("account.factors.uri")} value={setup.uri} />
      <div className="account-field">
        <label htmlFor={`${id}-code`}>{t("account.factors.code")}</label>
        <input
          id={`${id}-code`}
          inputMode="numeric"
          autoComplete="one-time-code"
          value={code}
          onChange={(event) => setCode(event.target.value)}
          aria-invalid={badCode}
          aria-describedby={`${id}-code-hint`}
        />
        <p id={`${id}-code-hint`} className="account-hint">
          {t("account.factors.codeHint")}
        </p>
      </div>
      <div className="account-field">
        <label htmlFor={`${id}-name`}>{t("account.factors.name")}</label>
        <input
          id={`${id}-name`}
          value={name}
          maxLength={100}
          placeholder={t("account.factors.kind.totp")}
          onChange={(event) => setName(event.target.value)}
        />
      </div>
      {badCode && (
        <p className="error" role="alert">
          {t("account.factors.badCode")}
        </p>
      )}
      {confirm.isError && <ErrorView error={confirm.error} />}
      <DialogActions
        submitLabel={t("account.factors.turnOn")}
        pending={confirm.isPending}
        onCancel={onClose}
      />
    </form>
  );
}

/** Removes `factor` once the person gives their current password. */
function RemoveFactor({
  factor,
  onCancel,
  onRemoved,
}: {
  factor: Factor;
  onCancel: () => void;
  onRemoved: () => void;
}) {
  const refresh = useRefreshFactors();
  const remove = $api.useMutation("delete", "/v1/user/factors/{factorId}", {
    onSuccess: async () => {
      await refresh();
      onRemoved();
    },
  });
  const [password, setPassword] = useState("");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    remove.mutate({
      params: { path: { factorId: factor.id } },
      body: password === "" ? {} : { currentPassword: password },
    });
  };
  return (
    <form className="account-form" onSubmit={submit} noValidate>
      <p>{t("account.factors.removeIntro")}</p>
      <CurrentPasswordField value={password} onChange={setPassword} />
      {remove.isError && (
        <ChangeError
          error={remove.error}
          forbidden={t(password === "" ? "account.factors.signInAgain" : "account.wrongPassword")}
        />
      )}
      <DialogActions
        submitLabel={t("account.factors.remove")}
        pending={remove.isPending}
        onCancel={onCancel}
        submitClass="account-danger"
      />
    </form>
  );
}
