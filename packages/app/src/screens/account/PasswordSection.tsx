import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { $api } from "../../api/client.js";
import { type MessageKey, t } from "../../i18n/index.js";
import { ChangeError, CurrentPasswordField } from "./fields.js";

/** The contract's `NewPassword`: 10 to 256 characters. */
const MIN_LENGTH = 10;
const MAX_LENGTH = 256;

/** What is wrong with the new password, checked before the server is asked; undefined when nothing. */
function problemOf(password: string, confirmation: string): MessageKey | undefined {
  if (password.length < MIN_LENGTH) return "account.password.tooShort";
  if (password.length > MAX_LENGTH) return "account.password.tooLong";
  if (password !== confirmation) return "account.password.mismatch";
  return undefined;
}

/** Changes the password; the server signs every other session out, so the session list is refreshed. */
export function PasswordSection() {
  const queryClient = useQueryClient();
  const [current, setCurrent] = useState("");
  const [password, setPassword] = useState("");
  const [confirmation, setConfirmation] = useState("");
  const [problem, setProblem] = useState<MessageKey>();
  const change = $api.useMutation("put", "/v1/user/password", {
    onSuccess: () => {
      setCurrent("");
      setPassword("");
      setConfirmation("");
      return queryClient.invalidateQueries({ queryKey: ["get", "/v1/user/sessions"] });
    },
  });
  const id = useId();
  const rules = { min: MIN_LENGTH, max: MAX_LENGTH };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = problemOf(password, confirmation);
    setProblem(found);
    change.reset();
    if (found) return;
    change.mutate({ body: { newPassword: password, ...(current !== "" && { currentPassword: current }) } });
  };

  return (
    <section className="account-section" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{t("account.nav.password")}</h2>
      <p>{t("account.password.intro")}</p>
      <form className="account-form" onSubmit={submit} noValidate>
        <CurrentPasswordField value={current} onChange={setCurrent} />
        <div className="account-field">
          <label htmlFor={`${id}-new`}>{t("account.password.new")}</label>
          <input
            id={`${id}-new`}
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            aria-invalid={problem === "account.password.tooShort" || problem === "account.password.tooLong"}
            aria-describedby={`${id}-rules`}
          />
          <p id={`${id}-rules`} className="account-hint">
            {t("account.password.rules", rules)}
          </p>
        </div>
        <div className="account-field">
          <label htmlFor={`${id}-confirm`}>{t("account.password.confirm")}</label>
          <input
            id={`${id}-confirm`}
            type="password"
            autoComplete="new-password"
            value={confirmation}
            onChange={(event) => setConfirmation(event.target.value)}
            aria-invalid={problem === "account.password.mismatch"}
          />
        </div>
        {problem && (
          <p className="error" role="alert">
            {t(problem, rules)}
          </p>
        )}
        {change.isError && <ChangeError error={change.error} forbidden={t("account.wrongPassword")} />}
        <div>
          <button type="submit" disabled={change.isPending}>
            {t("account.password.submit")}
          </button>
        </div>
        <p role="status">{change.isSuccess ? t("account.password.changed") : ""}</p>
      </form>
    </section>
  );
}
