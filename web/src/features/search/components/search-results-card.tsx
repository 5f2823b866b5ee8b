import ChevronLeft from "@mui/icons-material/ChevronLeft";
import ChevronRight from "@mui/icons-material/ChevronRight";
import RestoreOutlined from "@mui/icons-material/RestoreOutlined";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import IconButton from "@mui/material/IconButton";
import LinearProgress from "@mui/material/LinearProgress";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import type {
  CalendarSearchResult,
  ContactSearchResult,
  DriveSearchResult,
  MailSearchResult,
  SearchResponse,
} from "@alpvault/contracts/search";
import { useCalendarColumns, useContactColumns } from "./calendar-contact-columns";
import { ExportButton, type ExportPlace } from "./export-button";
import { useDriveColumns, useMailColumns } from "./result-columns";
import { ResultsTable, type ResultColumn } from "./results-table";

type Row = SearchResponse["results"][number];

/** The table of one answer, with the columns of its service. */
function Results(props: {
  answer: SearchResponse;
  busy: boolean;
  selected: ReadonlySet<string>;
  onSelectedChange: (selected: Set<string>) => void;
}) {
  const { t } = useTranslation();
  const noTitle = t("search.table.noTitle");
  const tables = {
    gmail: {
      columns: useMailColumns(),
      rowName: (mail: MailSearchResult) => mail.subject || t("search.table.noSubject"),
    },
    drive: { columns: useDriveColumns(), rowName: (file: DriveSearchResult) => file.name },
    calendar: {
      columns: useCalendarColumns(),
      rowName: (entry: CalendarSearchResult) => entry.summary || noTitle,
      // A browse shows a series at each of its occurrences: a row per occurrence.
      rowKey: (entry: CalendarSearchResult) => `${entry.itemId} ${entry.start}`,
    },
    contacts: {
      columns: useContactColumns(),
      rowName: (contact: ContactSearchResult) => contact.name || contact.email,
    },
  };
  const { service } = props.answer;
  // Each service's columns read the results of that service, which the answer carries beside its name.
  const table = tables[service] as unknown as {
    columns: ResultColumn<Row>[];
    rowName: (row: Row) => string;
    rowKey?: (row: Row) => string;
  };
  return (
    <ResultsTable
      label={t(`search.table.${service}`)}
      busy={props.busy}
      selected={props.selected}
      onSelectedChange={props.onSelectedChange}
      // Several words may stop a page short after reading their share: then more may follow.
      empty={props.answer.nextPageToken ? t("search.emptySoFar") : t(`search.empty.${service}`)}
      columns={table.columns}
      rows={props.answer.results as Row[]}
      rowName={table.rowName}
      {...(table.rowKey ? { rowKey: table.rowKey } : {})}
    />
  );
}

/** Whose items these are and how many, or the hint before the first search. */
function ResultsHeading({ answer }: { answer: SearchResponse | undefined }) {
  const { t } = useTranslation();
  return (
    <Box sx={{ flex: 1, minWidth: 0 }}>
      {answer ? (
        <>
          <Typography variant="subtitle1" data-testid="search-results-for">
            {t("search.resultsFor", {
              resource: answer.resource.email
                ? `${answer.resource.name} (${answer.resource.email})`
                : answer.resource.name,
            })}
          </Typography>
          <Typography variant="body2" color="text.secondary" data-testid="search-total">
            {t(answer.totalAtLeast ? "search.totalAtLeast" : "search.total", { count: answer.total })}
          </Typography>
        </>
      ) : (
        <Typography color="text.secondary" data-testid="search-hint">
          {t("search.hint")}
        </Typography>
      )}
    </Box>
  );
}

function ResultsPager({
  answer,
  loading,
  onPage,
}: {
  answer: SearchResponse;
  loading: boolean;
  onPage: (page: number) => void;
}) {
  const { t } = useTranslation();
  // Pages of several words may stop short: the page reached counts too.
  const pages = Math.max(1, answer.page, Math.ceil(answer.total / answer.pageSize));
  return (
    <Box sx={{ display: "flex", alignItems: "center", justifyContent: "flex-end", gap: 1, p: 1 }}>
      <IconButton
        aria-label={t("search.previous")}
        disabled={answer.page <= 1 || loading}
        onClick={() => onPage(answer.page - 1)}
      >
        <ChevronLeft />
      </IconButton>
      <Typography variant="body2" data-testid="search-page">
        {t(answer.totalAtLeast ? "search.pageAtLeast" : "search.page", { page: answer.page, pages })}
      </Typography>
      <IconButton
        aria-label={t("search.next")}
        disabled={answer.nextPageToken === null || loading}
        onClick={() => onPage(answer.page + 1)}
      >
        <ChevronRight />
      </IconButton>
    </Box>
  );
}

/** One page of the answer with its selection, the export and recover actions, and the pager. */
export function SearchResultsCard(props: {
  organizationId: string | null;
  answer: SearchResponse | undefined;
  loading: boolean;
  /** The search's date (MM-DD-YYYY), when it had one. */
  date: string | undefined;
  /** A browse's label or folder: Export all exports its items. */
  place?: ExportPlace | undefined;
  selected: Set<string>;
  onSelectedChange: (selected: Set<string>) => void;
  onPage: (page: number) => void;
  onRecover: () => void;
}) {
  const { t } = useTranslation();
  const { answer, loading, selected } = props;
  return (
    <Card variant="outlined">
      <Box sx={{ p: 2, display: "flex", alignItems: "center", gap: 2, flexWrap: "wrap", minHeight: 68 }}>
        <ResultsHeading answer={answer} />
        {selected.size > 0 && (
          <Typography variant="body2" color="text.secondary">
            {t("search.selected", { count: selected.size })}
          </Typography>
        )}
        <ExportButton
          organizationId={props.organizationId}
          answer={answer}
          selected={selected}
          date={props.date}
          place={props.place}
        />
        <Button
          variant="contained"
          startIcon={<RestoreOutlined />}
          disabled={selected.size === 0 || !answer}
          onClick={props.onRecover}
        >
          {t("search.recover")}
        </Button>
      </Box>
      <Box sx={{ height: 4 }}>{loading && <LinearProgress />}</Box>
      {answer && (
        <>
          <Results
            answer={answer}
            busy={loading}
            selected={selected}
            onSelectedChange={props.onSelectedChange}
          />
          <ResultsPager answer={answer} loading={loading} onPage={props.onPage} />
        </>
      )}
    </Card>
  );
}
