import Box from "@mui/material/Box";
import { Suspense, lazy, useState } from "react";
import { RECOVERY_MESSAGES, type Recovery } from "@alpvault/contracts/recovery";
import { WhenWanted } from "@/components/ui/when-wanted";
import { useSession } from "@/lib/session";
import { useSnackbar } from "@/lib/snackbar";
import type { RecoveryTarget } from "../hooks/use-recovery-form";
import type { LoadResources } from "../hooks/use-resource-choices";

/** The modal (its form and validation) loads when a recovery is first asked for, not with the screen. */
const RecoveryModal = lazy(() =>
  import("./recovery-modal").then((module) => ({ default: module.RecoveryModal })),
);
/** The progress card loads once a recovery has started. */
const RecoveryProgress = lazy(() =>
  import("./recovery-progress").then((module) => ({ default: module.RecoveryProgress })),
);

/**
 * Recovering from a screen: the recovery modal for `target`, then, once the API has started the recovery,
 * the snackbar's "Recovery started" and the recovery's progress where the screen places this component (in
 * the page, above its content: it pushes the content down rather than floating over it, so it never hides
 * a cell or a button the admin needs) until the admin dismisses it.
 */
export function RecoveryFlow({
  target,
  loadResources,
  onClose,
}: {
  /** What to recover; null: the modal is closed. */
  target: RecoveryTarget | null;
  /** The organisation's resources, for the "another resource" choice. */
  loadResources: LoadResources;
  onClose: () => void;
}) {
  const { organizationId } = useSession();
  const { show } = useSnackbar();
  const [followed, setFollowed] = useState<
    { recovery: Recovery; resourceName: string; targetName: string | null }[]
  >([]);

  const started = (recovery: Recovery, from: RecoveryTarget, targetName: string | null) => {
    show({ text: RECOVERY_MESSAGES.started, isError: false });
    setFollowed((list) => [...list, { recovery, resourceName: from.resourceName, targetName }]);
    onClose();
  };
  const dismiss = (recoveryId: string) =>
    setFollowed((list) => list.filter((entry) => entry.recovery.recoveryId !== recoveryId));

  return (
    <>
      <WhenWanted wanted={target !== null}>
        <RecoveryModal
          organizationId={organizationId}
          target={target}
          loadResources={loadResources}
          onClose={onClose}
          onStarted={started}
        />
      </WhenWanted>
      {organizationId !== null && followed.length > 0 && (
        <Box
          sx={{
            display: "grid",
            gap: 1,
            gridTemplateColumns: { xs: "minmax(0, 1fr)", md: "repeat(auto-fill, minmax(360px, 1fr))" },
          }}
          data-testid="recoveries"
        >
          <Suspense fallback={null}>
            {followed.map((entry) => (
              <RecoveryProgress
                key={entry.recovery.recoveryId}
                organizationId={organizationId}
                started={entry.recovery}
                resourceName={entry.resourceName}
                targetName={entry.targetName}
                onDismiss={() => dismiss(entry.recovery.recoveryId)}
              />
            ))}
          </Suspense>
        </Box>
      )}
    </>
  );
}
