/**
 * The policy form's rules (docs/requirements.md#validation), shared by the API and the web form. Apart from `policies.ts` so the
 * screens that only show policies do not load the validation library.
 */
import * as yup from "yup";
import {
  AVAILABLE_DATA_TYPES,
  COMING_SOON_DATA_TYPES,
  DATA_TYPES,
  FREQUENCIES,
  MAX_POLICY_NAME,
  MAX_RETENTION_DAYS,
  MIN_RETENTION_DAYS,
  POLICY_MESSAGES,
  SCHEDULES,
  WEEKDAYS,
  type DataType,
  type Frequency,
  type PolicyInput,
  type Schedule,
  type Weekday,
} from "./policies";

const dataType = yup
  .mixed<DataType>()
  .test("data-type", POLICY_MESSAGES.dataTypeUnknown, function check(value) {
    if ((COMING_SOON_DATA_TYPES as readonly unknown[]).includes(value)) {
      return this.createError({ message: POLICY_MESSAGES.dataTypeComingSoon });
    }
    return (AVAILABLE_DATA_TYPES as readonly unknown[]).includes(value);
  })
  .defined();

/**
 * docs/requirements.md#validation: the policy form's rules (exact texts), shared by the API and the web form. `strict` in the API
 * (no coercion of strings into numbers); the web form passes its values as they are.
 */
export const policySchema = yup
  .object({
    name: yup
      .string()
      .typeError(POLICY_MESSAGES.nameRequired)
      .required(POLICY_MESSAGES.nameRequired)
      .test(
        "name",
        POLICY_MESSAGES.nameRequired,
        // "" already fails `required`; this catches names of spaces only.
        (value) => typeof value !== "string" || value === "" || value.trim() !== "",
      )
      .test(
        "name-length",
        POLICY_MESSAGES.nameTooLong,
        (value) => typeof value !== "string" || value.trim().length <= MAX_POLICY_NAME,
      ),
    dataTypes: yup
      .array(dataType)
      .typeError(POLICY_MESSAGES.dataTypesRequired)
      .required(POLICY_MESSAGES.dataTypesRequired)
      .min(1, POLICY_MESSAGES.dataTypesRequired),
    frequency: yup
      .mixed<Frequency>()
      .required(POLICY_MESSAGES.frequencyRequired)
      .test("frequency", POLICY_MESSAGES.frequencyRequired, (value) =>
        (FREQUENCIES as readonly unknown[]).includes(value),
      ),
    schedule: yup
      .mixed<Schedule>()
      .required(POLICY_MESSAGES.scheduleRequired)
      .test("schedule", POLICY_MESSAGES.scheduleRequired, (value) =>
        (SCHEDULES as readonly unknown[]).includes(value),
      ),
    days: yup
      .array(
        yup
          .mixed<Weekday>()
          .defined()
          .test("weekday", POLICY_MESSAGES.scheduleRequired, (value) =>
            (WEEKDAYS as readonly unknown[]).includes(value),
          ),
      )
      .typeError(POLICY_MESSAGES.scheduleRequired)
      .default([])
      .when("schedule", {
        is: "days",
        then: (schema) => schema.min(1, POLICY_MESSAGES.scheduleRequired),
      }),
    retentionDays: yup
      .number()
      .typeError(POLICY_MESSAGES.retentionRequired)
      .required(POLICY_MESSAGES.retentionRequired)
      .integer(POLICY_MESSAGES.retentionRange)
      .min(MIN_RETENTION_DAYS, POLICY_MESSAGES.retentionRange)
      .max(MAX_RETENTION_DAYS, POLICY_MESSAGES.retentionRange),
    archiving: yup
      .boolean()
      .typeError(POLICY_MESSAGES.archivingRequired)
      .required(POLICY_MESSAGES.archivingRequired),
  })
  .noUnknown(POLICY_MESSAGES.unknownField);

/**
 * Validates a whole policy; answers the valid input (chosen days kept only for "days", in week order,
 * once each) or throws yup's ValidationError with the first failing rule's text.
 */
export function validatePolicy(value: unknown): PolicyInput {
  const valid = policySchema.validateSync(value, { strict: true, abortEarly: true });
  const chosen: readonly Weekday[] = valid.days ?? [];
  const days = valid.schedule === "days" ? WEEKDAYS.filter((day) => chosen.includes(day)) : [];
  return {
    name: valid.name.trim(),
    dataTypes: DATA_TYPES.filter((type) => valid.dataTypes.includes(type)),
    frequency: valid.frequency,
    schedule: valid.schedule,
    days,
    retentionDays: valid.retentionDays,
    archiving: valid.archiving,
  };
}
