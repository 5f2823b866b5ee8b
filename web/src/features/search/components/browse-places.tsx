import CalendarMonthOutlined from "@mui/icons-material/CalendarMonthOutlined";
import ChevronLeft from "@mui/icons-material/ChevronLeft";
import ChevronRight from "@mui/icons-material/ChevronRight";
import FolderOutlined from "@mui/icons-material/FolderOutlined";
import GroupOutlined from "@mui/icons-material/GroupOutlined";
import LabelOutlined from "@mui/icons-material/LabelOutlined";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import IconButton from "@mui/material/IconButton";
import List from "@mui/material/List";
import ListItem from "@mui/material/ListItem";
import ListItemButton from "@mui/material/ListItemButton";
import ListItemIcon from "@mui/material/ListItemIcon";
import ListItemText from "@mui/material/ListItemText";
import ToggleButton from "@mui/material/ToggleButton";
import ToggleButtonGroup from "@mui/material/ToggleButtonGroup";
import Typography from "@mui/material/Typography";
import { addDays, BROWSE_SPANS, type BrowseResponse, type BrowseSpan } from "@alpvault/contracts/browse";
import type { SearchService } from "@alpvault/contracts/search";
import type { ComponentType, ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { BrowsePlaceParams } from "../api/browse-backups";
import type { ExportPlace } from "./export-button";
import "../i18n/register";

/** A browse's place, as the API takes it. */
export type PlaceParams = BrowsePlaceParams;

export interface PlaceProps {
  answer: BrowseResponse;
  params: PlaceParams;
  /** Goes to another place of the service: these parameters instead of the current ones. */
  onPlace: (params: PlaceParams) => void;
}

/** What a browse shows of a service's places: its pane, its name, and what Export all exports there. */
export interface PlaceView {
  /** The i18n key of the pane's name (its section's label). */
  title: string;
  Pane: ComponentType<PlaceProps>;
  exportPlace: (
    answer: BrowseResponse,
    params: PlaceParams,
    t: (key: string) => string,
  ) => ExportPlace | undefined;
}

/** A list of places, the current one marked. */
function PlaceList(props: {
  label: string;
  testId: string;
  icon: ReactNode;
  entries: { key: string; name: string; current: boolean; onClick: () => void }[];
}) {
  return (
    <List dense aria-label={props.label} data-testid={`browse-${props.testId}s`}>
      {props.entries.map((entry) => (
        <ListItem key={entry.key} disablePadding>
          <ListItemButton
            selected={entry.current}
            aria-current={entry.current ? "location" : undefined}
            onClick={entry.onClick}
            data-testid={`browse-${props.testId}`}
          >
            <ListItemIcon sx={{ minWidth: 32 }}>{props.icon}</ListItemIcon>
            <ListItemText primary={entry.name} />
          </ListItemButton>
        </ListItem>
      ))}
    </List>
  );
}

/** The labels to browse by, the chosen one marked; "All mail" first. */
function LabelPane({ answer, params, onPlace }: PlaceProps) {
  const { t } = useTranslation();
  const entries = [{ label: undefined, name: t("search.browse.allMail") }, ...answer.labels];
  return (
    <PlaceList
      label={t("search.browse.labels")}
      testId="label"
      icon={<LabelOutlined fontSize="small" />}
      entries={entries.map((entry) => ({
        key: entry.label ?? "",
        name: entry.name,
        current: entry.label === params.label,
        onClick: () => onPlace(entry.label === undefined ? {} : { label: entry.label }),
      }))}
    />
  );
}

/** The folder browsed, as a trail back to the top, and its sub-folders as the backups hold them. */
function FolderPane({ answer, onPlace }: PlaceProps) {
  const { t } = useTranslation();
  const parts = answer.folder === "" ? [] : answer.folder.split("/");
  const open = (folder: string) => onPlace(folder === "" ? {} : { folder });
  return (
    <Box>
      <Box
        component="nav"
        aria-label={t("search.browse.path")}
        sx={{ display: "flex", flexWrap: "wrap", px: 1 }}
      >
        <Button size="small" onClick={() => open("")} data-testid="browse-crumb">
          {t("search.browse.allDrives")}
        </Button>
        {parts.map((part, index) => (
          <Button
            key={parts.slice(0, index + 1).join("/")}
            size="small"
            onClick={() => open(parts.slice(0, index + 1).join("/"))}
            aria-current={index === parts.length - 1 ? "location" : undefined}
            data-testid="browse-crumb"
          >
            / {part}
          </Button>
        ))}
      </Box>
      {answer.folders.length === 0 ? (
        <Typography variant="body2" color="text.secondary" sx={{ p: 2 }}>
          {t("search.browse.noFolders")}
        </Typography>
      ) : (
        <PlaceList
          label={t("search.browse.folders")}
          testId="folder"
          icon={<FolderOutlined fontSize="small" />}
          entries={answer.folders.map((folder) => ({
            key: folder.path,
            name: folder.name,
            current: false,
            onClick: () => open(folder.path),
          }))}
        />
      )}
      {answer.foldersAtLeast && (
        <Typography variant="caption" color="text.secondary" sx={{ px: 2 }} component="p">
          {t("search.browse.moreFolders")}
        </Typography>
      )}
    </Box>
  );
}

/** The days shown, as people read them: "Mon, 1 Mar 2027 – Sun, 7 Mar 2027". */
function useDaysText(): (view: NonNullable<BrowseResponse["view"]>) => string {
  const { i18n } = useTranslation();
  const day = new Intl.DateTimeFormat(i18n.language, { dateStyle: "full", timeZone: "UTC" });
  return (view) => {
    const first = day.format(new Date(`${view.from}T00:00:00Z`));
    const last = day.format(new Date(`${addDays(view.to, -1)}T00:00:00Z`));
    return first === last ? first : `${first} – ${last}`;
  };
}

/** The days a calendar browse shows: day or week, the ones before and after, back to today. */
function DaysBar({ answer, params, onPlace }: PlaceProps) {
  const { t } = useTranslation();
  const daysText = useDaysText();
  const view = answer.view;
  if (!view) return null;
  const step = view.span === "week" ? 7 : 1;
  const go = (change: PlaceParams) => onPlace({ ...params, ...change });
  return (
    <Box sx={{ px: 2, pt: 2, display: "flex", flexDirection: "column", gap: 1 }}>
      <ToggleButtonGroup
        exclusive
        size="small"
        value={view.span}
        aria-label={t("search.browse.span")}
        onChange={(_event, span: BrowseSpan | null) => span && go({ span })}
      >
        {BROWSE_SPANS.map((span) => (
          <ToggleButton key={span} value={span}>
            {t(`search.browse.spans.${span}`)}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
      <Box sx={{ display: "flex", alignItems: "center", gap: 0.5 }}>
        <IconButton
          size="small"
          aria-label={t(`search.browse.previous.${view.span}`)}
          onClick={() => go({ day: addDays(view.from, -step) })}
        >
          <ChevronLeft />
        </IconButton>
        <Button size="small" onClick={() => go({ day: undefined })}>
          {t("search.browse.today")}
        </Button>
        <IconButton
          size="small"
          aria-label={t(`search.browse.next.${view.span}`)}
          onClick={() => go({ day: addDays(view.from, step) })}
        >
          <ChevronRight />
        </IconButton>
      </Box>
      <Typography variant="body2" data-testid="browse-days" aria-live="polite">
        {daysText(view)}
      </Typography>
      <Typography variant="caption" color="text.secondary">
        {t("search.browse.timeZone", { zone: view.timeZone })}
      </Typography>
      {view.eventsAtLeast && (
        <Typography variant="caption" color="text.secondary" component="p">
          {t("search.browse.moreEvents")}
        </Typography>
      )}
    </Box>
  );
}

/** The user's calendars (the one browsed marked) and the days shown of it. */
function CalendarPane(props: PlaceProps) {
  const { t } = useTranslation();
  const { answer, params, onPlace } = props;
  if (answer.calendars.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary" sx={{ p: 2 }}>
        {t("search.browse.noCalendars")}
      </Typography>
    );
  }
  return (
    <Box>
      <DaysBar {...props} />
      <PlaceList
        label={t("search.browse.calendars")}
        testId="calendar"
        icon={<CalendarMonthOutlined fontSize="small" />}
        entries={answer.calendars.map((calendar) => ({
          key: calendar.calendar,
          name: calendar.name,
          current: calendar.calendar === answer.calendar,
          onClick: () => onPlace({ ...params, calendar: calendar.calendar }),
        }))}
      />
    </Box>
  );
}

/** The groups of an address book: All contacts, each contact group, Other contacts. */
function GroupPane({ answer, onPlace }: PlaceProps) {
  const { t } = useTranslation();
  return (
    <PlaceList
      label={t("search.browse.groups")}
      testId="group"
      icon={<GroupOutlined fontSize="small" />}
      entries={answer.groups.map((group) => ({
        key: group.group,
        name: groupName(group, t),
        current: group.group === answer.group,
        onClick: () => onPlace({ group: group.group }),
      }))}
    />
  );
}

/** A group's name: All contacts and Other contacts in the console's language, a contact group's own. */
function groupName(group: BrowseResponse["groups"][number], t: (key: string) => string): string {
  const names: Record<string, string> = {
    all: t("search.browse.allContacts"),
    other: t("search.browse.otherContacts"),
  };
  return names[group.group] ?? group.name;
}

/** Each service's places. */
export const PLACE_VIEWS: Readonly<Record<SearchService, PlaceView>> = {
  gmail: {
    title: "search.browse.labels",
    Pane: LabelPane,
    exportPlace: (answer, params) =>
      params.label === undefined
        ? undefined
        : {
            field: "label",
            value: params.label,
            name: answer.labels.find((entry) => entry.label === params.label)?.name ?? params.label,
          },
  },
  drive: {
    title: "search.browse.folders",
    Pane: FolderPane,
    exportPlace: (answer) =>
      answer.folder === ""
        ? undefined
        : { field: "folder", value: answer.folder, name: answer.folder.split("/").at(-1) ?? answer.folder },
  },
  calendar: {
    title: "search.browse.calendars",
    Pane: CalendarPane,
    exportPlace: (answer) => {
      const calendar = answer.calendars.find((entry) => entry.calendar === answer.calendar);
      return calendar ? { field: "calendar", value: calendar.calendar, name: calendar.name } : undefined;
    },
  },
  contacts: {
    title: "search.browse.groups",
    Pane: GroupPane,
    exportPlace: (answer, _params, t) => {
      const group = answer.groups.find((entry) => entry.group === answer.group);
      return group ? { field: "group", value: group.group, name: groupName(group, t) } : undefined;
    },
  },
};
