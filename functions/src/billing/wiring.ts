/** Builds the billing service from the runtime configuration, once per instance and serving region. */
import { LOCAL_WEBHOOK_SECRET } from "@alpvault/contracts/billing";
import type { RegionId } from "@alpvault/contracts/regions";
import { loadBillingConfig, regionApiUrl } from "../config";
import { productServices } from "../organizations/wiring";
import { sandboxProvider } from "./sandbox-provider";
import { billingService, type BillingService } from "./service";
import { stripeProvider } from "./stripe-provider";

const built = new Map<RegionId | null, BillingService>();

export function billingServices(servingRegion: RegionId | null): BillingService {
  const existing = built.get(servingRegion);
  if (existing) return existing;
  const config = loadBillingConfig(LOCAL_WEBHOOK_SECRET);
  const sandbox = config.provider === "sandbox";
  const service = billingService({
    organizations: productServices(servingRegion).organizations,
    servingRegion,
    regionApiUrl,
    provider: sandbox ? sandboxProvider() : stripeProvider(config.stripeSecretKey),
    webhookSecret: config.webhookSecret,
    gracefulPeriodDays: config.gracefulPeriodDays,
    sandbox,
  });
  built.set(servingRegion, service);
  return service;
}
