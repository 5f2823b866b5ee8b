import { z } from "zod";
import { PLAN_IDS } from "../plans";

export const planIdSchema = z.enum(PLAN_IDS);
