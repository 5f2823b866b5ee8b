/** What API tests of policies share: a valid paid-plan policy ("Gold": mail and Drive, weekdays, 90 days). */
import type { PolicyInput } from "@alpvault/contracts/policies";

export const GOLD: PolicyInput = {
  name: "Gold",
  dataTypes: ["emails", "drive"],
  frequency: 1,
  schedule: "weekdays",
  days: [],
  retentionDays: 90,
  archiving: true,
};
