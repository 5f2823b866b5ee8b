/**
 * What Alpvault's installation grants, service by service (docs/api.md "Onboarding and organisations",
 * `GET …/access`): Google is asked for a token of each service's backup scopes and of its restore scopes,
 * as the admin (domain-wide delegation); a refused set is asked scope by scope to name what is missing.
 * Side by side, each scope set asked once.
 */
import type { AccessResponse, ServiceAccess } from "@alpvault/contracts/organizations";
import type { PlanId } from "@alpvault/contracts/plans";
import { planAllowsDataType } from "@alpvault/contracts/policies";
import { SERVICE_IDS, SERVICES, scopesOf, scopesToGrantText } from "@alpvault/contracts/services";
import type { WorkspaceGateway } from "../workspace/gateway";

export async function serviceAccess(
  workspace: Pick<WorkspaceGateway, "grants">,
  email: string,
  planId: PlanId,
  now: Date,
): Promise<AccessResponse> {
  const asked = new Map<string, Promise<boolean>>();
  const grants = (scopes: readonly string[]) => {
    const key = [...scopes].sort().join(" ");
    let answer = asked.get(key);
    if (!answer) {
      answer = workspace.grants(email, scopes);
      asked.set(key, answer);
    }
    return answer;
  };
  const services = await Promise.all(
    SERVICE_IDS.map(async (service): Promise<ServiceAccess> => {
      const { name, scopes, dataType } = SERVICES[service];
      const [backup, restore] = await Promise.all([grants(scopes.backup), grants(scopes.restore)]);
      const refused =
        backup && restore
          ? []
          : (
              await Promise.all(
                scopesOf(service).map(async (scope) => ((await grants([scope])) ? [] : [scope])),
              )
            ).flat();
      return {
        service,
        name,
        inPlan: planAllowsDataType(planId, dataType),
        backup,
        restore,
        missingScopes: refused,
        grant: refused.length > 0 ? scopesToGrantText(service, refused) : null,
      };
    }),
  );
  return { services, checkedAt: now.toISOString() };
}
