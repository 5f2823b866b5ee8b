/**
 * Purchases through the API and the local sandbox payment page, as an admin and a tester make them; what
 * the sandbox provider's subscriptions and the organisation's charges of automatic additions hold.
 */
import type { CheckoutResponse, Purchase, SandboxOutcome } from "@alpvault/contracts/billing";
import type { OrganizationSummary } from "@alpvault/contracts/organizations";
import { dispatch } from "./background";
import { withRegionDb, type ApiCaller } from "./organizations";
import { servedUrl } from "./regions";
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
  const response = await fetch(servedUrl(url), {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ outcome }).toString(),
    redirect: "manual",
  });
  return { status: response.status, location: response.headers.get("location") };
}

/** The subscription a sandbox checkout starts when it completes. */
export function sandboxSubscriptionOf(checkoutId: string): string {
  return `sub_sandbox_${checkoutId.replace(/^cs_sandbox_/, "")}`;
}

export interface StoredCharge {
  kind: string;
  state: string;
  item: { name: string; quantity: number; unitAmountUsd: number };
  subscriptionId?: string;
}

/** The organisation's charges of automatic additions (region database). */
export async function charges(organization: OrganizationSummary): Promise<(StoredCharge & { id: string })[]> {
  return withRegionDb(`region-${organization.subscriptions[0]?.region.id ?? "ch"}`, async (db) => {
    const snapshot = await db
      .collection("organizations")
      .doc(organization.organizationId)
      .collection("billingCharges")
      .get();
    return snapshot.docs.map((doc) => ({ id: doc.id, ...(doc.data() as StoredCharge) }));
  });
}

/** The sandbox payment provider's subscription (global database), as Stripe would bill it. */
export async function sandboxSubscription(subscriptionId: string) {
  return withRegionDb("(default)", async (db) => {
    const snapshot = await db.collection("paymentSubscriptions").doc(subscriptionId).get();
    return {
      status: snapshot.get("status") as string | undefined,
      items: snapshot.get("items") as { name: string; quantity: number; unitAmountUsd: number }[],
    };
  });
}

/** The dispatcher's run for the organisation (its charges job sends what is pending), then its charges. */
export async function chargesAfterDispatch(organization: OrganizationSummary): Promise<StoredCharge[]> {
  await dispatch(organization.organizationId);
  return charges(organization);
}
