import SwipeableDrawer from "@mui/material/SwipeableDrawer";
import type { ReactNode } from "react";
import { DRAWER_WIDTH, SWIPE_EDGE_WIDTH } from "@/config/constants";

/**
 * The navigation drawer below the `lg` breakpoint (see `AppShell`): temporary, opened from the menu button
 * or by a touch swipe from the left edge.
 */
export default function MobileDrawer({
  open,
  onOpen,
  onClose,
  children,
}: {
  open: boolean;
  onOpen: () => void;
  onClose: () => void;
  children: ReactNode;
}) {
  return (
    <SwipeableDrawer
      anchor="left"
      open={open}
      onOpen={onOpen}
      onClose={onClose}
      swipeAreaWidth={SWIPE_EDGE_WIDTH}
      ModalProps={{ keepMounted: true }}
      data-testid="nav-drawer"
      sx={{ "& .MuiDrawer-paper": { width: DRAWER_WIDTH, boxSizing: "border-box" } }}
    >
      {children}
    </SwipeableDrawer>
  );
}
