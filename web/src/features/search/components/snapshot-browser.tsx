import FolderOutlined from "@mui/icons-material/FolderOutlined";
import LabelOutlined from "@mui/icons-material/LabelOutlined";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import List from "@mui/material/List";
import ListItem from "@mui/material/ListItem";
import ListItemButton from "@mui/material/ListItemButton";
import ListItemIcon from "@mui/material/ListItemIcon";
import ListItemText from "@mui/material/ListItemText";
import TextField from "@mui/material/TextField";
import ToggleButton from "@mui/material/ToggleButton";
import ToggleButtonGroup from "@mui/material/ToggleButtonGroup";
import Typography from "@mui/material/Typography";
import type { BrowseResponse } from "@alpvault/contracts/browse";
import type { Resource } from "@alpvault/contracts/organizations";
import { searchDateProblem, type SearchService } from "@alpvault/contracts/search";
import { useEffect, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { formatDate } from "@/lib/format";
import { isLoading } from "@/lib/query";
import { useBrowseBackups, type BrowseQuery } from "../api/browse-backups";
import { SearchResultsCard } from "./search-results-card";
import type { ExportPlace } from "./export-button";
import { ExportsCard } from "./exports-card";
import type { RecoverSelection } from "./search-screen";
import "../i18n/register";

const PAGE_SIZE = 25;

/**
 * Where the browse is: the service (none until one is chosen: the API browses the resource's first, Gmail
 * for a mailbox, Drive for a shared drive), the day, the label or folder.
 */
interface Place {
  service?: SearchService;
  date?: string;
  label?: string;
  folder: string;
}

/** Whose backups are browsed: the resource as read, or, until it is, as the browse's answer names it. */
type Browsed = Pick<Resource, "resourceId" | "name" | "email"> & { type?: Resource["type"] };

/** A mailbox is browsed by Gmail and Drive; a shared drive (the one kind without an email) by Drive. */
const servicesOf = (browsed: Browsed): SearchService[] =>
  (browsed.type ?? (browsed.email === null ? "shared_drive" : "email")) === "shared_drive"
    ? ["drive"]
    : ["gmail", "drive"];

/** The labels to browse by, the chosen one marked; "All mail" first. */
function LabelList(props: {
  answer: BrowseResponse;
  label: string | undefined;
  onLabel: (label?: string) => void;
}) {
  const { t } = useTranslation();
  const entries = [{ label: undefined, name: t("search.browse.allMail") }, ...props.answer.labels];
  return (
    <List dense aria-label={t("search.browse.labels")} data-testid="browse-labels">
      {entries.map((entry) => (
        <ListItem key={entry.label ?? ""} disablePadding>
          <ListItemButton
            selected={entry.label === props.label}
            onClick={() => props.onLabel(entry.label)}
            data-testid="browse-label"
          >
            <ListItemIcon sx={{ minWidth: 32 }}>
              <LabelOutlined fontSize="small" />
            </ListItemIcon>
            <ListItemText primary={entry.name} />
          </ListItemButton>
        </ListItem>
      ))}
    </List>
  );
}

/** The folder browsed, as a trail back to the top, and its sub-folders as the backups hold them. */
function FolderList(props: { answer: BrowseResponse; onFolder: (folder: string) => void }) {
  const { t } = useTranslation();
  const parts = props.answer.folder === "" ? [] : props.answer.folder.split("/");
  return (
    <Box>
      <Box
        component="nav"
        aria-label={t("search.browse.path")}
        sx={{ display: "flex", flexWrap: "wrap", px: 1 }}
      >
        <Button size="small" onClick={() => props.onFolder("")} data-testid="browse-crumb">
          {t("search.browse.allDrives")}
        </Button>
        {parts.map((part, index) => (
          <Button
            key={parts.slice(0, index + 1).join("/")}
            size="small"
            onClick={() => props.onFolder(parts.slice(0, index + 1).join("/"))}
            aria-current={index === parts.length - 1 ? "location" : undefined}
            data-testid="browse-crumb"
          >
            / {part}
          </Button>
        ))}
      </Box>
      {props.answer.folders.length === 0 ? (
        <Typography variant="body2" color="text.secondary" sx={{ p: 2 }}>
          {t("search.browse.noFolders")}
        </Typography>
      ) : (
        <List dense aria-label={t("search.browse.folders")} data-testid="browse-folders">
          {props.answer.folders.map((folder) => (
            <ListItem key={folder.path} disablePadding>
              <ListItemButton onClick={() => props.onFolder(folder.path)} data-testid="browse-folder">
                <ListItemIcon sx={{ minWidth: 32 }}>
                  <FolderOutlined fontSize="small" />
                </ListItemIcon>
                <ListItemText primary={folder.name} />
              </ListItemButton>
            </ListItem>
          ))}
        </List>
      )}
      {props.answer.foldersAtLeast && (
        <Typography variant="caption" color="text.secondary" sx={{ px: 2 }} component="p">
          {t("search.browse.moreFolders")}
        </Typography>
      )}
    </Box>
  );
}

/** The day to browse: MM-DD-YYYY (today or before), or empty for the backups as they are now. */
function DateForm({ onDate }: { onDate: (date: string | undefined) => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState("");
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const date = text.trim();
    const problem = date ? searchDateProblem(date) : null;
    if (problem) {
      setError(problem);
      return;
    }
    setError(null);
    onDate(date || undefined);
  };
  return (
    <Box
      component="form"
      onSubmit={submit}
      noValidate
      sx={{ display: "flex", gap: 1, alignItems: "flex-start" }}
    >
      <TextField
        id="browse-date"
        size="small"
        label={t("search.browse.date")}
        placeholder={t("search.browse.datePlaceholder")}
        value={text}
        onChange={(event) => setText(event.target.value)}
        error={error !== null}
        helperText={error ?? t("search.browse.dateHelp")}
      />
      <Button type="submit" variant="outlined">
        {t("search.browse.show")}
      </Button>
    </Box>
  );
}

/** The browse's day, its service (a mailbox's Gmail or Drive) and what the page shows. */
function BrowseToolbar(props: {
  services: SearchService[];
  /** The service shown (undefined until the first answer says which). */
  service: SearchService | undefined;
  asOf: string;
  onDate: (date: string | undefined) => void;
  onService: (service: SearchService) => void;
}) {
  const { t } = useTranslation();
  return (
    <Card
      variant="outlined"
      sx={{ p: 2, display: "flex", gap: 2, flexWrap: "wrap", alignItems: "flex-start" }}
    >
      <DateForm onDate={props.onDate} />
      {props.services.length > 1 && props.service && (
        <ToggleButtonGroup
          exclusive
          size="small"
          value={props.service}
          aria-label={t("search.browse.service")}
          onChange={(_event, value: SearchService | null) => value && props.onService(value)}
        >
          {props.services.map((service) => (
            <ToggleButton key={service} value={service}>
              {t(`search.tabs.${service}`)}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
      )}
      <Typography variant="body2" sx={{ alignSelf: "center" }} data-testid="browse-as-of">
        {props.asOf}
      </Typography>
    </Card>
  );
}

/** Export all exports what the browse shows: the open label's or folder's items (the top: none). */
function exportPlaceOf(
  answer: BrowseResponse | undefined,
  label: string | undefined,
): ExportPlace | undefined {
  if (answer?.service === "gmail" && label !== undefined) {
    return { label, name: answer.labels.find((entry) => entry.label === label)?.name ?? label };
  }
  if (answer?.service === "drive" && answer.folder !== "") {
    return { folder: answer.folder, name: answer.folder.split("/").at(-1) ?? answer.folder };
  }
  return undefined;
}

/**
 * Point-in-time browse of one resource (docs/requirements.md#backup-activity): a day (or now), the
 * service, then the mailbox by label or the drive folder by folder, each page of items as the backups held
 * them then; the selection is recovered (the recovery modal, at that day) or exported, as from a search.
 */
export function SnapshotBrowser(props: {
  organizationId: string | null;
  resourceId: string;
  /** The resource as read; undefined while it loads (the browse is asked for at once all the same). */
  resource: Resource | undefined;
  onRecover: (selection: RecoverSelection) => void;
}) {
  const { t, i18n } = useTranslation();
  const [place, setPlace] = useState<Place>({ folder: "" });
  const [page, setPage] = useState(1);
  const [tokens, setTokens] = useState<Record<number, string>>({});
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const pageToken = page > 1 ? tokens[page] : undefined;
  const query: BrowseQuery = {
    ...(place.service ? { service: place.service } : {}),
    ...(place.date ? { date: place.date } : {}),
    ...(place.service === "gmail" && place.label ? { label: place.label } : {}),
    ...(place.service === "drive" && place.folder ? { folder: place.folder } : {}),
    page,
    pageSize: PAGE_SIZE,
    ...(pageToken ? { pageToken } : {}),
  };
  const browse = useBrowseBackups(props.organizationId, props.resourceId, query);
  const answer = browse.status === "error" ? undefined : browse.data;
  const resource: Browsed | undefined = props.resource ?? browse.data?.resource;
  const services = resource ? servicesOf(resource) : [];
  const service = place.service ?? answer?.service;
  const nextToken = browse.isPlaceholderData ? undefined : browse.data?.nextPageToken;
  const answered = browse.data?.page;
  useEffect(() => {
    if (nextToken && answered !== undefined)
      setTokens((known) =>
        known[answered + 1] === nextToken ? known : { ...known, [answered + 1]: nextToken },
      );
  }, [nextToken, answered]);

  // Another place shows other items: the page and the selection start again.
  const go = (next: Partial<Place>) => {
    // The service shown stays the one asked for from now on.
    setPlace((current) => ({ ...current, service: current.service ?? service, ...next }));
    setPage(1);
    setTokens({});
    setSelected(new Set());
  };
  const recover = () => {
    if (!answer || !resource || selected.size === 0) return;
    props.onRecover({
      resourceId: resource.resourceId,
      resourceName: resource.email ? `${resource.name} (${resource.email})` : resource.name,
      services: [answer.service],
      itemIds: [...selected],
      ...(place.date ? { date: place.date } : {}),
    });
  };
  const exportPlace = exportPlaceOf(answer, place.label);
  const asOf = answer?.asOf
    ? t("search.browse.asOf", {
        // The end of the day is the next day's first instant: the day is the one before it.
        date: formatDate(Date.parse(answer.asOf) - 1, i18n.language),
      })
    : t("search.browse.now");

  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 2 }} data-testid="snapshot-browser">
      <Typography color="text.secondary">
        {t("search.browse.intro", { resource: resource ? (resource.email ?? resource.name) : "" })}
      </Typography>
      <BrowseToolbar
        services={services}
        service={service}
        asOf={asOf}
        onDate={(date) => go(date ? { date } : { date: undefined })}
        onService={(service) => go({ service })}
      />
      {browse.error && <Alert severity="error">{browse.error.message}</Alert>}
      <Box
        sx={{
          display: "grid",
          gap: 2,
          gridTemplateColumns: { xs: "minmax(0, 1fr)", md: "260px minmax(0, 1fr)" },
        }}
      >
        <Card
          variant="outlined"
          component="section"
          aria-label={service === "drive" ? t("search.browse.folders") : t("search.browse.labels")}
        >
          {answer &&
            (answer.service === "gmail" ? (
              <LabelList answer={answer} label={place.label} onLabel={(label) => go({ label })} />
            ) : (
              <FolderList answer={answer} onFolder={(folder) => go({ folder })} />
            ))}
        </Card>
        <SearchResultsCard
          organizationId={props.organizationId}
          answer={answer}
          loading={isLoading(browse)}
          date={place.date}
          place={exportPlace}
          selected={selected}
          onSelectedChange={setSelected}
          onPage={(next) => {
            setPage(next);
            setSelected(new Set());
          }}
          onRecover={recover}
        />
      </Box>
      <ExportsCard organizationId={props.organizationId} resourceId={props.resourceId} />
    </Box>
  );
}
