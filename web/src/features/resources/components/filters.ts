/** The resources list's filters (`FilterMenu`). */
export interface ResourceFilters {
  policyId: string;
  type: "" | "email" | "shared_drive";
  protection: "" | "protected" | "unprotected";
}

export const NO_FILTERS: ResourceFilters = { policyId: "", type: "", protection: "" };

export interface PolicyOption {
  policyId: string;
  name: string;
}
