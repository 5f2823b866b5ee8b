import type { Components, Theme } from "@mui/material/styles";

/** Cards, dialogs, app bar and paper. */
export const surfacesCustomizations: Components<Theme> = {
  MuiPaper: { defaultProps: { elevation: 0 } },
  MuiCard: {
    defaultProps: { variant: "outlined" },
    styleOverrides: {
      root: ({ theme }) => ({ borderRadius: 12, backgroundColor: theme.palette.background.paper }),
    },
  },
  // Dialog buttons keep the content's inset from the edges rather than MUI's 8 px.
  MuiDialogActions: {
    styleOverrides: { root: ({ theme }) => ({ padding: theme.spacing(1.5, 3, 2.5) }) },
  },
  // Initials in an avatar: a background that keeps 4.5:1 with its text in both themes.
  MuiAvatar: {
    styleOverrides: {
      colorDefault: ({ theme }) => ({
        backgroundColor: theme.palette.mode === "dark" ? theme.palette.grey[300] : theme.palette.grey[600],
        color: theme.palette.mode === "dark" ? theme.palette.grey[900] : "#fff",
      }),
    },
  },
  // A progress bar without a name of its own is announced as loading (WCAG 4.1.2).
  MuiLinearProgress: { defaultProps: { "aria-label": "Loading" } },
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
