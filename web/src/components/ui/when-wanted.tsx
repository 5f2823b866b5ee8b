import { Suspense, useState, type ReactNode } from "react";

/**
 * True from the first time `wanted` is: a part loaded on first use (a dialog, a menu) is rendered from
 * then on, so it can close with its animation and open again at once.
 */
function useWantedOnce(wanted: boolean): boolean {
  const [once, setOnce] = useState(wanted);
  if (wanted && !once) setOnce(true);
  return once;
}

/**
 * Renders `children` (typically a lazy component: its code loads when first rendered) from the first time
 * `wanted` is true, and from then on.
 */
export function WhenWanted({ wanted, children }: { wanted: boolean; children: ReactNode }) {
  return useWantedOnce(wanted) ? <Suspense fallback={null}>{children}</Suspense> : null;
}
