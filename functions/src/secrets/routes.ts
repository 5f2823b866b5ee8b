import { Router } from "express";

/** Secrets (encryption keys, issue 5): the default key and customer Cloud KMS keys. */
export function secretRoutes(): Router {
  return Router();
}
