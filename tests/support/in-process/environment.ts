/**
 * The Functions emulator's environment for the product run in the test's own process (`functions-env.ts`),
 * in place before any module of the product loads.
 */
import { applyFunctionsEnv } from "./functions-env";

applyFunctionsEnv();
