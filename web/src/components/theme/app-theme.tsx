import CssBaseline from "@mui/material/CssBaseline";
import { createTheme, ThemeProvider } from "@mui/material/styles";
import { useMemo, type ReactNode } from "react";
import type { ThemeMode } from "@/config/constants";
import { inputsCustomizations } from "./customizations/inputs";
import { navigationCustomizations } from "./customizations/navigation";
import { surfacesCustomizations } from "./customizations/surfaces";
import { getDesignTokens } from "./theme-primitives";

/** Builds the light or dark theme: design tokens plus every component customisation. */
export function buildTheme(mode: ThemeMode) {
  return createTheme({
    ...getDesignTokens(mode),
    components: { ...inputsCustomizations, ...navigationCustomizations, ...surfacesCustomizations },
  });
}

export function AppTheme({ mode, children }: { mode: ThemeMode; children: ReactNode }) {
  const theme = useMemo(() => buildTheme(mode), [mode]);
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline enableColorScheme />
      {children}
    </ThemeProvider>
  );
}
