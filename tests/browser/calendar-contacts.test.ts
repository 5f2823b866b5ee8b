/**
 * Calendars and Contacts in Chromium (docs/requirements.md#backup-activity "Browse", #screens-and-navigation
 * "Search backups"), on an organisation of its own on the Zürich plan with a real backup of its user's
 * calendar (an event today, a daily series around today with tomorrow's occurrence cancelled) and address
 * book (a contact in the group "Team", one outside it): the browse by day, the series at its occurrences, a
 * selection taken to the recovery modal, Export all of the calendar and of the group, the search tabs; each
 * screen light and dark, and axe-core finds nothing serious.
 */
import { addDays } from "@alpvault/contracts/browse";
import { SCOPES } from "../../emulators/workspace/src/index";
import { backedUpWithPolicy } from "../support/backup-runs";
import { setAccount } from "../support/organizations";
import { calendarFor, peopleFor, workspaceAdmin } from "../support/workspace";
import { seriousViolations } from "./support/axe";
import { countIs } from "./support/browser";
import { useFreshOrganizationPage, type FreshOrganizationPage } from "./support/fresh-organization";
import { screenshotBothThemes } from "./support/onboarding";
import { expectSnackbar } from "./support/snackbar";

jest.setTimeout(240_000);

const ZONE = "Europe/Zurich";
/**
 * The day the test browses as "today" (YYYY-MM-DD in the calendar's zone), chosen once when the calendar
 * is written; the page's clock is held at that moment, so a run across midnight browses the same day.
 */
let today: string;
let writtenAt: Date;
const dayInZone = (days: number) => addDays(today, days);

let resourceId: string;

/** The user's calendar and address book, backed up by a policy of Calendars and Contacts. */
async function prepare({ setup }: FreshOrganizationPage) {
  const { organization, workspace } = setup;
  await setAccount(organization, { planId: "zurich", seats: 5 });
  writtenAt = new Date();
  today = new Intl.DateTimeFormat("en-CA", { timeZone: ZONE }).format(writtenAt);
  const calendar = calendarFor(workspace.user, [SCOPES.calendar]);
  await calendar.events.insert({
    calendarId: "primary",
    requestBody: {
      summary: "Quarterly review",
      start: { dateTime: `${dayInZone(0)}T10:00:00`, timeZone: ZONE },
      end: { dateTime: `${dayInZone(0)}T11:00:00`, timeZone: ZONE },
    },
  });
  const series = await calendar.events.insert({
    calendarId: "primary",
    requestBody: {
      summary: "Daily stand-up",
      start: { dateTime: `${dayInZone(-2)}T09:00:00`, timeZone: ZONE },
      end: { dateTime: `${dayInZone(-2)}T09:15:00`, timeZone: ZONE },
      recurrence: ["RRULE:FREQ=DAILY;COUNT=5"],
    },
  });
  const instances = await calendar.events.instances({ calendarId: "primary", eventId: series.data.id! });
  await calendar.events.delete({ calendarId: "primary", eventId: instances.data.items![3]!.id! });

  const people = peopleFor(workspace.user, [SCOPES.contacts]);
  const team = await people.contactGroups.create({ requestBody: { contactGroup: { name: "Team" } } });
  const seeded = await workspaceAdmin("POST", `/users/${workspace.user}/people/contacts`, {
    contacts: [
      {
        person: {
          names: [{ givenName: "Vreni", familyName: "Kälin" }],
          emailAddresses: [{ value: "vreni@example.ch" }],
          memberships: [{ contactGroupMembership: { contactGroupResourceName: team.data.resourceName! } }],
        },
      },
      { person: { names: [{ givenName: "Hans", familyName: "Odermatt" }] } },
    ],
    // Google's sync requests see a write only after minutes: as an address book is, made a while ago.
    ageMinutes: 10,
  });
  expect(seeded.status).toBe(200);
  const backedUp = await backedUpWithPolicy(setup, "Calendars and contacts", ["calendars", "contacts"]);
  expect(backedUp.run.state).toBe("succeeded");
  resourceId = backedUp.resourceId;
}

const fresh = useFreshOrganizationPage(1, prepare);
const page = () => fresh().page;
const rows = () => page().getByTestId("search-result");

describe("a calendar and an address book browsed", () => {
  it("when a day of the calendar is shown, then its event and the series' occurrence are listed in time order, the cancelled occurrence nowhere", async () => {
    await page().clock.setFixedTime(writtenAt);
    await page().goto(`/resources/${resourceId}/browse`);
    await page().getByRole("button", { name: "Calendars", exact: true }).click();
    await page().getByTestId("browse-days").waitFor();
    await page().getByRole("button", { name: "Day", exact: true }).click();
    await countIs(rows(), 2);
    expect(await rows().nth(0).innerText()).toContain("Daily stand-up");
    expect(await rows().nth(0).innerText()).toContain("recurring: recovered whole");
    expect(await rows().nth(1).innerText()).toContain("Quarterly review");
    await screenshotBothThemes(page(), "browse-calendar");
    expect(await seriousViolations(page())).toEqual([]);

    await page().getByRole("button", { name: "Next day" }).click();
    await countIs(rows(), 0);
    await page().getByRole("button", { name: "Next day" }).click();
    await countIs(rows(), 1);
    await page().getByRole("button", { name: "Today" }).click();
    await countIs(rows(), 2);
  });

  it("when the series' occurrence is selected, then the recovery modal opens for Calendar; without a selection Export all exports the calendar", async () => {
    await rows().nth(0).getByRole("checkbox").check();
    await page().getByRole("button", { name: "Recover", exact: true }).click();
    const dialog = page().getByRole("dialog", { name: "Recover data" });
    await dialog.waitFor();
    await page().keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    await rows().nth(0).getByRole("checkbox").uncheck();
    const calendarName = fresh().setup.workspace.user;
    await page()
      .getByRole("button", { name: `Export all of ${calendarName}` })
      .click();
    await expectSnackbar(page(), "Export started", false);
  });

  it("when the address book is browsed, then a group shows its members and Export all exports the group", async () => {
    await page().getByRole("button", { name: "Contacts", exact: true }).click();
    const groups = page().getByTestId("browse-group");
    await groups.first().waitFor();
    const names = await groups.allInnerTexts();
    expect(names[0]).toBe("All contacts");
    expect(names).toContain("Team");
    expect(names.at(-1)).toBe("Other contacts");
    await rows().filter({ hasText: "Hans Odermatt" }).waitFor();
    await countIs(rows(), 2);
    await groups.filter({ hasText: "Team" }).click();
    await countIs(rows(), 1);
    expect(await rows().first().innerText()).toContain("Vreni Kälin");
    await screenshotBothThemes(page(), "browse-contacts");
    expect(await seriousViolations(page())).toEqual([]);
    await page().getByRole("button", { name: "Export all of Team" }).click();
    await expectSnackbar(page(), "Export started", false);
  });
});

describe("the Calendars and Contacts search tabs", () => {
  it("when the calendars and the contacts are searched, then the series and the contact are found", async () => {
    const user = fresh().setup.workspace.user;
    await page().goto("/search");
    const search = async (tab: string, keyword: string) => {
      await page().getByRole("tab", { name: tab, exact: true }).click();
      await page().getByLabel("Resource name or email").fill(user);
      await page().getByLabel("Keyword").fill(keyword);
      await page().getByRole("button", { name: "Search", exact: true }).click();
    };
    await search("Calendars", "stand-up");
    // The answer is in when its row is: another tab's rows may still show until then.
    await rows().filter({ hasText: "Daily stand-up" }).waitFor();
    await countIs(rows(), 1);
    await screenshotBothThemes(page(), "search-calendar");
    expect(await seriousViolations(page())).toEqual([]);
    await search("Contacts", "vreni");
    await rows().filter({ hasText: "vreni@example.ch" }).waitFor();
    await countIs(rows(), 1);
    await screenshotBothThemes(page(), "search-contacts");
    expect(await seriousViolations(page())).toEqual([]);
  });
});
