import DeleteOutlined from "@mui/icons-material/DeleteOutlined";
import EditOutlined from "@mui/icons-material/EditOutlined";
import FactCheckOutlined from "@mui/icons-material/FactCheckOutlined";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import Chip from "@mui/material/Chip";
import IconButton from "@mui/material/IconButton";
import LinearProgress from "@mui/material/LinearProgress";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { Secret } from "@alpvault/contracts/secrets";

/** What a row's buttons do; `busy` while any write runs. */
export interface SecretRowHandlers {
  busy: boolean;
  onMakeDefault: (secret: Secret) => void;
  onCheck: (secret: Secret) => void;
  onEdit: (secret: Secret) => void;
  onDelete: (secret: Secret) => void;
}

function KeyStatus({ secret }: { secret: Secret }) {
  const { t, i18n } = useTranslation();
  if (secret.kind === "default") {
    return (
      <Typography variant="body2" color="text.secondary">
        {t("secrets.managedByAlpvault")}
      </Typography>
    );
  }
  const check = secret.lastCheck;
  const health = check?.health ?? "unchecked";
  const when = check
    ? t("secrets.checkedAt", {
        date: new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium", timeStyle: "short" }).format(
          new Date(check.checkedAt),
        ),
      })
    : undefined;
  return (
    <Tooltip title={check?.message ?? when ?? ""}>
      <Chip
        size="small"
        variant="outlined"
        color={health === "ok" ? "success" : health === "unchecked" ? "default" : "error"}
        label={t(`secrets.status.${health}`)}
        data-testid="secret-status"
        data-health={health}
      />
    </Tooltip>
  );
}

/** An icon button whose tooltip and accessible name say what it does to which key. */
function KeyAction({
  label,
  disabled,
  onClick,
  children,
}: {
  label: string;
  disabled: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <Tooltip title={label}>
      <span>
        <IconButton aria-label={label} disabled={disabled} onClick={onClick}>
          {children}
        </IconButton>
      </span>
    </Tooltip>
  );
}

function SecretRowActions({ secret, handlers }: { secret: Secret; handlers: SecretRowHandlers }) {
  const { t } = useTranslation();
  const { busy } = handlers;
  const label = (action: string) => t(`secrets.actions.${action}`, { description: secret.description });
  return (
    <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
      {!secret.isDefault && (
        <Button size="small" disabled={busy} onClick={() => handlers.onMakeDefault(secret)}>
          {t("secrets.actions.setDefault")}
        </Button>
      )}
      {secret.kind === "cloud-kms" && (
        <>
          <KeyAction label={label("check")} disabled={busy} onClick={() => handlers.onCheck(secret)}>
            <FactCheckOutlined />
          </KeyAction>
          <KeyAction label={label("edit")} disabled={busy} onClick={() => handlers.onEdit(secret)}>
            <EditOutlined />
          </KeyAction>
          <KeyAction label={label("delete")} disabled={busy} onClick={() => handlers.onDelete(secret)}>
            <DeleteOutlined />
          </KeyAction>
        </>
      )}
    </TableCell>
  );
}

function SecretRow({ secret, handlers }: { secret: Secret; handlers: SecretRowHandlers }) {
  const { t } = useTranslation();
  return (
    <TableRow
      data-testid="secret-row"
      data-secret-id={secret.secretId}
      data-default={secret.isDefault ? "true" : "false"}
    >
      <TableCell>
        <Box sx={{ display: "flex", gap: 1, alignItems: "center", flexWrap: "wrap" }}>
          <Typography
            variant="body2"
            sx={{ fontWeight: secret.isDefault ? 600 : 400 }}
            data-testid="secret-description"
          >
            {secret.description}
          </Typography>
          {secret.isDefault && (
            <Chip size="small" color="primary" label={t("secrets.default")} data-testid="secret-default" />
          )}
        </Box>
      </TableCell>
      <TableCell sx={{ fontFamily: "monospace", fontSize: "0.8rem", wordBreak: "break-all" }}>
        {secret.kmsResourceName ?? "—"}
      </TableCell>
      <TableCell>{t(`secrets.kind.${secret.kind}`)}</TableCell>
      <TableCell>
        <KeyStatus secret={secret} />
      </TableCell>
      <SecretRowActions secret={secret} handlers={handlers} />
    </TableRow>
  );
}

/** The keys, default first, with a busy bar while they load or a write runs. */
export function SecretsTable({
  secrets,
  loading,
  handlers,
}: {
  secrets: readonly Secret[] | undefined;
  loading: boolean;
  handlers: SecretRowHandlers;
}) {
  const { t } = useTranslation();
  return (
    <Card>
      {(loading || handlers.busy) && <LinearProgress />}
      <TableContainer>
        <Table aria-label={t("pages.secrets.title")} aria-busy={loading} data-testid="secrets-table">
          <TableHead>
            <TableRow>
              <TableCell>{t("secrets.columns.description")}</TableCell>
              <TableCell>{t("secrets.columns.kmsResourceName")}</TableCell>
              <TableCell>{t("secrets.columns.kind")}</TableCell>
              <TableCell>{t("secrets.columns.status")}</TableCell>
              <TableCell align="right">{t("secrets.columns.actions")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {secrets?.map((secret) => (
              <SecretRow key={secret.secretId} secret={secret} handlers={handlers} />
            ))}
          </TableBody>
        </Table>
      </TableContainer>
    </Card>
  );
}
