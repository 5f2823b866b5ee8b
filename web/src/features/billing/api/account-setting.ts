import type { ZodMiniType } from "zod/mini";
import { api } from "@/lib/api-client";
import { decodeAnswer } from "@/lib/decode";

/** The account's on/off settings, each at `PUT /v1/organizations/{id}/settings/{setting}`. */
export type AccountSetting = "auto-add-seats" | "auto-add-storage";

/** Turns one of the account's settings on or off; the answer as its schema reads it. */
export async function putAccountSetting<T>(
  organizationId: string,
  setting: AccountSetting,
  enabled: boolean,
  schema: ZodMiniType<T>,
): Promise<T> {
  return decodeAnswer(
    schema,
    await api.put<unknown>(`/organizations/${encodeURIComponent(organizationId)}/settings/${setting}`, {
      enabled,
    }),
  );
}
