/**
 * The resources screen (docs/requirements.md#screens-and-navigation) against the fake API: the welcome
 * modal, analytics, alerts, search, filters, sorting and paging as the API is asked, selection and the
 * assign dialog, sync, and the errors of each call.
 */
import { screen, waitFor, within } from "@testing-library/react";
import { installFakeApi, type FakeApi } from "@/testing/fake-api";
import { fill } from "@/testing/fill";
import { aCustomPolicy, aPolicy, policiesOf } from "@/testing/fixtures/policies";
import { SERVICES, scopesToGrantText } from "@alpvault/contracts/services";
import {
  alertsOf,
  anAccess,
  anAnalytics,
  aResource,
  aSharedDrive,
  pageOf,
} from "@/testing/fixtures/resources";
import { renderWithProviders } from "@/testing/render";
import { expectSnackbar, expectSnackbarAnnounced } from "@/testing/snackbar";
import { WELCOME_DISMISSED_KEY } from "./welcome-modal";
import { ResourcesScreen } from "./resources-screen";

const RESOURCES = "GET /organizations/:organizationId/resources";
const ANALYTICS = "GET /organizations/:organizationId/analytics";
const ACCESS = "GET /organizations/:organizationId/access";
const ALERTS = "GET /organizations/:organizationId/alerts";
const POLICIES = "GET /organizations/:organizationId/policies";
const MARK_READ = "POST /organizations/:organizationId/alerts/mark-all-read";
const SYNC = "POST /organizations/:organizationId/resources/sync";
const ASSIGN = "POST /organizations/:organizationId/policies/:policyId/assign";

const ada = aResource();
const ueli = aResource({
  resourceId: "user-ueli",
  name: "Ueli Schnyder",
  email: "user@alpvault-demo.test",
  status: "suspended",
  policyId: null,
  policyName: null,
  protected: false,
  mailBackupBytes: 1024,
  driveBackupBytes: 0,
});
const finance = aSharedDrive();

let api: FakeApi;
beforeEach(() => {
  api = installFakeApi();
  api.answer(RESOURCES, pageOf([ada, ueli, finance]));
  api.answer(ANALYTICS, anAnalytics());
  api.answer(ACCESS, anAccess());
  api.answer(ALERTS, alertsOf({ message: "2 resources added" }, { message: "Old news", read: true }));
  api.answer(POLICIES, policiesOf("geneva", aPolicy(), aCustomPolicy()));
});

async function openScreen({ welcomed = true } = {}) {
  if (welcomed) window.localStorage.setItem(WELCOME_DISMISSED_KEY, "true");
  const onRecoverAll = jest.fn();
  const rendered = await renderWithProviders(<ResourcesScreen onRecoverAll={onRecoverAll} />, {
    route: "/resources",
  });
  await waitFor(() => expect(screen.getAllByTestId("resource-row")).toHaveLength(3));
  return { ...rendered, onRecoverAll };
}

const row = (name: string) =>
  screen
    .getAllByTestId("resource-row")
    .find((candidate) => within(candidate).queryByText(name)) as HTMLElement;
const lastQuery = () => api.lastRequest(RESOURCES).query;

describe("the welcome modal", () => {
  it("when the resources first load, then it greets the admin, and once dismissed it stays dismissed", async () => {
    const { user, unmount } = await openScreen({ welcomed: false });
    const welcome = await screen.findByRole("dialog", { name: "Welcome to Alpvault" });
    expect(welcome).toHaveTextContent("Next, assign a backup policy to the resources you want to protect.");
    await user.click(within(welcome).getByRole("button", { name: "Get started" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    unmount();
    await renderWithProviders(<ResourcesScreen onRecoverAll={jest.fn()} />, { route: "/resources" });
    await waitFor(() => expect(screen.getAllByTestId("resource-row")).toHaveLength(3));
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });
});

describe("the resources list", () => {
  it("when it loads, then each resource shows with the display rule, its policy, protection and storage", async () => {
    await openScreen();
    expect(within(row("Ada Brunner")).getByText("admin@alpvault-demo.test")).toBeInTheDocument();
    expect(within(row("Ada Brunner")).getByText("Default policy")).toBeInTheDocument();
    expect(within(row("Ada Brunner")).getByText("Protected")).toBeInTheDocument();
    expect(within(row("Ada Brunner")).getByTestId("resource-storage")).toHaveTextContent("1.50 GB");
    expect(within(row("Ada Brunner")).getByRole("link", { name: "Ada Brunner" })).toHaveAttribute(
      "href",
      "/resources/user-ada",
    );
    expect(within(row("Finance")).getByText("Shared drive")).toBeInTheDocument();
    expect(within(row("Finance")).getByText("No policy")).toBeInTheDocument();
    expect(within(row("Finance")).getByText("Unprotected")).toBeInTheDocument();
    expect(within(row("Finance")).getByText("Last: never")).toBeInTheDocument();
    expect(within(row("Finance")).getByText("Next: not scheduled")).toBeInTheDocument();
    expect(within(row("Ueli Schnyder")).getByText("Suspended")).toBeInTheDocument();
    // A backup too small for two decimals does not look empty.
    expect(within(row("Ueli Schnyder")).getByTestId("resource-storage")).toHaveTextContent("< 0.01 GB");
    expect(within(row("Ada Brunner")).getByTestId("last-verified")).toHaveTextContent("Last verified: Never");
  });

  it("when nothing matches, then the table says so", async () => {
    api.answer(RESOURCES, pageOf([]));
    await renderWithProviders(<ResourcesScreen onRecoverAll={jest.fn()} />, { route: "/resources" });
    expect(await screen.findByTestId("resources-empty")).toHaveTextContent("No resources match.");
  });

  it("when the installation does not grant a service of the plan, then the screen says what to grant and where; a service outside the plan says nothing", async () => {
    const grant = scopesToGrantText("contacts", [SERVICES.contacts.scopes.restore[0]!]);
    api.answer(
      ACCESS,
      anAccess({
        drive: {
          backup: false,
          restore: false,
          missingScopes: ["https://www.googleapis.com/auth/drive"],
          grant: "Grant Drive",
        },
        contacts: { inPlan: false, restore: false, grant },
      }),
    );
    await openScreen();
    const alerts = await screen.findAllByTestId("service-access");
    expect(alerts.map((alert) => alert.dataset.service)).toEqual(["drive"]);
    expect(alerts[0]).toHaveTextContent("Alpvault cannot back up Drive: Google does not grant it");
    expect(alerts[0]).toHaveTextContent("Grant Drive");
  });

  it("when a service of the plan may back up but not restore, then the alert says restores stop", async () => {
    const grant = scopesToGrantText("gmail", ["https://www.googleapis.com/auth/gmail.insert"]);
    api.answer(ACCESS, anAccess({ gmail: { restore: false, grant } }));
    await openScreen();
    const alert = await screen.findByTestId("service-access");
    expect(alert).toHaveTextContent("Alpvault cannot restore Gmail: Google does not grant it");
    expect(alert).toHaveTextContent("https://www.googleapis.com/auth/gmail.insert");
  });

  it("when every service is granted, then no access alert shows", async () => {
    await openScreen();
    await waitFor(() => expect(api.requests(ACCESS)).toHaveLength(1));
    expect(screen.queryByTestId("service-access")).not.toBeInTheDocument();
  });

  it("when the analytics load, then they show the API's figures", async () => {
    await openScreen();
    expect(screen.getByTestId("analytics-protected-value")).toHaveTextContent("3 of 12");
    expect(screen.getByTestId("analytics-size")).toHaveTextContent("5.00 GB");
    expect(screen.getByTestId("analytics-status-value")).toHaveTextContent("Unprotected");
    expect(screen.getByTestId("analytics-dynamics")).toHaveTextContent(
      "2.00 GB+12.5 % compared with the last billing cycle",
    );
    expect(screen.getByTestId("analytics-emails")).toHaveTextContent("1,234");
    expect(screen.getByTestId("analytics-files")).toHaveTextContent("56");
  });

  it("when there is no earlier billing cycle and every resource is protected, then the analytics say so", async () => {
    api.answer(
      ANALYTICS,
      anAnalytics({
        protectionStatus: "compliant",
        dataDynamics: { currentCycleBytes: 0, lastCycleBytes: 0, changePercent: null },
      }),
    );
    await openScreen();
    expect(screen.getByTestId("analytics-status-value")).toHaveTextContent("Compliant");
    expect(screen.getByTestId("analytics-dynamics")).toHaveTextContent(
      "No previous billing cycle to compare with",
    );
  });
});

describe("asking the API", () => {
  it("when the screen opens, then the first page of 25 is asked sorted by name", async () => {
    await openScreen();
    expect(lastQuery()).toEqual({ sort: ["name"], direction: ["asc"], page: ["1"], pageSize: ["25"] });
  });

  it("when a search is typed, then the API is asked for it, trimmed, once typing pauses", async () => {
    const { user } = await openScreen();
    await fill(user, screen.getByRole("searchbox", { name: "Search by name or email" }), "  ueli ");
    await waitFor(() => expect(lastQuery().search).toEqual(["ueli"]));
    expect(lastQuery().page).toEqual(["1"]);
  });

  it("when the name header is clicked, then the API sorts by name descending, and again ascending", async () => {
    const { user } = await openScreen();
    await user.click(screen.getByRole("button", { name: "Name" }));
    await waitFor(() => expect(lastQuery()).toMatchObject({ sort: ["name"], direction: ["desc"] }));
    await user.click(screen.getByRole("button", { name: "Data storage (GB)" }));
    await waitFor(() => expect(lastQuery()).toMatchObject({ sort: ["storage"], direction: ["asc"] }));
  });

  it("when filters are chosen, then the API is asked for that type, protection and policy, and Clear filters drops them", async () => {
    const { user } = await openScreen();
    await user.click(screen.getByRole("button", { name: "Filter" }));
    const menu = await screen.findByTestId("filter-menu");
    await user.click(within(menu).getByRole("combobox", { name: "Type" }));
    await user.click(screen.getByRole("option", { name: "Shared drive" }));
    await waitFor(() => expect(lastQuery().type).toEqual(["shared_drive"]));
    await user.click(within(menu).getByRole("combobox", { name: "Protection" }));
    await user.click(screen.getByRole("option", { name: "Unprotected" }));
    await user.click(within(menu).getByRole("combobox", { name: "Backup policy" }));
    await user.click(screen.getByRole("option", { name: "Finance team" }));
    await waitFor(() =>
      expect(lastQuery()).toMatchObject({
        type: ["shared_drive"],
        protection: ["unprotected"],
        policyId: ["finance"],
        page: ["1"],
      }),
    );
    await user.click(within(menu).getByRole("button", { name: "Clear filters" }));
    await waitFor(() =>
      expect(lastQuery()).toEqual({ sort: ["name"], direction: ["asc"], page: ["1"], pageSize: ["25"] }),
    );
  });

  it("when five rows fit a page, then the API pages the list and the pager counts them", async () => {
    api.answer(RESOURCES, (request) => {
      const page = Number(request.query.page?.[0] ?? "1");
      const size = Number(request.query.pageSize?.[0] ?? "25");
      return pageOf([ada, ueli, finance], { total: 12, page, pageSize: size });
    });
    const { user } = await openScreen();
    expect(screen.getByTestId("table-pager")).toHaveTextContent("1–12 of 12");
    await user.selectOptions(screen.getByRole("combobox", { name: "Rows per page" }), "5");
    await waitFor(() => expect(lastQuery()).toMatchObject({ pageSize: ["5"], page: ["1"] }));
    expect(screen.getByTestId("table-pager")).toHaveTextContent("1–5 of 12");
    expect(screen.getByRole("button", { name: "Go to previous page" })).toBeDisabled();
    await user.click(screen.getByRole("button", { name: "Go to next page" }));
    await user.click(screen.getByRole("button", { name: "Go to next page" }));
    await waitFor(() => expect(lastQuery()).toMatchObject({ page: ["3"] }));
    expect(screen.getByTestId("table-pager")).toHaveTextContent("11–12 of 12");
    expect(screen.getByRole("button", { name: "Go to next page" })).toBeDisabled();
  });
});

describe("assigning a policy", () => {
  it("when no row is selected, then Assign backup Policy is disabled", async () => {
    await openScreen();
    expect(screen.getByRole("button", { name: "Assign backup Policy" })).toBeDisabled();
  });

  it("when two rows are selected and a policy assigned, then the API gets both, the snackbar counts them and the selection clears", async () => {
    api.answer(ASSIGN, { policyId: "finance", assigned: 2, backupsQueued: 2 });
    const { user } = await openScreen();
    await user.click(screen.getByRole("checkbox", { name: "Select Ada Brunner" }));
    await user.click(screen.getByRole("checkbox", { name: "Select Finance" }));
    expect(screen.getByTestId("resources-selected")).toHaveTextContent("2 selected");
    await user.click(screen.getByRole("button", { name: "Assign backup Policy" }));
    const dialog = await screen.findByRole("dialog", { name: "Assign backup Policy" });
    expect(dialog).toHaveTextContent("Choose the backup policy for the 2 selected resources.");
    expect(dialog).toHaveTextContent("Assigning a policy starts a new backup of each resource.");
    expect(within(dialog).getByRole("combobox", { name: "Backup policy" })).toHaveTextContent(
      "Default policy",
    );
    await user.click(within(dialog).getByRole("combobox", { name: "Backup policy" }));
    await user.click(screen.getByRole("option", { name: "Finance team" }));
    await user.click(within(dialog).getByRole("button", { name: "Assign" }));
    await expectSnackbar("Finance team assigned to 2 resources; their backups have started", "success");
    expect(api.lastRequest(ASSIGN)).toMatchObject({
      params: { policyId: "finance" },
      body: { resourceIds: ["user-ada", "drive-finance"] },
    });
    await waitFor(() => expect(screen.queryByTestId("resources-selected")).not.toBeInTheDocument());
  });

  it("when every row of the page is selected, then the header box selects and clears them all", async () => {
    const { user } = await openScreen();
    const all = screen.getByRole("checkbox", { name: "Select all resources on this page" });
    await user.click(all);
    expect(screen.getByTestId("resources-selected")).toHaveTextContent("3 selected");
    await user.click(all);
    expect(screen.queryByTestId("resources-selected")).not.toBeInTheDocument();
  });

  it("when the assignment is refused, then the API's message shows as an error and the dialog stays", async () => {
    api.fail(ASSIGN, {
      code: 400,
      message: "Some of the selected resources were not found. Reload the list and try again.",
    });
    const { user } = await openScreen();
    await user.click(screen.getByRole("checkbox", { name: "Select Ada Brunner" }));
    await user.click(screen.getByRole("button", { name: "Assign backup Policy" }));
    const dialog = await screen.findByRole("dialog", { name: "Assign backup Policy" });
    expect(dialog).toHaveTextContent("Choose the backup policy for the selected resource.");
    await user.click(within(dialog).getByRole("button", { name: "Assign" }));
    // Above the open dialog, where a screen reader reads it too (not under the page the dialog hides).
    await expectSnackbarAnnounced(
      "Some of the selected resources were not found. Reload the list and try again.",
      "error",
    );
    expect(screen.getByRole("dialog", { name: "Assign backup Policy" })).toBeInTheDocument();
  });
});

describe("alerts and sync", () => {
  it("when Mark All as Read is clicked, then the API is told, the snackbar confirms and the unread count reads 0", async () => {
    api.answer(MARK_READ, { marked: 1 });
    const { user } = await openScreen();
    expect(screen.getByTestId("alerts-unread")).toHaveTextContent("1 unread");
    api.answer(
      ALERTS,
      alertsOf({ message: "2 resources added", read: true }, { message: "Old news", read: true }),
    );
    await user.click(screen.getByRole("button", { name: "Mark All as Read" }));
    await expectSnackbar("All alerts marked as read", "success");
    await waitFor(() => expect(screen.getByTestId("alerts-unread")).toHaveTextContent("0 unread"));
    expect(screen.getByRole("button", { name: "Mark All as Read" })).toBeDisabled();
    expect(api.requests(MARK_READ)).toHaveLength(1);
  });

  it("when there are no alerts, then the panel says so", async () => {
    api.answer(ALERTS, alertsOf());
    await openScreen();
    expect(within(screen.getByTestId("alerts-panel")).getByText("No alerts")).toBeInTheDocument();
  });

  it("when Sync now is clicked, then the snackbar says what was added and removed and the list is read again", async () => {
    api.answer(SYNC, { added: 1, removed: 0 });
    const { user } = await openScreen();
    const asked = api.requests(RESOURCES).length;
    await user.click(screen.getByRole("button", { name: "Sync now" }));
    await expectSnackbar("Resources synced: 1 added, 0 removed", "success");
    await waitFor(() => expect(api.requests(RESOURCES).length).toBeGreaterThan(asked));
  });

  it("when the sync fails without a message, then the snackbar says the generic text", async () => {
    api.fail(SYNC, { code: 500, message: "" });
    const { user } = await openScreen();
    await user.click(screen.getByRole("button", { name: "Sync now" }));
    await expectSnackbar("Something went wrong.", "error");
    expect(screen.getByRole("button", { name: "Sync now" })).toBeEnabled();
  });
});

describe("failures of the screen's calls", () => {
  it("when the resources call fails, then its message shows with Try again, which reads everything again", async () => {
    api.fail(RESOURCES, { code: 503, message: "The resources are unavailable." });
    window.localStorage.setItem(WELCOME_DISMISSED_KEY, "true");
    const { user } = await renderWithProviders(<ResourcesScreen onRecoverAll={jest.fn()} />, {
      route: "/resources",
    });
    const error = await screen.findByTestId("resources-error");
    expect(error).toHaveTextContent("The resources are unavailable.");
    expect(screen.getByTestId("resources-table")).toHaveAttribute("aria-busy", "false");
    api.answer(RESOURCES, pageOf([ada]));
    await user.click(within(error).getByRole("button", { name: "Try again" }));
    await screen.findByTestId("resource-row");
    expect(screen.queryByTestId("resources-error")).not.toBeInTheDocument();
  });

  it("when the analytics fail on the network, then the unexpected error shows and the list still works", async () => {
    api.failNetwork(ANALYTICS);
    await openScreen();
    expect(await screen.findByTestId("resources-error")).toHaveTextContent("Unexpected error occurred");
    expect(screen.getAllByTestId("resource-row")).toHaveLength(3);
  });

  it("when the alerts answer is not JSON, then the unexpected error shows", async () => {
    api.failNotJson(ALERTS);
    await openScreen();
    expect(await screen.findByTestId("resources-error")).toHaveTextContent("Unexpected error occurred");
  });

  it("when the organisation is not set up yet, then the screen says so and asks nothing", async () => {
    await renderWithProviders(<ResourcesScreen onRecoverAll={jest.fn()} />, {
      route: "/resources",
      stage: "not-installed",
    });
    expect(screen.getByTestId("resources-no-organization")).toHaveTextContent(
      "No organisation is connected yet. Complete the onboarding to see your resources.",
    );
    expect(api.requests(RESOURCES)).toHaveLength(0);
  });
});
