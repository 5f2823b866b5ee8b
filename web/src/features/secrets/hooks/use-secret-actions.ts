import { useState } from "react";
import { useTranslation } from "react-i18next";
import { SECRET_MESSAGES, type Secret } from "@alpvault/contracts/secrets";
import { useSnackbar } from "@/lib/snackbar";
import { asApiError } from "@/lib/query";
import { useCheckSecret } from "../api/check-secret";
import { useCreateSecret } from "../api/create-secret";
import { useDeleteSecret } from "../api/delete-secret";
import { useSetDefaultSecret } from "../api/set-default-secret";
import { useUpdateSecret } from "../api/update-secret";
import type { SecretFormValues } from "../components/secret-dialog";

/** The dialog state: adding (`secret` null) or editing one secret; kept while the dialog closes. */
export interface Editing {
  open: boolean;
  secret: Secret | null;
}

/**
 * The secrets screen's writes and their dialogs' state: add or edit (reporting a key Cloud KMS cannot
 * use), make default, check against Cloud KMS and delete, each answered in the snackbar.
 */
export function useSecretActions(organizationId: string | null) {
  const { t } = useTranslation();
  const { show } = useSnackbar();
  const create = useCreateSecret();
  const update = useUpdateSecret();
  const remove = useDeleteSecret();
  const setDefault = useSetDefaultSecret();
  const check = useCheckSecret();
  const [editing, setEditing] = useState<Editing>({ open: false, secret: null });
  const [deleting, setDeleting] = useState<Secret | null>(null);

  const busy = create.pending || update.pending || remove.pending || setDefault.pending || check.pending;
  const fail = (error: unknown) => show({ text: asApiError(error).message, isError: true });

  /** After an add or edit: success, or the key's problem when Cloud KMS said it cannot be used. */
  const reportSaved = (secret: Secret, text: string) => {
    const problem = secret.lastCheck && secret.lastCheck.health !== "ok" ? secret.lastCheck.message : null;
    show(problem ? { text: `${text}. ${problem}`, isError: true } : { text, isError: false });
  };

  const closeEditor = () => setEditing((previous) => ({ ...previous, open: false }));

  const save = async (values: SecretFormValues) => {
    if (!organizationId || !editing.open) return;
    try {
      if (editing.secret) {
        const saved = await update.run(organizationId, editing.secret.secretId, {
          description: values.description,
          kmsResourceName: values.kmsResourceName,
        });
        reportSaved(saved, SECRET_MESSAGES.updated);
      } else {
        const saved = await create.run(organizationId, values);
        reportSaved(saved, SECRET_MESSAGES.added);
      }
      closeEditor();
    } catch (error) {
      fail(error);
      throw error;
    }
  };

  const makeDefault = (secret: Secret) => {
    if (!organizationId) return;
    setDefault.run(organizationId, secret.secretId).then(() => {
      show({ text: t("secrets.defaultUpdated", { description: secret.description }), isError: false });
    }, fail);
  };

  const runCheck = (secret: Secret) => {
    if (!organizationId) return;
    check.run(organizationId, secret.secretId).then((checked) => {
      const ok = checked.lastCheck?.health === "ok";
      show({
        text: ok
          ? t("secrets.checked", { description: checked.description })
          : (checked.lastCheck?.message ?? SECRET_MESSAGES.notUsableAsDefault),
        isError: !ok,
      });
    }, fail);
  };

  const confirmDelete = () => {
    if (!organizationId || !deleting) return;
    remove.run(organizationId, deleting.secretId).then(
      () => {
        setDeleting(null);
        show({ text: SECRET_MESSAGES.deleted, isError: false });
      },
      (error: unknown) => {
        setDeleting(null);
        fail(error);
      },
    );
  };

  return {
    busy,
    editing,
    deleting,
    savePending: create.pending || update.pending,
    deletePending: remove.pending,
    startAdd: () => setEditing({ open: true, secret: null }),
    startEdit: (secret: Secret) => setEditing({ open: true, secret }),
    closeEditor,
    save,
    makeDefault,
    runCheck,
    startDelete: (secret: Secret) => setDeleting(secret),
    cancelDelete: () => setDeleting(null),
    confirmDelete,
  };
}

export type SecretActions = ReturnType<typeof useSecretActions>;
