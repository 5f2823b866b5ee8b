import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { Policy, PolicyInput } from "@alpvault/contracts/policies";
import { useSnackbar } from "@/lib/snackbar";
import { asApiError } from "@/lib/query";
import { useCreatePolicy } from "../api/create-policy";
import { useDeletePolicy } from "../api/delete-policy";
import { useUpdatePolicy } from "../api/update-policy";

/** The dialog state: creating (null) or editing one policy; kept while the dialog fades out. */
interface Editing {
  open: boolean;
  policy: Policy | null;
}

/** The policies screen's writes and their dialogs' state: create or edit, and delete, answered in the snackbar. */
export function usePolicyActions(organizationId: string | null) {
  const { t } = useTranslation();
  const { show } = useSnackbar();
  const create = useCreatePolicy();
  const update = useUpdatePolicy();
  const remove = useDeletePolicy();
  const [editing, setEditing] = useState<Editing>({ open: false, policy: null });
  const [deleting, setDeleting] = useState<Policy | null>(null);
  const fail = (error: unknown) => show({ text: asApiError(error).message, isError: true });
  const closeEditor = () => setEditing((current) => ({ ...current, open: false }));

  const save = async (input: PolicyInput) => {
    if (!organizationId || !editing.open) return;
    try {
      if (editing.policy) await update.run(organizationId, editing.policy.policyId, input);
      else await create.run(organizationId, input);
    } catch (error) {
      fail(error);
      throw error;
    }
    show({ text: editing.policy ? t("policies.updated") : t("policies.added"), isError: false });
    closeEditor();
  };

  const confirmDelete = () => {
    if (!organizationId || !deleting) return;
    remove.run(organizationId, deleting.policyId).then(
      () => {
        show({ text: t("policies.deleted"), isError: false });
        setDeleting(null);
      },
      (error: unknown) => {
        setDeleting(null);
        fail(error);
      },
    );
  };

  return {
    editing,
    deleting,
    saving: create.pending || update.pending,
    deletePending: remove.pending,
    startCreate: () => setEditing({ open: true, policy: null }),
    startEdit: (policy: Policy) => setEditing({ open: true, policy }),
    closeEditor,
    save,
    startDelete: (policy: Policy) => setDeleting(policy),
    cancelDelete: () => setDeleting(null),
    confirmDelete,
  };
}
