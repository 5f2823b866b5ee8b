import { Router } from "express";
import type { HealthResponse } from "@alpvault/contracts/health";
import { APP_VERSION } from "@alpvault/contracts/version";
import { AppError } from "../http/app-error";
import { callerOf } from "../http/authenticate";
import { databaseAnswers } from "./repo";

const DATABASE_TIMEOUT_MS = 5000;

export function systemRoutes(deps: { databaseAnswers: typeof databaseAnswers } = { databaseAnswers }): Router {
  const router = Router();
  router.get("/health", async (_request, response) => {
    if (!(await deps.databaseAnswers(DATABASE_TIMEOUT_MS))) {
      throw AppError.unavailable("The database is unresponsive. Please try again later.");
    }
    const caller = callerOf(response);
    const body: HealthResponse = {
      status: "ok",
      version: APP_VERSION,
      user: { uid: caller.uid, email: caller.email },
    };
    response.json(body);
  });
  return router;
}
