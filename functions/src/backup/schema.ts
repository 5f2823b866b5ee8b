import { object, string, type InferType } from "yup";

/** Payload of a `runBackup` task. Task payloads are validated like request bodies. */
export const backupTaskSchema = object({
  organizationId: string()
    .required()
    .matches(/^[A-Za-z0-9_-]{1,128}$/),
  resourceId: string()
    .required()
    .matches(/^[A-Za-z0-9_@.+-]{1,256}$/),
  reason: string().oneOf(["scheduled", "manual", "policy-assigned"]).required(),
}).noUnknown();

export type BackupTask = InferType<typeof backupTaskSchema>;
