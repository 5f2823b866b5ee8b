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

/** A damaged item from stored or received data; undefined when malformed. */
export function decodeDamagedItem(value: unknown): DamagedItem | undefined {
  const result = damagedItemSchema.safeParse(value);
  return result.success ? result.data : undefined;
}

/**
 * A resource's last verification from stored or received data: null when there is none, undefined when it
 * is malformed (the caller decides: a repository reads it as none, the web as an unexpected answer).
 */
export function decodeResourceIntegrity(value: unknown): ResourceIntegrity | null | undefined {
  if (value === null || value === undefined) return null;
  const result = resourceIntegritySchema.safeParse(value);
  return result.success ? result.data : undefined;
}
