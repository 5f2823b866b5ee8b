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
          color: theme.palette.primary.main,
          "& .MuiListItemIcon-root": { color: theme.palette.primary.main },
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
