/**
 * Route modules that compose features (docs/requirements.md#screens-and-navigation, #backup-activity)
 * against the fake API: a resource's page for a resource the organisation does not have, the not-found
 * screen, and the recovery a resources row opens (a shared drive recovers Drive only).
 */
import { screen, within } from "@testing-library/react";
import { WELCOME_DISMISSED_KEY } from "@/features/resources/components/welcome-modal";
import { installFakeApi, type FakeApi } from "@/testing/fake-api";
import { aPolicy, policiesOf } from "@/testing/fixtures/policies";
import {
  alertsOf,
  anAccess,
  anAnalytics,
  aResource,
  aResourceDetail,
  anIntegrityReport,
  aSharedDrive,
  pageOf,
} from "@/testing/fixtures/resources";
import { anEstimate } from "@/testing/fixtures/recovery";
import { aMail, browseAnswer, mailAnswer } from "@/testing/fixtures/search";
import { renderWithProviders } from "@/testing/render";
import BrowseRoute from "./browse";
import NotFoundRoute from "./not-found";
import ResourceRoute from "./resource";
import ResourcesRoute from "./resources";

let api: FakeApi;
beforeEach(() => {
  api = installFakeApi();
  // A resource's page reads when the organisation's daily integrity check is due.
  api.answer("GET /organizations/:organizationId/integrity", anIntegrityReport());
});

describe("a resource's page", () => {
  it("when the organisation has no such resource, then the page says so", async () => {
    api.fail("GET /organizations/:organizationId/resources/:resourceId", {
      code: 404,
      message: "Resource not found",
    });
    api.answer("GET /organizations/:organizationId/resources", pageOf([aResource()]));
    await renderWithProviders(<ResourceRoute />, {
      route: "/resources/nobody",
      path: "/resources/:resourceId",
    });
    expect(await screen.findByTestId("resource-error")).toHaveTextContent(
      "This resource does not exist in your organisation.",
    );
    expect(screen.getByRole("link", { name: "Back to resources" })).toHaveAttribute("href", "/resources");
  });

  it("when the resource cannot be read otherwise, then the API's message shows", async () => {
    api.fail("GET /organizations/:organizationId/resources/:resourceId", { code: 503, message: "Busy" });
    api.answer("GET /organizations/:organizationId/resources", pageOf([aResource()]));
    await renderWithProviders(<ResourceRoute />, {
      route: "/resources/user-ada",
      path: "/resources/:resourceId",
    });
    expect(await screen.findByTestId("resource-error")).toHaveTextContent("Busy");
  });
});

describe("an unknown path", () => {
  it("when a signed-in user opens it, then a not-found screen links back to resources", async () => {
    await renderWithProviders(<NotFoundRoute />, { route: "/nowhere" });
    expect(screen.getByRole("heading", { level: 1, name: "Page not found" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Back to resources" })).toHaveAttribute("href", "/resources");
  });
});

describe("recovering from the resources screen", () => {
  beforeEach(() => {
    api.answer("GET /organizations/:organizationId/resources", pageOf([aResource(), aSharedDrive()]));
    api.answer("GET /organizations/:organizationId/analytics", anAnalytics());
    api.answer("GET /organizations/:organizationId/access", anAccess());
    api.answer("GET /organizations/:organizationId/alerts", alertsOf());
    api.answer("GET /organizations/:organizationId/policies", policiesOf("geneva", aPolicy()));
    api.answer("POST /organizations/:organizationId/recoveries/estimate", anEstimate());
    window.localStorage.setItem(WELCOME_DISMISSED_KEY, "true");
  });

  it("when a mailbox's Recover is chosen, then the modal recovers it whole, Gmail or Drive", async () => {
    const { user } = await renderWithProviders(<ResourcesRoute />, { route: "/resources" });
    const row = (await screen.findAllByTestId("resource-row"))[0] as HTMLElement;
    await user.click(within(row).getByRole("button", { name: "Recover" }));
    const dialog = await screen.findByRole("dialog", { name: "Recover data" });
    expect(within(dialog).getByTestId("recovery-subject")).toHaveTextContent(
      "From Ada Brunner (admin@alpvault-demo.test)Everything backed up of the chosen service",
    );
    expect(within(dialog).getByRole("radio", { name: "Drive" })).toBeInTheDocument();
  });

  it("when a shared drive's Recover is chosen, then the modal recovers its Drive data, with no choice of service", async () => {
    const { user } = await renderWithProviders(<ResourcesRoute />, { route: "/resources" });
    const row = (await screen.findAllByTestId("resource-row"))[1] as HTMLElement;
    await user.click(within(row).getByRole("button", { name: "Recover" }));
    const dialog = await screen.findByRole("dialog", { name: "Recover data" });
    expect(within(dialog).getByTestId("recovery-subject")).toHaveTextContent("From Finance");
    expect(within(dialog).queryByRole("radio", { name: "Gmail" })).not.toBeInTheDocument();
    expect(within(dialog).getByRole("checkbox", { name: "Recover sharing permissions" })).toBeInTheDocument();
  });
});

describe("the way to Backup Activity and Restore Drills", () => {
  beforeEach(() => {
    api.answer("GET /organizations/:organizationId/resources", pageOf([aResource()]));
    api.answer("GET /organizations/:organizationId/analytics", anAnalytics());
    api.answer("GET /organizations/:organizationId/access", anAccess());
    api.answer("GET /organizations/:organizationId/alerts", alertsOf());
    api.answer("GET /organizations/:organizationId/policies", policiesOf("geneva", aPolicy()));
    window.localStorage.setItem(WELCOME_DISMISSED_KEY, "true");
  });

  it("when the resources screen shows, then it leads to Backup Activity and Restore Drills", async () => {
    await renderWithProviders(<ResourcesRoute />, { route: "/resources" });
    expect(await screen.findByRole("link", { name: "Backup Activity" })).toHaveAttribute("href", "/activity");
    expect(screen.getByRole("link", { name: "Restore Drills" })).toHaveAttribute("href", "/restore-drills");
  });

  it("when a resource's page shows, then it leads to Backup Activity", async () => {
    api.answer("GET /organizations/:organizationId/resources/:resourceId", aResourceDetail());
    api.answer("GET /organizations/:organizationId/resources/:resourceId/runs", {
      runs: [],
      nextPageToken: null,
    });
    api.answer("GET /organizations/:organizationId/recoveries", { recoveries: [] });
    api.answer("GET /organizations/:organizationId/exports", { exports: [] });
    await renderWithProviders(<ResourceRoute />, {
      route: "/resources/user-ada",
      path: "/resources/:resourceId",
    });
    expect(await screen.findByRole("link", { name: "Backup Activity" })).toHaveAttribute("href", "/activity");
  });
});

describe("the browse page's first load", () => {
  const DETAIL = "GET /organizations/:organizationId/resources/:resourceId";
  const BROWSE = "POST /organizations/:organizationId/resources/:resourceId/browse";

  beforeEach(() => {
    api.answer(DETAIL, aResourceDetail());
    api.answer("GET /organizations/:organizationId/resources", pageOf([aResource()]));
    api.answer("GET /organizations/:organizationId/exports", { exports: [] });
    api.answer(
      BROWSE,
      browseAnswer(mailAnswer([aMail(1), aMail(2)]), {
        labels: [{ label: "INBOX", name: "Inbox", system: true }],
      }),
    );
  });

  it("when the page opens, then the items are asked for at once, beside the resource, and show before the resource's figures arrive", async () => {
    const detail = api.hold(DETAIL);
    await renderWithProviders(<BrowseRoute />, {
      route: "/resources/user-ada/browse",
      path: "/resources/:resourceId/browse",
    });
    // One round of calls: the browse does not wait for the resource's answer.
    expect(await screen.findAllByTestId("search-result")).toHaveLength(2);
    expect(detail.arrived).toBe(1);
    expect(api.requests(BROWSE)).toHaveLength(1);
    expect(api.lastRequest(BROWSE).fields).toEqual({ page: 1, pageSize: 25 });
    detail.release();
    expect(await screen.findByRole("link", { name: "Back to Ada Brunner" })).toBeInTheDocument();
    // The resource's answer changes nothing the page asked for: no second browse.
    expect(api.requests(BROWSE)).toHaveLength(1);
  });
});
