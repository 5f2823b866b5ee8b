import { z } from "zod";
import type { HealthResponse } from "../health";

export const healthResponseSchema: z.ZodType<HealthResponse> = z.object({
  status: z.literal("ok"),
  version: z.string(),
  /** A caller without an email (a service account) is shown without one. */
  user: z.object({ uid: z.string(), email: z.string().nullable().catch(null) }),
});
