/** Builds the secrets service (with its Cloud KMS client) from the runtime configuration, once per instance. */
import type { RegionId } from "@alpvault/contracts/regions";
import { loadKmsConfig } from "../config";
import { productServices } from "../organizations/wiring";
import type { OrganizationService } from "../organizations/service";
import { kmsClient, kmsService } from "./kms";
import { secretService, type SecretService } from "./service";

let built: SecretService | undefined;

export function secretServices(servingRegion: RegionId | null): {
  organizations: OrganizationService;
  secrets: SecretService;
} {
  built ??= secretService({ kms: kmsService(kmsClient(loadKmsConfig())) });
  return { organizations: productServices(servingRegion).organizations, secrets: built };
}
