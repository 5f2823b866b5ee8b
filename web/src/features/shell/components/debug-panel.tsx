import ContentCopyOutlined from "@mui/icons-material/ContentCopyOutlined";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import type { User } from "firebase/auth";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { DEBUG_ACCOUNT_EMAIL } from "@/config/constants";
import { loadFirebase } from "@/lib/firebase";
import { useSnackbar } from "@/lib/snackbar";

export function isDebugAccount(user: User | null): boolean {
  return user?.email?.toLowerCase() === DEBUG_ACCOUNT_EMAIL;
}

/** Token copy buttons and the API's health as this account sees it, shown only to the one test account (docs/requirements.md#screens-and-navigation, #who-may-do-what). */
export function DebugPanel({ user, children }: { user: User; children?: ReactNode }) {
  const { t } = useTranslation();
  const { show: setMessage } = useSnackbar();

  const copy = (read: () => Promise<string>, done: string) => () => {
    read()
      .then((token) => navigator.clipboard.writeText(token))
      .then(
        () => setMessage({ text: done, isError: false }),
        (error: unknown) => {
          console.warn("Token could not be copied", error);
          setMessage({ text: t("debug.copyFailed"), isError: true });
        },
      );
  };

  return (
    <Box data-testid="debug-panel" sx={{ p: 2, display: "flex", flexDirection: "column", gap: 1 }}>
      <Typography variant="overline" color="text.secondary">
        {t("debug.title")}
      </Typography>
      <Button
        size="small"
        variant="outlined"
        startIcon={<ContentCopyOutlined />}
        onClick={copy(() => user.getIdToken(), t("debug.copiedBearer"))}
      >
        {t("debug.copyBearer")}
      </Button>
      <Button
        size="small"
        variant="outlined"
        startIcon={<ContentCopyOutlined />}
        onClick={copy(async () => {
          const { getToken, appCheck } = await loadFirebase();
          return (await getToken(appCheck, false)).token;
        }, t("debug.copiedAppCheck"))}
      >
        {t("debug.copyAppCheck")}
      </Button>
      {children}
    </Box>
  );
}
