/** Sends the organisation's automatic additions (seats, storage packs) to its payment subscription. */
import * as logs from "../logs";
import { billingServices } from "../billing/wiring";
import type { OrganizationJob } from "./job";

export const chargesJob: OrganizationJob = {
  async run(organization) {
    const { sent, pending, failed } = await billingServices(organization.regionId).sendCharges(organization);
    if (failed) logs.chargeRefused({ organizationId: organization.organizationId, pending });
    return { chargesSent: sent };
  },
  failed: (organizationId, error) => logs.chargesFailed({ organizationId, error }),
};
