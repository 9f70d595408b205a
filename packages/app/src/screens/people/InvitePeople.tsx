import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { $api } from "../../api/client.js";
import { Dialog } from "../../components/Dialog.js";
import { DialogActions } from "../../components/DialogActions.js";
import { ErrorView } from "../../components/ErrorView.js";
import { type Role, RoleSelect } from "../../components/RoleSelect.js";
import { t } from "../../i18n/index.js";
import { useShell } from "../../layout/shell-context.js";
import { DEFAULT_ROLE, parseEmails } from "./logic.js";
import { MEMBERS } from "./members.js";

/**
 * The "Invite people" button and its dialog: one or several email addresses and a role. The server
 * makes them members at once and mails each a link to join; the outcome is told beside the button.
 */
export function InvitePeople({ organizationId }: { organizationId: string }) {
  const { organization } = useShell();
  const [open, setOpen] = useState(false);
  const [done, setDone] = useState<string>();
  return (
    <div className="invite-people">
      <button type="button" onClick={() => setOpen(true)}>
        {t("people.invite.button")}
      </button>
      <p role="status" className="people-status">
        {done}
      </p>
      <Dialog open={open} onClose={() => setOpen(false)} title={t("people.invite.button")}>
        <InviteForm
          organizationId={organizationId}
          defaultRole={organization.defaultRole ?? DEFAULT_ROLE}
          onSent={(message) => {
            setDone(message);
            setOpen(false);
          }}
          onCancel={() => setOpen(false)}
        />
      </Dialog>
    </div>
  );
}

function InviteForm({
  organizationId,
  defaultRole,
  onSent,
  onCancel,
}: {
  organizationId: string;
  defaultRole: Role | null;
  onSent: (message: string) => void;
  onCancel: () => void;
}) {
  const queryClient = useQueryClient();
  const invite = $api.useMutation("post", "/v1/orgs/{organizationId}/invites", {
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["get", MEMBERS] }),
  });
  const [text, setText] = useState("");
  const [role, setRole] = useState(defaultRole);
  const [mistake, setMistake] = useState<string>();
  const id = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const { emails, invalid } = parseEmails(text);
    if (invalid.length > 0) return setMistake(t("people.invite.invalid", { emails: invalid.join(", ") }));
    if (emails.length === 0) return setMistake(t("people.invite.empty"));
    setMistake(undefined);
    invite.mutate(
      { params: { path: { organizationId } }, body: { emails, role, sso: false } },
      {
        onSuccess: (result) =>
          onSent(
            result.invited === 0
              ? t("people.invite.noneNew")
              : t("people.invite.sent", { count: result.invited }),
          ),
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate>
      <label htmlFor={`${id}-emails`}>{t("people.invite.emails")}</label>
      <textarea
        id={`${id}-emails`}
        value={text}
        rows={3}
        onChange={(event) => setText(event.target.value)}
        aria-describedby={`${id}-hint${mistake ? ` ${id}-mistake` : ""}`}
        aria-invalid={mistake !== undefined}
        // biome-ignore lint/a11y/noAutofocus: the dialog opens to type the addresses
        autoFocus
      />
      <p id={`${id}-hint`} className="hint">
        {t("people.invite.hint")}
      </p>
      {mistake && (
        <p id={`${id}-mistake`} className="error" role="alert">
          {mistake}
        </p>
      )}
      <RoleSelect label={t("people.role")} value={role} onChange={setRole} guest showLabel />
      {invite.error != null && <ErrorView error={invite.error} />}
      <DialogActions submitLabel={t("people.invite.send")} pending={invite.isPending} onCancel={onCancel} />
    </form>
  );
}
