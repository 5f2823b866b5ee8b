/**
 * The app's one snackbar (docs/requirements.md#data-the-console-shows snackbar message: text and isError). Any screen calls
 * `useSnackbar().show({ text, isError })`; a new message replaces the one shown. An error without a text of
 * its own (an answer `{code, message: ""}`, say) shows the generic "Something went wrong.".
 */
import Alert from "@mui/material/Alert";
import Snackbar from "@mui/material/Snackbar";
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";

export interface SnackbarMessage {
  text: string;
  isError: boolean;
}

interface SnackbarApi {
  show(message: SnackbarMessage): void;
}

const SnackbarContext = createContext<SnackbarApi | null>(null);

export function SnackbarProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const [message, setMessage] = useState<(SnackbarMessage & { id: number }) | null>(null);
  const show = useCallback(
    (next: SnackbarMessage) => setMessage((previous) => ({ ...next, id: (previous?.id ?? 0) + 1 })),
    [],
  );
  const api = useMemo(() => ({ show }), [show]);
  return (
    <SnackbarContext.Provider value={api}>
      {children}
      <Snackbar
        key={message?.id}
        open={message !== null}
        autoHideDuration={5000}
        onClose={(_, reason) => reason !== "clickaway" && setMessage(null)}
        anchorOrigin={{ vertical: "bottom", horizontal: "center" }}
      >
        <Alert
          severity={message?.isError ? "error" : "success"}
          variant="filled"
          onClose={() => setMessage(null)}
          data-testid="snackbar"
          data-error={message?.isError ? "true" : "false"}
        >
          {message?.isError && !message.text.trim() ? t("common.somethingWentWrong") : message?.text}
        </Alert>
      </Snackbar>
    </SnackbarContext.Provider>
  );
}

export function useSnackbar(): SnackbarApi {
  const api = useContext(SnackbarContext);
  if (!api) throw new Error("useSnackbar() used outside SnackbarProvider");
  return api;
}
