import { Router } from "express";

/** Backup policies (issue 5): CRUD, plan rules, assignment to resources. */
export function policyRoutes(): Router {
  return Router();
}
