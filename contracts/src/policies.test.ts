import {
  POLICY_MESSAGES,
  dataTypeDenial,
  frequencyDenial,
  planAllowsDataType,
  planAllowsFrequency,
  policyPlanDenial,
  type PolicyInput,
} from "./policies";
import { policySchema, validatePolicy } from "./policy-request";

const VALID: PolicyInput = {
  name: "Gold",
  dataTypes: ["drive", "emails"],
  frequency: 3,
  schedule: "days",
  days: ["friday", "monday"],
  retentionDays: 30,
  archiving: false,
};

const firstError = (value: unknown): string => {
  try {
    validatePolicy(value);
    return "valid";
  } catch (error) {
    return (error as { errors: string[] }).errors[0] ?? "";
  }
};

test("when a policy is valid, then it comes back trimmed, with data types and days in their fixed order", () => {
  expect(validatePolicy({ ...VALID, name: " Gold " })).toEqual({
    ...VALID,
    dataTypes: ["emails", "drive"],
    days: ["monday", "friday"],
  });
  expect(validatePolicy({ ...VALID, schedule: "weekends" }).days).toEqual([]);
});

test("when a rule of docs/requirements.md#validation is broken, then the first error is its exact text", () => {
  expect(firstError({ ...VALID, name: " " })).toBe("Please provide a policy name");
  expect(firstError({ ...VALID, dataTypes: [] })).toBe("Please select at least one data type");
  expect(firstError({ ...VALID, frequency: undefined })).toBe("Please specify a backup frequency");
  expect(firstError({ ...VALID, schedule: undefined })).toBe("Please specify a backup schedule");
  expect(firstError({ ...VALID, days: [] })).toBe(POLICY_MESSAGES.scheduleRequired);
  expect(firstError({ ...VALID, dataTypes: ["chats"] })).toBe(POLICY_MESSAGES.dataTypeComingSoon);
  expect(firstError({ ...VALID, dataTypes: ["contacts", "calendars"] })).toBe("valid");
});

test("when the web form validates its values (not strict), then an empty form shows all four texts", async () => {
  const errors = await policySchema
    .validate(
      { name: "", dataTypes: [], frequency: "", schedule: "", days: [], retentionDays: 30, archiving: false },
      { abortEarly: false },
    )
    .then(
      () => [],
      (error: { errors: string[] }) => error.errors,
    );
  expect([...errors].sort()).toEqual(
    [
      POLICY_MESSAGES.nameRequired,
      POLICY_MESSAGES.dataTypesRequired,
      POLICY_MESSAGES.frequencyRequired,
      POLICY_MESSAGES.scheduleRequired,
    ].sort(),
  );
});

test("when a plan meets a frequency, then 3 a day needs Geneva and 24 needs Zürich", () => {
  expect(planAllowsFrequency("matterhorn", 1)).toBe(true);
  expect(frequencyDenial("matterhorn", 3)).toBe(POLICY_MESSAGES.frequency3);
  expect(frequencyDenial("geneva", 3)).toBeNull();
  expect(frequencyDenial("geneva", 24)).toBe(POLICY_MESSAGES.frequency24);
  expect(frequencyDenial("zurich", 24)).toBeNull();
});

test("when a policy backs up contacts or calendars, then only the Zürich plan allows it, with the rule's text", () => {
  expect(planAllowsDataType("matterhorn", "emails")).toBe(true);
  expect(planAllowsDataType("geneva", "drive")).toBe(true);
  expect(planAllowsDataType("geneva", "contacts")).toBe(false);
  expect(planAllowsDataType("zurich", "calendars")).toBe(true);
  expect(dataTypeDenial("geneva", ["emails", "calendars"])).toBe(POLICY_MESSAGES.dataTypePlan);
  expect(dataTypeDenial("zurich", ["emails", "calendars", "contacts"])).toBeNull();
  expect(policyPlanDenial("geneva", { frequency: 24, dataTypes: ["contacts"] })).toBe(
    POLICY_MESSAGES.frequency24,
  );
  expect(policyPlanDenial("geneva", { frequency: 3, dataTypes: ["contacts"] })).toBe(
    POLICY_MESSAGES.dataTypePlan,
  );
  expect(policyPlanDenial("geneva", { frequency: 3, dataTypes: ["drive"] })).toBeNull();
});
