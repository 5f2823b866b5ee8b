/** Builds the billing service from the runtime configuration, once per instance. */
import { LOCAL_WEBHOOK_SECRET } from "@alpvault/contracts/billing";
import { loadBillingConfig } from "../config";
import { productServices } from "../organizations/wiring";
import { sandboxProvider } from "./sandbox-provider";
import { billingService, type BillingService } from "./service";
import { stripeProvider } from "./stripe-provider";

let built: BillingService | undefined;

export function billingServices(): BillingService {
  if (built) return built;
  const config = loadBillingConfig(LOCAL_WEBHOOK_SECRET);
  const sandbox = config.provider === "sandbox";
  built = billingService({
    organizations: productServices().organizations,
    provider: sandbox ? sandboxProvider() : stripeProvider(config.stripeSecretKey),
    webhookSecret: config.webhookSecret,
    gracefulPeriodDays: config.gracefulPeriodDays,
    sandbox,
  });
  return built;
}
