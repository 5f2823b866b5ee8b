/**
 * The app's one snackbar (docs/requirements.md#data-the-console-shows snackbar message: text and isError). Any screen calls
 * `useSnackbar().show({ text, isError })`; a new message replaces the one shown. An error without a text of
 * its own (an answer `{code, message: ""}`, say) shows the generic "Something went wrong.".
 */
import { createContext, lazy, useCallback, useContext, useMemo, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { WhenWanted } from "@/components/ui/when-wanted";
import type { SnackbarMessage } from "./snackbar-view";

/** The snackbar itself loads with the first message. */
const SnackbarView = lazy(() => import("./snackbar-view"));

export type { SnackbarMessage } from "./snackbar-view";

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
  const text =
    message?.isError && !message.text.trim() ? t("common.somethingWentWrong") : (message?.text ?? "");
  return (
    <SnackbarContext.Provider value={api}>
      {children}
      <WhenWanted wanted={message !== null}>
        <SnackbarView message={message} text={text} onClose={() => setMessage(null)} />
      </WhenWanted>
    </SnackbarContext.Provider>
  );
}

export function useSnackbar(): SnackbarApi {
  const api = useContext(SnackbarContext);
  if (!api) throw new Error("useSnackbar() used outside SnackbarProvider");
  return api;
}
