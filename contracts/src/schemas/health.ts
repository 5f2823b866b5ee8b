import { z } from "zod/mini";
import type { HealthResponse } from "../health";

export const healthResponseSchema: z.ZodMiniType<HealthResponse> = z.object({
  status: z.literal("ok"),
  version: z.string(),
  /** A caller without an email (a service account) is shown without one. */
  user: z.object({ uid: z.string(), email: z.catch(z.nullable(z.string()), null) }),
});
