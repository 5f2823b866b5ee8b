import Alert from "@mui/material/Alert";
import Portal from "@mui/material/Portal";
import Snackbar from "@mui/material/Snackbar";

/** A snackbar message (docs/requirements.md#data-the-console-shows): its text, and whether it reports an error. */
export interface SnackbarMessage {
  text: string;
  isError: boolean;
}

/**
 * The snackbar as shown (see `SnackbarProvider`): `message` with `text`, or closed when null. It is put at
 * the end of the document, outside the app's root: a menu or dialog open (or still closing) when it shows
 * hides the rest of the page from assistive technology (`aria-hidden`), and a message inside it would be
 * neither announced nor found, as "Backup now" chosen from a row's menu was.
 */
export default function SnackbarView({
  message,
  text,
  onClose,
}: {
  message: (SnackbarMessage & { id: number }) | null;
  text: string;
  onClose: () => void;
}) {
  return (
    <Portal>
      <Snackbar
        key={message?.id}
        open={message !== null}
        autoHideDuration={5000}
        onClose={(_, reason) => reason !== "clickaway" && onClose()}
        anchorOrigin={{ vertical: "bottom", horizontal: "center" }}
      >
        <Alert
          severity={message?.isError ? "error" : "success"}
          variant="filled"
          onClose={onClose}
          data-testid="snackbar"
          data-error={message?.isError ? "true" : "false"}
        >
          {text}
        </Alert>
      </Snackbar>
    </Portal>
  );
}
