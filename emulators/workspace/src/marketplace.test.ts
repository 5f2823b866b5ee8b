import { DEFAULT_GRANTED_SCOPES } from "./auth";
import { MARKETPLACE_APPLICATION_ID } from "./directory/routes";
import { SCOPE_SENTENCES } from "./marketplace";
import { TEST_ADMIN, startHarness, type Harness } from "./testing/harness";

const DOMAIN = "new-customer.test";
let harness: Harness;
let install: string;

beforeEach(async () => {
  // These tests check the pages and the installation, not timing: the latency model is off for this file.
  harness = await startHarness({ latency: { enabled: false } });
  harness.emulator.directory.addCustomer({ domain: DOMAIN });
  harness.emulator.directory.addUser({
    email: `boss@${DOMAIN}`,
    givenName: "Bea",
    familyName: "Boss",
    isAdmin: true,
  });
  harness.emulator.directory.addUser({ email: `staff@${DOMAIN}`, givenName: "Sam", familyName: "Staff" });
  install = `${harness.url}/marketplace/app/alpvault/${MARKETPLACE_APPLICATION_ID}/install`;
});
afterEach(() => harness.stop());

function userId(email: string): string {
  const user = harness.emulator.directory.user(email);
  if (!user) throw new Error(`no user ${email}`);
  return user.id;
}

function decide(account: string, decision: string): Promise<Response> {
  return fetch(install, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ account, decision }).toString(),
  });
}

describe("Marketplace install pages", () => {
  test("when the listing's Admin install is followed, then the account chooser offers the administrators only", async () => {
    const listing = await fetch(`${harness.url}/marketplace/app/alpvault/${MARKETPLACE_APPLICATION_ID}`);
    expect(listing.headers.get("content-type")).toContain("text/html");
    expect(await listing.text()).toContain(
      `href="/marketplace/app/alpvault/${MARKETPLACE_APPLICATION_ID}/install"`,
    );
    const chooser = await (await fetch(install)).text();
    expect(chooser).toContain(`boss@${DOMAIN}`);
    expect(chooser).toContain(TEST_ADMIN);
    expect(chooser).not.toContain(`staff@${DOMAIN}`);
  });

  test("when a super admin consents, then the page names the domain and every scope in Google's words, and Install activates the licence with the scopes", async () => {
    const consent = await (await fetch(`${install}?account=${userId(`boss@${DOMAIN}`)}`)).text();
    expect(consent).toContain(`<span data-testid="marketplace-domain">${DOMAIN}</span>`);
    for (const scope of DEFAULT_GRANTED_SCOPES) {
      expect(consent).toContain(
        String(SCOPE_SENTENCES[scope]).replaceAll("'", "&#39;").replaceAll('"', "&quot;"),
      );
    }
    expect(harness.emulator.directory.customer(DOMAIN)?.licenseState).toBe("UNLICENSED");

    const done = await decide(userId(`boss@${DOMAIN}`), "install");
    expect(done.status).toBe(200);
    expect(await done.text()).toContain(`Alpvault is installed for ${DOMAIN}`);
    const customer = harness.emulator.directory.customer(DOMAIN);
    expect(customer?.licenseState).toBe("ACTIVE");
    expect(customer?.grantedScopes).toEqual(DEFAULT_GRANTED_SCOPES);
    const again = await (await fetch(`${install}?account=${userId(`boss@${DOMAIN}`)}`)).text();
    expect(again).toContain(`Alpvault is already installed for ${DOMAIN}`);
  });

  test("when the super admin cancels, then nothing is installed", async () => {
    const answer = await decide(userId(`boss@${DOMAIN}`), "cancel");
    expect(await answer.text()).toContain("Alpvault was not installed");
    expect(harness.emulator.directory.customer(DOMAIN)?.licenseState).toBe("UNLICENSED");
    expect(harness.emulator.directory.customer(DOMAIN)?.grantedScopes).toEqual([]);
  });

  test("when a user who is not an administrator tries, then Google refuses with 403 and nothing is installed", async () => {
    const consent = await fetch(`${install}?account=${userId(`staff@${DOMAIN}`)}`);
    expect(consent.status).toBe(403);
    expect(await consent.text()).toContain(`Only a super administrator of ${DOMAIN} can install Alpvault`);
    const posted = await decide(userId(`staff@${DOMAIN}`), "install");
    expect(posted.status).toBe(403);
    expect(harness.emulator.directory.customer(DOMAIN)?.licenseState).toBe("UNLICENSED");
  });

  test("when the account is unknown or markup is passed as the account, then a 404 page that does not echo it", async () => {
    const answer = await fetch(`${install}?account=${encodeURIComponent("<script>x</script>")}`);
    expect(answer.status).toBe(404);
    expect(await answer.text()).not.toContain("<script>x");
  });
});
