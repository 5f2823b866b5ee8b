import Alert from "@mui/material/Alert";
import AlertTitle from "@mui/material/AlertTitle";
import Button from "@mui/material/Button";
import { Link as RouterLink } from "react-router-dom";
import { paths } from "@/config/paths";

/** Why the free plan cannot do something here, with the way to the plans (docs/requirements.md#who-may-do-what: an upgrade path). */
export function UpgradeNotice(props: { testId: string; title: string; body: string; upgradeLabel: string }) {
  return (
    <Alert
      severity="info"
      data-testid={props.testId}
      action={
        <Button component={RouterLink} to={paths.app.plans.getHref()} color="inherit" size="small">
          {props.upgradeLabel}
        </Button>
      }
    >
      <AlertTitle>{props.title}</AlertTitle>
      {props.body}
    </Alert>
  );
}

/** A failed load: the API's message and a retry. */
export function RetryableError(props: {
  testId: string;
  message: string;
  retryLabel: string;
  onRetry: () => void;
}) {
  return (
    <Alert
      severity="error"
      data-testid={props.testId}
      action={
        <Button color="inherit" size="small" onClick={props.onRetry}>
          {props.retryLabel}
        </Button>
      }
    >
      {props.message}
    </Alert>
  );
}
