import { z } from "zod/mini";
import { PLAN_IDS } from "../plans";

export const planIdSchema = z.enum(PLAN_IDS);
