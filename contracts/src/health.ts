/** `GET /v1/health` answer: the API is up, its database answers, and who is calling. */
export interface HealthResponse {
  status: "ok";
  version: string;
  user: { uid: string; email: string | null };
}
