/**
 * The Workspace emulator's public entry: what the local stack, benches and tests use. Anything else under
 * `src/` is internal (lint refuses a deep import from outside the emulator).
 */
export { ManualClock, SYSTEM_CLOCK, type Clock } from "../../kit/src/index";
export { DEFAULT_GRANTED_SCOPES, GMAIL_AND_DRIVE_SCOPES, SCOPES, type ServiceAccountKey } from "./auth";
export {
  addAwkwardCalendar,
  type AwkwardCalendarOptions,
  type AwkwardCalendarResult,
} from "./calendar/generator";
export { emulatorJwt, type ServiceAccountCredentials } from "./client";
export { MARKETPLACE_APPLICATION_ID } from "./directory/routes";
export { numericId } from "./directory/store";
export { unzip } from "./drive/unzip";
export { seededRandom, type FaultRuleInput } from "./faults";
export {
  DEMO_ORGANISATION_SUMMARY,
  applyPlan,
  generateOrganisation,
  planOrganisation,
  type ApplyResult,
  type PlanOptions,
} from "./generator/generate";
export { testMessage } from "./gmail/testing-messages";
export { addAwkwardPeople, type AwkwardPeopleOptions } from "./people/awkward";
export { QuotaTracker } from "./quota";
export {
  DRIVE_UPLOAD_BYTES_PER_USER_PER_DAY,
  GMAIL_UNITS_PER_PROJECT_PER_DAY,
  QUOTA_MODELS,
  type QuotaStats,
} from "./quota-models";
export { startWorkspaceEmulator, type RunningWorkspaceEmulator } from "./server";
export { TEST_ADMIN, TEST_DOMAIN, TEST_USER, startHarness, type Harness } from "./testing/harness";
