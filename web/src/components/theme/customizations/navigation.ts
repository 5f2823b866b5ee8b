import { alpha, type Components, type Theme } from "@mui/material/styles";

/** Drawer, navigation lists and menus. */
export const navigationCustomizations: Components<Theme> = {
  MuiDrawer: {
    styleOverrides: {
      paper: ({ theme }) => ({ backgroundColor: theme.palette.background.default }),
    },
  },
  MuiListItemButton: {
    styleOverrides: {
      root: ({ theme }) => ({
        borderRadius: theme.shape.borderRadius,
        "&.Mui-selected": {
          backgroundColor: alpha(theme.palette.primary.main, 0.12),
          // On the tinted background the deeper (light theme) or lighter (dark theme) shade keeps 4.5:1.
          color: theme.palette.mode === "dark" ? theme.palette.primary.light : theme.palette.primary.dark,
          "& .MuiListItemIcon-root": {
            color: theme.palette.mode === "dark" ? theme.palette.primary.light : theme.palette.primary.dark,
          },
        },
      }),
    },
  },
  MuiListItemIcon: { styleOverrides: { root: { minWidth: 36 } } },
  MuiMenu: {
    styleOverrides: {
      paper: ({ theme }) => ({ marginTop: 4, borderRadius: theme.shape.borderRadius, minWidth: 220 }),
    },
  },
};
