/** `GET /v1/health` answer. */
export interface HealthResponse {
  status: "ok";
  version: string;
  /** The authenticated caller, when the request carried valid credentials. */
  user: { uid: string; email: string | null } | null;
}
