import { object, string, type InferType } from "yup";

/**
 * Payload of a `runBackup` task: one run of one resource. Task payloads are validated like request
 * bodies. The run (`backupRuns/{runId}`) says everything else; the task only points at it, so a duplicate
 * or late delivery finds the run's state and does nothing twice.
 */
export const backupTaskSchema = object({
  organizationId: string()
    .required()
    .matches(/^[A-Za-z0-9_-]{1,128}$/),
  resourceId: string()
    .required()
    .matches(/^[A-Za-z0-9_@.+-]{1,256}$/),
  runId: string()
    .required()
    .matches(/^[A-Za-z0-9_-]{1,128}$/),
}).noUnknown();

export type BackupTask = InferType<typeof backupTaskSchema>;
