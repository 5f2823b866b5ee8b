import Box from "@mui/material/Box";
import Chip from "@mui/material/Chip";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import type { DriveSearchResult, MailSearchResult } from "@alpvault/contracts/search";
import { formatStorage } from "@/lib/format";
import "../i18n/register";
import type { ResultColumn } from "./results-table";

export function useDateFormat(): (iso: string) => string {
  const { i18n } = useTranslation();
  const format = new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium", timeStyle: "short" });
  return (iso) => {
    const date = new Date(iso);
    return Number.isNaN(date.getTime()) ? iso : format.format(date);
  };
}

/** The first column: the item's title, and a chip when it is gone from Google (the backup keeps it). */
export function Title(props: {
  text: string;
  secondary?: string;
  deletedAtSource: string | null;
  notExportable?: boolean;
}) {
  const { t } = useTranslation();
  const formatDate = useDateFormat();
  return (
    <Box sx={{ display: "flex", alignItems: "center", gap: 1, flexWrap: "wrap" }}>
      <Box sx={{ minWidth: 0 }}>
        <Typography variant="body2" sx={{ fontWeight: 500 }}>
          {props.text}
        </Typography>
        {props.secondary && (
          <Typography variant="caption" component="div" color="text.secondary">
            {props.secondary}
          </Typography>
        )}
      </Box>
      {props.deletedAtSource && (
        <Tooltip title={t("search.deletedAtSourceOn", { date: formatDate(props.deletedAtSource) })}>
          <Chip
            size="small"
            color="warning"
            variant="outlined"
            label={t("search.deletedAtSource")}
            data-testid="deleted-at-source"
          />
        </Tooltip>
      )}
      {props.notExportable && (
        <Tooltip title={t("search.notExportableHint")}>
          <Chip
            size="small"
            variant="outlined"
            label={t("search.notExportable")}
            data-testid="not-exportable"
          />
        </Tooltip>
      )}
    </Box>
  );
}

/** docs/requirements.md#data-the-console-shows email item: subject, from (name and email), to, date. */
export function useMailColumns(): ResultColumn<MailSearchResult>[] {
  const { t } = useTranslation();
  const formatDate = useDateFormat();
  return [
    {
      id: "subject",
      label: t("search.table.subject"),
      render: (mail) => (
        <Title text={mail.subject || t("search.table.noSubject")} deletedAtSource={mail.deletedAtSource} />
      ),
    },
    {
      id: "from",
      label: t("search.table.from"),
      render: (mail) => (
        <>
          <Typography variant="body2">{mail.fromName || mail.fromEmail}</Typography>
          {mail.fromName && (
            <Typography variant="caption" component="div" color="text.secondary">
              {mail.fromEmail}
            </Typography>
          )}
        </>
      ),
    },
    { id: "to", label: t("search.table.to"), render: (mail) => mail.to.join(", ") },
    { id: "date", label: t("search.table.date"), render: (mail) => formatDate(mail.date), noWrap: true },
  ];
}

const GOOGLE_FILES = "application/vnd.google-apps.";

/** docs/requirements.md#data-the-console-shows Drive item: created by, last modified, last backup, file size, Google ID, current version. */
export function useDriveColumns(): ResultColumn<DriveSearchResult>[] {
  const { t } = useTranslation();
  const formatDate = useDateFormat();
  return [
    {
      id: "name",
      label: t("search.table.name"),
      render: (file) => (
        <Title
          text={file.name}
          secondary={file.path && file.path !== file.name ? file.path : undefined}
          deletedAtSource={file.deletedAtSource}
          notExportable={file.notExportable}
        />
      ),
    },
    { id: "createdBy", label: t("search.table.createdBy"), render: (file) => file.createdBy },
    {
      id: "lastModified",
      label: t("search.table.lastModified"),
      render: (file) => formatDate(file.lastModified),
      noWrap: true,
    },
    {
      id: "lastBackup",
      label: t("search.table.lastBackup"),
      render: (file) => formatDate(file.lastBackup),
      noWrap: true,
    },
    {
      id: "size",
      label: t("search.table.size"),
      // Google Docs, Sheets and Slides have no size in Drive (as Drive itself shows them).
      render: (file) => (file.mimeType.startsWith(GOOGLE_FILES) ? "—" : formatStorage(file.size)),
      noWrap: true,
      align: "right",
    },
    {
      id: "googleId",
      label: t("search.table.googleId"),
      render: (file) => (
        <Typography variant="body2" sx={{ fontFamily: "monospace", wordBreak: "break-all" }}>
          {file.googleId}
        </Typography>
      ),
    },
    {
      id: "currentVersion",
      label: t("search.table.currentVersion"),
      render: (file) => file.currentVersion,
      align: "right",
    },
  ];
}
