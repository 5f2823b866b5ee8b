/** Starts the organisation's restore drill when its schedule says one is due. */
import * as logs from "../logs";
import { dispatchDrill } from "../drills/service";
import type { OrganizationJob } from "./job";

export const drillsJob: OrganizationJob = {
  async run(organization, now) {
    const drill = await dispatchDrill(organization, now);
    return { drillsStarted: drill.started ? 1 : 0 };
  },
  failed: (organizationId, error) => logs.drillDispatchFailed({ organizationId, error }),
};
