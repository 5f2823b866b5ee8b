import { alpha, type PaletteMode, type ThemeOptions } from "@mui/material/styles";

/** Colour scales, typography and shape shared by both themes. */
export const brand = {
  50: "hsl(210, 100%, 97%)",
  100: "hsl(210, 100%, 92%)",
  200: "hsl(210, 100%, 80%)",
  300: "hsl(210, 100%, 65%)",
  400: "hsl(210, 98%, 48%)",
  500: "hsl(210, 98%, 42%)",
  550: "hsl(210, 98%, 38%)",
  600: "hsl(210, 98%, 55%)",
  700: "hsl(210, 100%, 35%)",
  800: "hsl(210, 100%, 16%)",
  900: "hsl(210, 100%, 21%)",
};

export const gray = {
  50: "hsl(220, 35%, 97%)",
  100: "hsl(220, 30%, 94%)",
  200: "hsl(220, 20%, 88%)",
  300: "hsl(220, 20%, 80%)",
  400: "hsl(220, 20%, 65%)",
  500: "hsl(220, 20%, 42%)",
  600: "hsl(220, 20%, 35%)",
  700: "hsl(220, 20%, 25%)",
  800: "hsl(220, 30%, 6%)",
  900: "hsl(220, 35%, 3%)",
};

export const green = {
  300: "hsl(120, 61%, 77%)",
  400: "hsl(120, 44%, 53%)",
  700: "hsl(120, 59%, 30%)",
  800: "hsl(120, 59%, 22%)",
};
export const orange = {
  300: "hsl(45, 90%, 65%)",
  400: "hsl(45, 90%, 40%)",
  600: "hsl(35, 100%, 28%)",
  700: "hsl(45, 94%, 20%)",
};
export const red = { 300: "hsl(0, 90%, 65%)", 400: "hsl(0, 90%, 40%)", 700: "hsl(0, 94%, 18%)" };

export function getDesignTokens(mode: PaletteMode): ThemeOptions {
  const dark = mode === "dark";
  return {
    palette: {
      mode,
      // WCAG AA (4.5:1) for text in the primary colour and on it: a deeper blue under white text in the
      // light theme; in the dark theme a light blue, with dark text on its buttons.
      // The status colours likewise: text in them reads at 4.5:1 on the theme's paper and on a selected row
      // (deep tones in the light theme, light ones in the dark), and MUI picks the text on a filled chip or
      // button of that colour by the same ratio (`contrastThreshold`).
      contrastThreshold: 4.5,
      primary: dark
        ? { light: brand[200], main: brand[300], dark: brand[400], contrastText: gray[900] }
        : { light: brand[200], main: brand[550], dark: brand[700], contrastText: brand[50] },
      info: dark
        ? { light: brand[100], main: brand[300], dark: brand[600] }
        : { light: brand[100], main: brand[700], dark: brand[800] },
      warning: dark
        ? { light: orange[300], main: orange[400], dark: orange[700] }
        : { light: orange[300], main: orange[600], dark: orange[700] },
      error: dark
        ? { light: red[300], main: red[300], dark: red[400] }
        : { light: red[300], main: red[400], dark: red[700] },
      success: dark
        ? { light: green[300], main: green[400], dark: green[700] }
        : { light: green[300], main: green[700], dark: green[800] },
      grey: gray,
      divider: dark ? alpha(gray[700], 0.6) : alpha(gray[300], 0.4),
      background: dark
        ? { default: gray[900], paper: "hsl(220, 30%, 7%)" }
        : { default: "hsl(0, 0%, 99%)", paper: gray[50] },
      text: dark
        ? { primary: "hsl(0, 0%, 100%)", secondary: gray[400] }
        : { primary: gray[800], secondary: gray[600] },
      action: dark
        ? { hover: alpha(gray[600], 0.2), selected: alpha(gray[600], 0.3) }
        : { hover: alpha(gray[200], 0.2), selected: alpha(gray[200], 0.3) },
    },
    typography,
    shape,
  };
}

export const typography: ThemeOptions["typography"] = {
  fontFamily: '"Inter", "Segoe UI", "Roboto", "Helvetica Neue", sans-serif',
  h1: { fontSize: "2.25rem", fontWeight: 600, lineHeight: 1.2, letterSpacing: -0.5 },
  h2: { fontSize: "1.875rem", fontWeight: 600, lineHeight: 1.2 },
  h3: { fontSize: "1.5rem", lineHeight: 1.2 },
  h4: { fontSize: "1.5rem", fontWeight: 600, lineHeight: 1.5 },
  h5: { fontSize: "1.25rem", fontWeight: 600 },
  h6: { fontSize: "1.125rem", fontWeight: 600 },
  subtitle1: { fontSize: "1.125rem" },
  subtitle2: { fontSize: "0.875rem", fontWeight: 500 },
  body1: { fontSize: "0.875rem" },
  body2: { fontSize: "0.875rem", fontWeight: 400 },
  caption: { fontSize: "0.75rem", fontWeight: 400 },
};

export const shape: ThemeOptions["shape"] = { borderRadius: 8 };
