import { type Router } from "express";
import { apiRouter } from "../http/api-router";
import type { HealthResponse } from "@alpvault/contracts/health";
import { APP_VERSION } from "@alpvault/contracts/version";
import { callerOf } from "../http/authenticate";
import { systemService, type SystemService } from "./service";

export function systemRoutes(service: SystemService = systemService()): Router {
  const router = apiRouter();
  router.get("/health", async (_request, response) => {
    await service.assertHealthy();
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
