import type { Components, Theme } from "@mui/material/styles";

/** Buttons and other inputs. */
export const inputsCustomizations: Components<Theme> = {
  MuiButtonBase: { defaultProps: { disableTouchRipple: true } },
  MuiButton: {
    styleOverrides: {
      root: ({ theme }) => ({
        boxShadow: "none",
        borderRadius: theme.shape.borderRadius,
        textTransform: "none",
        fontWeight: 600,
      }),
    },
  },
  MuiIconButton: {
    styleOverrides: {
      root: ({ theme }) => ({ borderRadius: theme.shape.borderRadius }),
    },
  },
};
