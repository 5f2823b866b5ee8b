/** Purchases through the API and the local sandbox payment page, as an admin and a tester make them. */
import type { CheckoutResponse, Purchase, SandboxOutcome } from "@alpvault/contracts/billing";
import type { ApiCaller } from "./organizations";
import { stackEnv } from "./stack-env";

export const RETURN_URL = `${stackEnv.webUrl}/plans`;

export async function startCheckout(call: ApiCaller, organizationId: string, purchase: Purchase) {
  const answer = await call(`/organizations/${organizationId}/checkout`, {
    method: "POST",
    body: { purchase, returnUrl: RETURN_URL },
  });
  expect(answer).toMatchObject({ status: 201 });
  return answer.body as CheckoutResponse;
}

/** The tester's choice on the sandbox checkout page (a form post, as the browser sends it). */
export async function choose(url: string, outcome: SandboxOutcome) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ outcome }).toString(),
    redirect: "manual",
  });
  return { status: response.status, location: response.headers.get("location") };
}
