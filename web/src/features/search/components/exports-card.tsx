import DownloadOutlined from "@mui/icons-material/DownloadOutlined";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import LinearProgress from "@mui/material/LinearProgress";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { EXPORT_LIFETIME_DAYS, type ExportJob, type ExportState } from "@alpvault/contracts/exports";
import { ListCard } from "@/components/ui/list-card";
import { WorkPace } from "@/components/ui/work-pace";
import { NamedProblems } from "@/components/ui/named-problems";
import { apiDownload } from "@/lib/api-client";
import { formatStorage } from "@/lib/format";
import { downloadFromLink, saveFile } from "@/lib/save-file";
import { asApiError, isLoading } from "@/lib/query";
import { downloadExport, exportReportPath } from "../api/download-export";
import { isExportUnderWay, useExports, useResourceExports } from "../api/list-exports";
import "../i18n/register";

/** Items named under a job; its report lists every one. */
const NAMED_PROBLEMS = 5;

const STATE_COLORS: Record<ExportState, "default" | "info" | "success" | "error"> = {
  pending: "default",
  running: "info",
  succeeded: "success",
  failed: "error",
  expired: "default",
};

/** The items left out of a finished export: the count, the first ones with why, and the report. */
function Problems({ organizationId, job }: { organizationId: string; job: ExportJob }) {
  const { t } = useTranslation();
  const [reportError, setReportError] = useState<string | null>(null);
  if (job.progress.failed === 0) return null;
  const named = job.problems.slice(0, NAMED_PROBLEMS);
  const more = job.progress.failed - named.length;
  const download = () => {
    setReportError(null);
    apiDownload(exportReportPath(organizationId, job.exportId), undefined)
      .then((blob) => saveFile(blob, `export-${job.exportId}.csv`))
      .catch((error: unknown) =>
        setReportError(t("search.exports.reportFailed", { reason: asApiError(error).message })),
      );
  };
  return (
    <Box data-testid="export-problems">
      <Typography variant="body2" color="warning.main">
        {t("search.exports.leftOut", { count: job.progress.failed })}
      </Typography>
      <NamedProblems problems={named} more={more} texts="search.exports" testId="export-problem" />
      {job.state !== "expired" && (
        <Button size="small" variant="text" onClick={download} sx={{ mt: 0.5, px: 0 }}>
          {t("search.exports.report")}
        </Button>
      )}
      {reportError && (
        <Typography variant="body2" color="error" role="alert">
          {reportError}
        </Typography>
      )}
    </Box>
  );
}

/** One export job: what it exports, its state and progress, and once finished its download. */
function ExportRow({ organizationId, job }: { organizationId: string; job: ExportJob }) {
  const { t, i18n } = useTranslation();
  const [downloading, setDownloading] = useState(false);
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const dateFormat = new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium", timeStyle: "short" });
  const number = (value: number) => value.toLocaleString(i18n.language);
  const { total, exported, failed, bytes } = job.progress;
  const done = exported + failed;

  const download = async () => {
    setDownloading(true);
    setDownloadError(null);
    try {
      const link = await downloadExport(organizationId, job.exportId);
      downloadFromLink(link.url);
    } catch (error) {
      setDownloadError(t("search.exports.downloadFailed", { reason: asApiError(error).message }));
    } finally {
      setDownloading(false);
    }
  };

  const progressText =
    job.state === "pending"
      ? t("search.exports.waiting")
      : job.state === "running"
        ? t("search.exports.running", {
            done: number(done),
            total: number(Math.max(total, done)),
            size: formatStorage(bytes),
          })
        : t("search.exports.exported", { count: exported, size: formatStorage(bytes) });

  return (
    <Box
      component="li"
      data-testid="export-job"
      data-export-id={job.exportId}
      data-state={job.state}
      sx={{ listStyle: "none", p: 2, display: "flex", flexDirection: "column", gap: 0.5 }}
    >
      <Box sx={{ display: "flex", alignItems: "center", gap: 1, flexWrap: "wrap" }}>
        <Typography variant="subtitle2" sx={{ flex: 1, minWidth: 0 }} data-testid="export-title">
          {t(job.within === null ? "search.exports.title" : "search.exports.titleWithin", {
            resource: job.resourceName,
            within: job.within,
            format: t(`search.exports.formats.${job.format}`),
          })}
        </Typography>
        <Chip
          size="small"
          label={t(`search.exports.states.${job.state}`)}
          color={STATE_COLORS[job.state]}
          data-testid="export-state"
        />
        {job.state === "succeeded" && (
          <Button
            size="small"
            variant="outlined"
            startIcon={<DownloadOutlined />}
            disabled={downloading}
            onClick={() => void download()}
            aria-label={t("search.exports.downloadFile", { file: job.fileName })}
          >
            {t("search.exports.download")}
          </Button>
        )}
      </Box>
      <Typography variant="body2" color="text.secondary">
        {t("search.exports.requested", {
          date: dateFormat.format(new Date(job.requestedAt)),
          by: job.requestedBy,
        })}
        {job.asOf ? ` · ${t("search.exports.asOf", { date: dateFormat.format(new Date(job.asOf)) })}` : ""}
      </Typography>
      {isExportUnderWay(job) && (
        <LinearProgress
          aria-label={t("search.exports.bar", { file: job.fileName })}
          variant={job.state === "running" && total > 0 ? "determinate" : "indeterminate"}
          value={total > 0 ? Math.min(100, (done / total) * 100) : undefined}
          sx={{ my: 0.5 }}
        />
      )}
      {job.state !== "failed" && job.state !== "expired" && (
        <Typography variant="body2" data-testid="export-progress">
          {progressText}
        </Typography>
      )}
      {job.state === "running" && <WorkPace pace={job.progress} testId="export-pace" />}
      {job.state === "succeeded" && job.expiresAt && (
        <Typography variant="body2" color="text.secondary">
          {t("search.exports.availableUntil", { date: dateFormat.format(new Date(job.expiresAt)) })}
        </Typography>
      )}
      {job.state === "expired" && (
        <Typography variant="body2" color="text.secondary">
          {t("search.exports.expired")}
        </Typography>
      )}
      {job.state === "failed" && (
        <Typography variant="body2" color="error" data-testid="export-failure">
          {t("search.exports.failed", { reason: job.failureReason ?? t("search.exports.unknownFailure") })}
        </Typography>
      )}
      {downloadError && (
        <Typography variant="body2" color="error" role="alert">
          {downloadError}
        </Typography>
      )}
      <Problems organizationId={organizationId} job={job} />
    </Box>
  );
}

/**
 * The organisation's exports, newest first: each job's state and progress (items exported of those
 * chosen, bytes written), once finished its Download (a short-lived link to the file in the bucket) and
 * the items it left out, with the report. The list is read again after an export starts and every
 * `EXPORTS_POLL_MS` while an export is under way.
 */
export function ExportsCard({
  organizationId,
  resourceId,
}: {
  organizationId: string | null;
  /** Only this resource's newest exports (its page); absent: the organisation's. */
  resourceId?: string;
}) {
  const { t } = useTranslation();
  const all = useExports(resourceId ? null : organizationId);
  const ofResource = useResourceExports(resourceId ? organizationId : null, resourceId ?? "");
  const list = resourceId ? ofResource : all;
  const jobs = list.data?.exports ?? [];

  return (
    <ListCard
      id="exports"
      heading={t("search.exports.heading")}
      intro={t("search.exports.intro", { days: EXPORT_LIFETIME_DAYS })}
      loading={isLoading(list) && !list.data}
      error={list.error?.message ?? null}
      empty={list.data && jobs.length === 0 ? t("search.exports.empty") : null}
      emptyTestId="exports-empty"
    >
      {organizationId && jobs.length > 0 && (
        <Box component="ul" sx={{ m: 0, p: 0, "& > li + li": { borderTop: 1, borderColor: "divider" } }}>
          {jobs.map((job) => (
            <ExportRow key={job.exportId} organizationId={organizationId} job={job} />
          ))}
        </Box>
      )}
    </ListCard>
  );
}
