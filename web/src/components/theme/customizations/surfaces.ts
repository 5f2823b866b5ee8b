import type { Components, Theme } from "@mui/material/styles";

/** Cards, app bar and paper. */
export const surfacesCustomizations: Components<Theme> = {
  MuiPaper: { defaultProps: { elevation: 0 } },
  MuiCard: {
    defaultProps: { variant: "outlined" },
    styleOverrides: {
      root: ({ theme }) => ({ borderRadius: 12, backgroundColor: theme.palette.background.paper }),
    },
  },
  MuiAppBar: {
    defaultProps: { elevation: 0, color: "inherit" },
    styleOverrides: {
      root: ({ theme }) => ({
        backgroundColor: theme.palette.background.default,
        borderBottom: `1px solid ${theme.palette.divider}`,
      }),
    },
  },
};
