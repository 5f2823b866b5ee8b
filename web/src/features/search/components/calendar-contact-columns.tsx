import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import type { CalendarSearchResult, ContactSearchResult } from "@alpvault/contracts/search";
import "../i18n/register";
import { Title, useDateFormat } from "./result-columns";
import type { ResultColumn } from "./results-table";

/** A time as an event keeps it: a day for an all-day event (YYYY-MM-DD, no time zone), else a moment. */
function useEventTime(): (value: string) => string {
  const { i18n } = useTranslation();
  const formatDate = useDateFormat();
  const day = new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium", timeZone: "UTC" });
  return (value) => {
    if (value === "") return "—";
    return /^\d{4}-\d{2}-\d{2}$/.test(value) ? day.format(new Date(`${value}T00:00:00Z`)) : formatDate(value);
  };
}

/** Calendars and events: title (and calendar), organiser, guests, start, end, last backup. */
export function useCalendarColumns(): ResultColumn<CalendarSearchResult>[] {
  const { t } = useTranslation();
  const formatDate = useDateFormat();
  const eventTime = useEventTime();
  return [
    {
      id: "summary",
      label: t("search.table.summary"),
      render: (entry) => (
        <Title
          text={entry.summary || t("search.table.noTitle")}
          secondary={
            entry.entry !== "event"
              ? t("search.table.calendarEntry")
              : entry.occurrenceOf
                ? t("search.table.occurrence", { calendar: entry.calendar })
                : entry.calendar
          }
          deletedAtSource={entry.deletedAtSource}
        />
      ),
    },
    { id: "organizer", label: t("search.table.organizer"), render: (entry) => entry.organizer || "—" },
    {
      id: "attendees",
      label: t("search.table.attendees"),
      render: (entry) =>
        entry.attendees.length === 0 ? (
          "—"
        ) : (
          <>
            <Typography variant="body2">
              {t("search.table.attendeesCount", { count: entry.attendees.length })}
            </Typography>
            <Typography variant="caption" component="div" color="text.secondary">
              {entry.attendees.slice(0, 3).join(", ")}
            </Typography>
          </>
        ),
    },
    { id: "start", label: t("search.table.start"), render: (entry) => eventTime(entry.start), noWrap: true },
    { id: "end", label: t("search.table.end"), render: (entry) => eventTime(entry.end), noWrap: true },
    {
      id: "lastBackup",
      label: t("search.table.lastBackup"),
      render: (entry) => formatDate(entry.lastBackup),
      noWrap: true,
    },
  ];
}

/** What the name column says under a group's or an other contact's name (nothing under a contact's). */
const ENTRY_TEXTS: Readonly<Record<ContactSearchResult["entry"], string | undefined>> = {
  contact: undefined,
  group: "search.table.groupEntry",
  "other-contact": "search.table.otherContactEntry",
};

/** Contacts, groups and other contacts: name, email, phone, groups, last backup. */
export function useContactColumns(): ResultColumn<ContactSearchResult>[] {
  const { t } = useTranslation();
  const formatDate = useDateFormat();
  const entryText = (entry: ContactSearchResult["entry"]) => {
    const key = ENTRY_TEXTS[entry];
    return key ? t(key) : undefined;
  };
  return [
    {
      id: "name",
      label: t("search.table.name"),
      render: (contact) => (
        <Title
          text={contact.name || t("search.table.noName")}
          secondary={entryText(contact.entry)}
          deletedAtSource={contact.deletedAtSource}
        />
      ),
    },
    { id: "email", label: t("search.table.email"), render: (contact) => contact.email || "—" },
    {
      id: "phone",
      label: t("search.table.phone"),
      render: (contact) => contact.phones[0] ?? "—",
      noWrap: true,
    },
    { id: "groups", label: t("search.table.groups"), render: (contact) => contact.groups.join(", ") || "—" },
    {
      id: "lastBackup",
      label: t("search.table.lastBackup"),
      render: (contact) => formatDate(contact.lastBackup),
      noWrap: true,
    },
  ];
}
