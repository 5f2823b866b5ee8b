import request from "supertest";
import { createApi } from "../http/app";
import { TEST_APP_CHECK_TOKEN, TEST_ID_TOKEN, testVerifiers } from "../http/test-verifiers";
import { systemRoutes } from "./routes";
import { systemService } from "./service";

function health(databaseAnswers: boolean): request.Test {
  const api = createApi({
    ...testVerifiers(),
    onRefused: () => Promise.resolve(),
    routers: [systemRoutes(systemService({ databaseAnswers: async () => databaseAnswers }))],
  });
  return request(api)
    .get("/v1/health")
    .set("Authorization", `Bearer ${TEST_ID_TOKEN}`)
    .set("X-Firebase-AppCheck", TEST_APP_CHECK_TOKEN);
}

test("when the database does not answer, then health is 503 with {code, message}", async () => {
  const answer = await health(false);
  expect(answer.status).toBe(503);
  expect(answer.body).toEqual({
    code: 503,
    message: "The database is unresponsive. Please try again later.",
  });
});

test("when the database answers, then health is ok with the caller", async () => {
  const answer = await health(true);
  expect(answer.status).toBe(200);
  expect(answer.body).toMatchObject({ status: "ok", user: { uid: "user-1", email: "anna@example.com" } });
});
