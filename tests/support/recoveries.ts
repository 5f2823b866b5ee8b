/** Starting recoveries through the API and waiting for their end, as the web app does. */
import type { Recovery } from "@alpvault/contracts/recovery";
import type { OrganizationSummary } from "@alpvault/contracts/organizations";
import type { ApiCaller } from "./organizations";

export function recoveriesOf(call: ApiCaller, organization: OrganizationSummary) {
  const base = `/organizations/${organization.organizationId}/recoveries`;
  return {
    /** POST …/recoveries with the body as given. */
    start: (body: Record<string, unknown>) => call(base, { method: "POST", body }),
    /** Polls the recovery until it succeeded or failed (at most 2 minutes) and returns it. */
    async finished(recoveryId: string): Promise<Recovery> {
      const until = Date.now() + 120_000;
      for (;;) {
        const recovery = (await call(`${base}/${recoveryId}`)).body as Recovery;
        if (recovery.state === "succeeded" || recovery.state === "failed") return recovery;
        if (Date.now() > until)
          throw new Error(`Recovery ${recoveryId} did not finish: ${JSON.stringify(recovery)}`);
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    },
  };
}
