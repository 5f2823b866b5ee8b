/**
 * A backup run's streams: one per service its policy's data types back up for the resource (the services
 * registry's `servicesBackedUp`: a shared drive has only Drive), each built by that service's builder of the
 * worker's `StreamFactory`. Nothing here knows a service by its name.
 */
import { planAllowsDataType, type DataType } from "@alpvault/contracts/policies";
import type { PlanId } from "@alpvault/contracts/plans";
import { servicesBackedUp, type ServiceId } from "@alpvault/contracts/services";
import type { Organization } from "../organizations/service";
import type { GoogleCaller } from "../engine/google/caller";
import type { GmailSourceOptions } from "../engine/gmail/source";
import { failingSource, type Source } from "../engine/sources/source";
import type { BackupResource } from "./repo";

/** What a service's stream of one resource is built from. */
export interface StreamContext {
  organization: Organization;
  resource: BackupResource;
  caller: GoogleCaller;
  signal: AbortSignal;
  /** Where the mailbox's label names are kept, so label renames are noticed (Gmail). */
  labelNames: NonNullable<GmailSourceOptions["labelNames"]>;
}

/**
 * Builds a resource's stream of each service. A builder that cannot build its stream (a shared drive with
 * no member to read it as) answers a stream that fails with the reason; a builder that throws fails only
 * its own stream as well.
 */
export type StreamFactory = Readonly<Record<ServiceId, (context: StreamContext) => Promise<Source>>>;

/**
 * The services a run backs up for a resource, in the order it backs them up: those of the policy's data
 * types that the organisation's plan includes (a policy keeps its data types when the plan changes).
 */
export function streamsOf(
  resource: BackupResource,
  dataTypes: readonly DataType[],
  planId: PlanId,
): ServiceId[] {
  const included = dataTypes.filter((type) => planAllowsDataType(planId, type));
  return servicesBackedUp(included, resource.type === "email");
}

/** The streams of `kinds` for a resource, reading through `caller`. */
export async function resourceStreams(
  factory: StreamFactory,
  kinds: readonly ServiceId[],
  context: Omit<StreamContext, "labelNames"> & { labelNames: StreamContext["labelNames"]["catalog"] },
): Promise<Source[]> {
  const streams: Source[] = [];
  const labelNames = { catalog: context.labelNames, resourceId: context.resource.resourceId };
  for (const kind of kinds) {
    try {
      streams.push(await factory[kind]({ ...context, labelNames }));
    } catch (error) {
      streams.push(failingSource(kind, error instanceof Error ? error : new Error(String(error))));
    }
  }
  return streams;
}
