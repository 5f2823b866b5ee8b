import { composeApi } from "./api";
import { ID_PARAMS } from "./http/api-router";
import { routeTable } from "./http/route-table";

const api = () =>
  composeApi(null, {
    identity: { verifyIdToken: async () => Promise.reject(new Error("not used")) },
    appCheck: { verifyAppCheckToken: async () => Promise.reject(new Error("not used")) },
  });

test("when the API's table is read, then it lists every product route once, with its method, pattern and parameters", () => {
  const table = routeTable(api());
  const keys = table.map((route) => `${route.method} ${route.path}`);
  expect(new Set(keys).size).toBe(keys.length);
  expect(keys).toEqual(
    expect.arrayContaining([
      "GET /v1/health",
      "GET /v1/installation",
      "POST /v1/organizations",
      "GET /v1/organizations/:organizationId/subscriptions/:subscriptionId",
      "DELETE /v1/organizations/:organizationId/secrets/:secretId",
      "POST /v1/organizations/:organizationId/secrets/:secretId\\:check",
      "POST /v1/organizations/:organizationId/recoveries",
      "POST /v1/organizations/:organizationId/recoveries/estimate",
      "POST /v1/payments/webhook",
    ]),
  );
  expect(table.find((route) => route.path.endsWith("/subscriptions/:subscriptionId"))?.params).toEqual([
    "organizationId",
    "subscriptionId",
  ]);
  // The escaped colon of `:check` is part of the path, not a parameter.
  expect(table.find((route) => route.path.endsWith("\\:check"))?.params).toEqual([
    "organizationId",
    "secretId",
  ]);
});

test("when the table is read, then only the payment webhook and sandbox page are reached without sign-in", () => {
  const open = routeTable(api())
    .filter((route) => route.public)
    .map((route) => `${route.method} ${route.path}`);
  expect(open.sort()).toEqual([
    "GET /v1/payments/sandbox/:checkoutId",
    "POST /v1/payments/sandbox/:checkoutId",
    "POST /v1/payments/webhook",
  ]);
});

test("when a route declares a path parameter, then it is one of the id parameters that apiRouter checks", () => {
  const params = new Set(routeTable(api()).flatMap((route) => route.params));
  expect(params.size).toBeGreaterThan(0);
  for (const param of params) expect(Object.keys(ID_PARAMS)).toContain(param);
});
