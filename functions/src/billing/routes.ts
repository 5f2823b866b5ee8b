import { Router } from "express";

/** Plans, subscription changes, storage, payments and the graceful period (issue 5). */
export function billingRoutes(): Router {
  return Router();
}
