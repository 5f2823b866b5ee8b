import { useFormik } from "formik";
import { SERVICES } from "@alpvault/contracts/services";
import { useState } from "react";
import type { Resource } from "@alpvault/contracts/organizations";
import type { Recovery, RecoveryService } from "@alpvault/contracts/recovery";
import { recoveryRequestSchema, type RecoveryRequest } from "@alpvault/contracts/recovery-request";
import { asApiError } from "@/lib/query";
import { useStartRecovery } from "../api/start-recovery";
import { useResourceChoices, type LoadResources } from "./use-resource-choices";

/** What the modal recovers: a resource's selected items, or everything of a service. */
export interface RecoveryTarget {
  resourceId: string;
  /** How the modal names the resource (its name, with its email when it has one). */
  resourceName: string;
  /** The services to choose from (the first is chosen); one service means no choice. */
  services: readonly RecoveryService[];
  /** Catalog item ids (the search results' `itemId`); absent: everything of the service. */
  itemIds?: string[];
  /** MM-DD-YYYY: the items as the backups held them at the end of that day; absent: as backed up last. */
  date?: string;
}

export interface RecoveryFormValues {
  resourceId: string;
  service: RecoveryService;
  itemIds?: string[];
  location: "original" | "other";
  targetResourceId: string;
  method: "folder" | "overwrite";
  folderName: string;
  permissions: boolean;
  date?: string;
}

type FieldName = "targetResourceId" | "folderName";

function initialValues(target: RecoveryTarget): RecoveryFormValues {
  return {
    resourceId: target.resourceId,
    service: target.services[0] ?? "gmail",
    ...(target.itemIds ? { itemIds: target.itemIds } : {}),
    location: "original",
    targetResourceId: "",
    method: "folder",
    folderName: "",
    permissions: false,
    ...(target.date ? { date: target.date } : {}),
  };
}

/** The request of the form's values: only the fields its choices use. */
export function requestOf(values: RecoveryFormValues): RecoveryRequest {
  return {
    resourceId: values.resourceId,
    service: values.service,
    ...(values.itemIds ? { itemIds: values.itemIds } : {}),
    location: values.location,
    ...(values.location === "other" ? { targetResourceId: values.targetResourceId } : {}),
    method: values.method,
    ...(values.method === "folder" ? { folderName: values.folderName.trim() } : {}),
    permissions: SERVICES[values.service].restoresSharing && values.permissions,
    ...(values.date ? { date: values.date } : {}),
  };
}

/** Another resource able to receive the service's data: mail goes to a mailbox. */
const canReceive = (resource: Resource, values: RecoveryFormValues) =>
  resource.resourceId !== values.resourceId &&
  (!SERVICES[values.service].needsMailbox || resource.email !== null);

export const resourceLabel = (resource: Resource) =>
  resource.email ? `${resource.name} (${resource.email})` : resource.name;

/**
 * The recovery form: formik with the rules and texts the API checks with, the resources another-resource
 * may pick from (loaded once that location is chosen), and the start of the recovery; what the API
 * refuses is kept as `apiError`.
 */
export function useRecoveryForm(
  organizationId: string | null,
  target: RecoveryTarget,
  loadResources: LoadResources,
  /** The recovery the API started, and the other resource it goes to (its label), if any. */
  onStarted: (recovery: Recovery, targetName: string | null) => void,
) {
  const start = useStartRecovery();
  const [apiError, setApiError] = useState<string | null>(null);
  const form = useFormik<RecoveryFormValues>({
    initialValues: initialValues(target),
    validationSchema: recoveryRequestSchema,
    onSubmit: async (values) => {
      if (organizationId === null) return;
      setApiError(null);
      try {
        const recovery = await start.run(organizationId, requestOf(values));
        // `chosen` is the target picked in the field below (read when the form is submitted).
        onStarted(recovery, values.location === "other" && chosen ? resourceLabel(chosen) : null);
      } catch (error) {
        setApiError(asApiError(error).message);
      }
    },
  });
  const { values } = form;
  const choices = useResourceChoices(organizationId, loadResources, values.location === "other");
  const options = (choices.data ?? []).filter((resource) => canReceive(resource, values));
  const chosen = options.find((resource) => resource.resourceId === values.targetResourceId) ?? null;
  const shown = (field: FieldName): string | undefined => {
    const error = form.errors[field];
    return (form.submitCount > 0 || form.touched[field]) && typeof error === "string" ? error : undefined;
  };

  const changeService = (service: RecoveryService) => {
    void form.setFieldValue("service", service);
    // A shared drive cannot receive mail: a target chosen for Drive goes when Gmail is chosen.
    const kept = (choices.data ?? []).find((resource) => resource.resourceId === values.targetResourceId);
    if (SERVICES[service].needsMailbox && kept && kept.email === null) {
      void form.setFieldValue("targetResourceId", "");
    }
  };

  return {
    form,
    apiError,
    choices,
    options,
    chosen,
    shown,
    busy: start.pending || form.isSubmitting,
    changeService,
  };
}

export type RecoveryFormState = ReturnType<typeof useRecoveryForm>;
