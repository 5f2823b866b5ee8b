/**
 * The recovery request's rules (docs/requirements.md#validation recovery validation), shared by the browser and the API. Apart from
 * `recovery.ts` so the screens that only show recoveries do not load the validation library.
 */
import * as yup from "yup";
import { isId } from "./ids";
import { RECOVERY_MESSAGES, RECOVERY_SERVICES } from "./recovery";
import { SEARCH_MESSAGES, testSearchDate } from "./search";

export const recoveryRequestSchema = yup
  .object({
    resourceId: yup
      .string()
      .trim()
      .required(RECOVERY_MESSAGES.resourceNotFound)
      .test("id", RECOVERY_MESSAGES.resourceNotFound, (value) => isId(value)),
    service: yup.string().oneOf(RECOVERY_SERVICES).required(),
    /** Items to recover (catalog item ids); absent: everything of the service. */
    itemIds: yup
      .array(
        yup
          .string()
          .required()
          .test("id", RECOVERY_MESSAGES.itemNotFound, (value) => isId(value)),
      )
      .max(1000)
      .optional(),
    location: yup
      .string()
      .oneOf(["original", "other"] as const)
      .required(),
    targetResourceId: yup
      .string()
      .trim()
      .when("location", {
        is: "other",
        then: (schema) =>
          schema
            .required(RECOVERY_MESSAGES.targetRequired)
            .test("id", RECOVERY_MESSAGES.resourceNotFound, (value) => isId(value)),
        otherwise: (schema) => schema.optional(),
      }),
    method: yup
      .string()
      .oneOf(["folder", "overwrite"] as const)
      .required(),
    folderName: yup
      .string()
      .trim()
      .when("method", {
        is: "folder",
        then: (schema) =>
          schema
            .required(RECOVERY_MESSAGES.folderRequired)
            .matches(/^[A-Za-z0-9_-]+$/, RECOVERY_MESSAGES.folderCharacters),
        otherwise: (schema) => schema.optional(),
      }),
    permissions: yup.boolean().default(false),
    /**
     * MM-DD-YYYY (the search card's date): recover the items as the backups held them at the end of that
     * day (UTC), each at its version of then; absent: as backed up last.
     */
    date: yup.string().trim().optional().test("date", SEARCH_MESSAGES.invalidDate, testSearchDate),
  })
  .noUnknown();

export type RecoveryRequest = yup.InferType<typeof recoveryRequestSchema>;
