import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import TextField from "@mui/material/TextField";
import ToggleButton from "@mui/material/ToggleButton";
import ToggleButtonGroup from "@mui/material/ToggleButtonGroup";
import Typography from "@mui/material/Typography";
import type { Resource } from "@alpvault/contracts/organizations";
import { SEARCH_SERVICES, searchDateProblem, type SearchService } from "@alpvault/contracts/search";
import { SERVICES } from "@alpvault/contracts/services";
import { useEffect, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { formatDate } from "@/lib/format";
import { isLoading } from "@/lib/query";
import { useBrowseBackups, type BrowseQuery } from "../api/browse-backups";
import { PLACE_VIEWS, type PlaceParams } from "./browse-places";
import { SearchResultsCard } from "./search-results-card";
import { ExportsCard } from "./exports-card";
import type { RecoverSelection } from "./search-screen";
import "../i18n/register";

const PAGE_SIZE = 25;

/**
 * Where the browse is: the service (none until one is chosen: the API browses the resource's first, Gmail
 * for a mailbox, Drive for a shared drive), the day, and the service's place (a label, a folder, a
 * calendar's days, a contact group).
 */
interface Place {
  service?: SearchService;
  date?: string;
  params: PlaceParams;
}

/** Whose backups are browsed: the resource as read, or, until it is, as the browse's answer names it. */
type Browsed = Pick<Resource, "resourceId" | "name" | "email"> & { type?: Resource["type"] };

/** A mailbox is browsed by every service; a shared drive (the one kind without an email) by those needing no mailbox. */
const servicesOf = (browsed: Browsed): SearchService[] => {
  const hasMailbox = (browsed.type ?? (browsed.email === null ? "shared_drive" : "email")) !== "shared_drive";
  return SEARCH_SERVICES.filter((service) => hasMailbox || !SERVICES[service].needsMailbox);
};

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
  const [place, setPlace] = useState<Place>({ params: {} });
  const [page, setPage] = useState(1);
  const [tokens, setTokens] = useState<Record<number, string>>({});
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const pageToken = page > 1 ? tokens[page] : undefined;
  const query: BrowseQuery = {
    ...(place.service ? { service: place.service } : {}),
    ...(place.date ? { date: place.date } : {}),
    ...place.params,
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
    // The service shown stays the one asked for from now on; another service starts at its first place.
    setPlace((current) => ({
      ...current,
      service: current.service ?? service,
      ...(next.service !== undefined ? { params: {} } : {}),
      ...next,
    }));
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
  const view = answer ? PLACE_VIEWS[answer.service] : undefined;
  const exportPlace = answer && view ? view.exportPlace(answer, place.params, t) : undefined;
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
          aria-label={service ? t(PLACE_VIEWS[service].title) : undefined}
        >
          {answer && view && (
            <view.Pane answer={answer} params={place.params} onPlace={(params) => go({ params })} />
          )}
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
