import { z } from "zod/mini";
import type { DamagedItem, ResourceIntegrity } from "../integrity";
import { count } from "./common";

export const damagedItemSchema: z.ZodMiniType<DamagedItem> = z.object({
  itemKey: z.string(),
  kind: z.enum(["gmail-message", "drive-file"]),
  name: z.string(),
  refetch: z.enum(["pending", "refetched", "gone"]),
});

export const resourceIntegritySchema: z.ZodMiniType<ResourceIntegrity> = z.object({
  state: z.enum(["ok", "damaged"]),
  checkedItems: count,
  damagedItems: count,
  verifiedAt: z.string(),
  damaged: z.array(damagedItemSchema),
});
