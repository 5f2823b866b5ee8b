import type { TooltipProps } from "@mui/material/Tooltip";
import { cloneElement, useEffect, useRef, useState, type ComponentType, type ReactElement } from "react";

type TooltipComponent = ComponentType<TooltipProps>;

/** MUI's Tooltip, once its code has loaded (shared by every deferred tooltip of the page). */
let loadedTooltip: TooltipComponent | undefined;
let loadingTooltip: Promise<TooltipComponent> | undefined;

function loadTooltip(): Promise<TooltipComponent> {
  loadingTooltip ??= import("@mui/material/Tooltip").then((module) => (loadedTooltip = module.default));
  return loadingTooltip;
}

/**
 * MUI's Tooltip with its code (and Popper's) loaded on the first hover or focus of its child, not with the
 * screen: a table shows many chips with tooltips, few are ever opened. Until then the child is rendered
 * as it is; a child focused from the keyboard keeps the focus when the tooltip takes it over. The child is
 * rendered anew at that moment, so it is for what is read, not clicked (a click could fall in between).
 */
export function DeferredTooltip({
  title,
  placement,
  children,
}: {
  title: TooltipProps["title"];
  placement?: TooltipProps["placement"];
  children: ReactElement<Record<string, unknown>>;
}) {
  const [Tooltip, setTooltip] = useState<TooltipComponent | undefined>(() => loadedTooltip);
  const [open, setOpen] = useState(false);
  // Whether the tooltip's code was asked for by a focus (not a hover): the child then takes the focus back.
  const [refocus, setRefocus] = useState(false);
  const child = useRef<HTMLElement | null>(null);
  useEffect(() => {
    if (Tooltip && refocus) child.current?.focus();
  }, [Tooltip, refocus]);
  if (Tooltip) {
    return (
      <Tooltip
        title={title}
        placement={placement}
        open={open}
        onOpen={() => setOpen(true)}
        onClose={() => setOpen(false)}
      >
        {cloneElement(children, { ref: child })}
      </Tooltip>
    );
  }
  const activate = (focused: boolean) => {
    setRefocus(focused);
    setOpen(true);
    // Code that does not load leaves the child as it is, without its tooltip.
    loadTooltip().then(
      (loaded) => setTooltip(() => loaded),
      (error: unknown) => console.warn("The tooltip could not be loaded", error),
    );
  };
  // Left before the code arrived: it opens closed.
  const leave = () => setOpen(false);
  return cloneElement(children, {
    onMouseEnter: () => activate(false),
    onFocus: () => activate(true),
    onMouseLeave: leave,
    onBlur: leave,
  });
}
