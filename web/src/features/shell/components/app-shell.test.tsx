/**
 * The signed-in shell (docs/requirements.md#screens-and-navigation) against the fake API: the navigation's
 * highlighting and links, the profile menu with the plan and its entries, Log Out, the debug block of the
 * one test account, the storage banner with its persisted dismissals, and the theme and language
 * preferences.
 */
import { screen, waitFor, within } from "@testing-library/react";
import { GB } from "@alpvault/contracts/plans";
import { DEBUG_ACCOUNT_EMAIL } from "@/config/constants";
import { PREFERENCES_STORAGE_KEY } from "@/lib/preferences";
import { readSessionEntry } from "@/lib/session-storage";
import { installFakeApi, type FakeApi } from "@/testing/fake-api";
import { anOrganizationDetails } from "@/testing/fixtures/session";
import { renderWithProviders, type RenderOptions } from "@/testing/render";
import { expectSnackbar } from "@/testing/snackbar";
import { AppShell } from "./app-shell";
import { STORAGE_BANNER_KEY } from "./storage-banner";

const DETAILS = "GET /organizations/:organizationId";

let api: FakeApi;
beforeEach(() => {
  api = installFakeApi();
});

/** Large screens (from MUI's `lg` breakpoint) match; jsdom has no media queries of its own. */
function wideScreen(wide: boolean): void {
  window.matchMedia = (query: string) =>
    ({
      matches: wide && /min-width/.test(query),
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

async function openShell(route = "/resources", options: RenderOptions = {}) {
  const rendered = await renderWithProviders(<AppShell debug={<p>API health</p>} />, { route, ...options });
  await screen.findByRole("button", { name: /^Account menu/ });
  return rendered;
}

const mainNav = () => screen.getByRole("navigation", { name: "Main navigation" });

describe("the navigation on a large screen", () => {
  beforeEach(() => wideScreen(true));

  it.each([
    ["/", "Resources"],
    ["/resources", "Resources"],
    ["/resources/user-ada", "Resources"],
    ["/policies", "Backup Policies"],
    ["/search/user-ada", "Search Backups"],
    ["/audit-logs", "Audit Logs"],
    ["/activity", "no entry"],
    ["/restore-drills", "no entry"],
  ])("when the page is %s, then %s is highlighted", async (route, entry) => {
    await openShell(route);
    const current = within(mainNav())
      .getAllByRole("link")
      .filter((link) => link.getAttribute("aria-current") === "page");
    expect(current.map((link) => link.textContent)).toEqual(entry === "no entry" ? [] : [entry]);
  });

  it("when it shows, then it holds exactly the four required entries, each leading to its screen, and the help links follow", async () => {
    await openShell();
    expect(
      within(mainNav())
        .getAllByRole("link")
        .map((link) => link.textContent),
    ).toEqual(["Resources", "Backup Policies", "Search Backups", "Audit Logs"]);
    for (const [name, href] of [
      ["Resources", "/resources"],
      ["Backup Policies", "/policies"],
      ["Search Backups", "/search"],
      ["Audit Logs", "/audit-logs"],
    ]) {
      expect(within(mainNav()).getByRole("link", { name })).toHaveAttribute("href", href);
    }
    expect(screen.getByRole("link", { name: "Contact support" })).toHaveAttribute(
      "href",
      "mailto:support@alpvault.com",
    );
    expect(screen.getByRole("link", { name: "Give feedback" })).toHaveAttribute(
      "href",
      "https://alpvault.com/feedback",
    );
    expect(screen.getByRole("link", { name: "Help Center" })).toHaveAttribute(
      "href",
      "https://help.alpvault.com",
    );
    expect(screen.getByRole("link", { name: "Tutorials" })).toHaveAttribute(
      "href",
      "https://help.alpvault.com/tutorials",
    );
    expect(screen.queryByTestId("nav-rail")).not.toBeInTheDocument();
  });
});

describe("the navigation below the lg breakpoint", () => {
  beforeEach(() => wideScreen(false));

  it("when the screen is narrow, then a rail names the four entries and the menu button opens the drawer", async () => {
    const { user } = await openShell("/policies");
    const rail = screen.getByRole("navigation", { name: "Navigation rail" });
    expect(
      within(rail)
        .getAllByRole("link")
        .map((link) => link.getAttribute("aria-label")),
    ).toEqual(["Resources", "Backup Policies", "Search Backups", "Audit Logs"]);
    expect(within(rail).getByRole("link", { name: "Backup Policies" })).toHaveAttribute(
      "aria-current",
      "page",
    );
    await user.click(screen.getAllByRole("button", { name: "Open navigation" })[0] as HTMLElement);
    expect(await screen.findByRole("navigation", { name: "Main navigation" })).toBeVisible();
  });
});

describe("the profile menu", () => {
  beforeEach(() => wideScreen(true));

  it("when it opens, then it shows the admin's initials, name, email and plan, and leads to the profile pages", async () => {
    const { user, router } = await openShell();
    await user.click(screen.getByRole("button", { name: "Account menu, AB" }));
    const summary = await screen.findByTestId("profile-summary");
    expect(summary).toHaveTextContent("Ada Brunner");
    expect(summary).toHaveTextContent("admin@alpvault-demo.test");
    expect(within(summary).getByTestId("profile-plan")).toHaveTextContent("Geneva plan · up to 10 users");
    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByTestId("profile-summary")).not.toBeInTheDocument());
    for (const [item, path] of [
      ["My profile", "/profile"],
      ["Secrets", "/profile/secrets"],
      ["My Subscription", "/profile/subscription"],
    ]) {
      await user.click(screen.getByRole("button", { name: "Account menu, AB" }));
      await user.click(await screen.findByRole("menuitem", { name: item }));
      expect(router.state.location.pathname).toBe(path);
      await waitFor(() => expect(screen.queryByTestId("profile-summary")).not.toBeInTheDocument());
    }
  });

  it("when the plan data cannot be read, then the snackbar says why and the menu keeps the default plan", async () => {
    api.fail("GET /organizations/:organizationId/subscriptions/:subscriptionId", {
      code: 503,
      message: "Busy",
    });
    const { user } = await openShell();
    await expectSnackbar("Busy", "error");
    await user.click(screen.getByRole("button", { name: "Account menu, AB" }));
    expect(await screen.findByTestId("profile-plan")).toHaveTextContent("GW Daily plan · up to 5 users");
  });

  it("when Log Out is chosen, then the session's entries are cleared and sign-up follows", async () => {
    const { user, router } = await openShell();
    await user.click(screen.getByRole("button", { name: "Account menu, AB" }));
    await user.click(await screen.findByRole("menuitem", { name: "Log Out" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/sign-up"));
    expect(readSessionEntry("storedAuthToken")).toBeNull();
    expect(readSessionEntry("email")).toBeNull();
  });
});

describe("the debug block", () => {
  beforeEach(() => wideScreen(true));

  it("when the admin is not the debug account, then it is not shown", async () => {
    await openShell();
    expect(screen.queryByTestId("debug-panel")).not.toBeInTheDocument();
  });

  it("when the debug account is signed in, then it shows the API's health and copies each token with a snackbar", async () => {
    const { user } = await openShell("/resources", {
      user: { uid: "user-qa", email: DEBUG_ACCOUNT_EMAIL, displayName: "QA Debug", photoURL: null },
    });
    const panel = screen.getByTestId("debug-panel");
    expect(panel).toHaveTextContent("API health");
    await user.click(within(panel).getByRole("button", { name: "Copy bearer token" }));
    await expectSnackbar("Bearer token copied", "success");
    expect(await navigator.clipboard.readText()).toBe("test-id-token");
    await user.click(within(panel).getByRole("button", { name: "Copy App Check token" }));
    await expectSnackbar("App Check token copied", "success");
    expect(await navigator.clipboard.readText()).toBe("test-app-check-token");
  });
});

describe("the storage banner", () => {
  beforeEach(() => wideScreen(true));
  const usage = (total: number) =>
    api.answer(DETAILS, anOrganizationDetails("geneva", { total, maximum: 100 * GB }));

  it("when usage is below 80 %, then no banner shows", async () => {
    usage(79 * GB);
    await openShell();
    expect(screen.queryByTestId("storage-banner")).not.toBeInTheDocument();
  });

  it("when usage reaches 80 %, then the 'almost full' banner shows with the way to the plans; closed, it stays closed", async () => {
    usage(85 * GB);
    const { user, unmount } = await openShell();
    const banner = screen.getByTestId("storage-banner");
    expect(banner).toHaveTextContent("Your backup storage is almost full: 80% of your free storage is used.");
    expect(within(banner).getByRole("link", { name: "Upgrade" })).toHaveAttribute("href", "/plans");
    await user.click(within(banner).getByRole("button", { name: "Close" }));
    expect(screen.queryByTestId("storage-banner")).not.toBeInTheDocument();
    expect(JSON.parse(window.localStorage.getItem(STORAGE_BANNER_KEY) ?? "null")).toEqual({
      threshold: true,
      limit: false,
    });
    unmount();
    await openShell();
    expect(screen.queryByTestId("storage-banner")).not.toBeInTheDocument();
  });

  it("when usage reaches the maximum after the 'almost' banner was closed, then the 'full' banner still shows", async () => {
    window.localStorage.setItem(STORAGE_BANNER_KEY, JSON.stringify({ threshold: true, limit: false }));
    usage(100 * GB);
    await openShell();
    expect(screen.getByTestId("storage-banner")).toHaveTextContent(
      "Your backup storage is full: 100% of your free storage is used. New backups may stop.",
    );
  });

  it("when usage falls below 80 %, then the dismissals are reset", async () => {
    window.localStorage.setItem(STORAGE_BANNER_KEY, JSON.stringify({ threshold: true, limit: true }));
    usage(50 * GB);
    await openShell();
    await waitFor(() =>
      expect(JSON.parse(window.localStorage.getItem(STORAGE_BANNER_KEY) ?? "null")).toEqual({
        threshold: false,
        limit: false,
      }),
    );
  });
});

describe("preferences in the header", () => {
  beforeEach(() => wideScreen(true));

  it("when nothing is stored, then the light theme and English are used and written back; the toggle switches to dark and back", async () => {
    const { user } = await openShell();
    expect(JSON.parse(window.localStorage.getItem(PREFERENCES_STORAGE_KEY) ?? "null")).toEqual({
      theme: "light",
      locale: "en",
    });
    await user.click(screen.getByRole("button", { name: "Switch to dark theme" }));
    expect(JSON.parse(window.localStorage.getItem(PREFERENCES_STORAGE_KEY) ?? "null")).toMatchObject({
      theme: "dark",
    });
    await user.click(screen.getByRole("button", { name: "Switch to light theme" }));
    expect(screen.getByRole("button", { name: "Switch to dark theme" })).toBeInTheDocument();
  });

  it("when a stored value is null or not JSON, then the defaults replace it", async () => {
    window.localStorage.setItem(PREFERENCES_STORAGE_KEY, "{not json");
    const { unmount } = await openShell();
    expect(JSON.parse(window.localStorage.getItem(PREFERENCES_STORAGE_KEY) ?? "null")).toEqual({
      theme: "light",
      locale: "en",
    });
    unmount();
    window.localStorage.setItem(PREFERENCES_STORAGE_KEY, JSON.stringify({ theme: null, locale: "fr" }));
    await openShell();
    expect(JSON.parse(window.localStorage.getItem(PREFERENCES_STORAGE_KEY) ?? "null")).toEqual({
      theme: "light",
      locale: "fr",
    });
  });

  it("when Français is chosen, then the French texts show and the missing ones fall back to English", async () => {
    const { user } = await openShell();
    await user.click(screen.getByRole("button", { name: "Language" }));
    await user.click(await screen.findByRole("menuitem", { name: "Français" }));
    expect(await within(mainNav()).findByRole("link", { name: "Ressources" })).toBeInTheDocument();
    expect(within(mainNav()).getByRole("link", { name: "Audit Logs" })).toBeInTheDocument();
    expect(JSON.parse(window.localStorage.getItem(PREFERENCES_STORAGE_KEY) ?? "null")).toMatchObject({
      locale: "fr",
    });
  });
});
