import Alert from "@mui/material/Alert";
import Snackbar from "@mui/material/Snackbar";

/** A snackbar message (docs/requirements.md#data-the-console-shows): its text, and whether it reports an error. */
export interface SnackbarMessage {
  text: string;
  isError: boolean;
}

/** The snackbar as shown (see `SnackbarProvider`): `message` with `text`, or closed when null. */
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
  );
}
