/**
 * The Google Workspace Marketplace pages a super admin goes through to install Alpvault for their domain,
 * as HTML a browser shows, so the local demo can be clicked end to end:
 *
 * - the app's listing (`/marketplace/app/alpvault/<app id>`) with its "Admin install" button;
 * - Google's account chooser (only super admins may install for a domain);
 * - the consent screen: the domain, every scope the app asks for in Google's own words, Install / Cancel;
 * - the result: installed (the licence is active and domain-wide delegation grants the scopes, exactly as
 *   the admin API's `app:install` does), cancelled, or refused.
 *
 * Follows "Install Marketplace apps in your domain" (support.google.com/a/answer/172482): only a super
 * administrator can install an app for everyone in the domain, the installer reviews and grants the
 * app's data access, and after installing returns to the app. The scope sentences are those of Google's
 * OAuth consent screen ("OAuth 2.0 Scopes for Google APIs", developers.google.com/identity/protocols/oauth2/scopes).
 * A non-admin gets Google's refusal rather than a way through; the emulator is no kinder than Google.
 */
import type { Customer, DirectoryUser } from "./directory/store";
import { DEFAULT_GRANTED_SCOPES, SCOPES } from "./auth";
import type { WorkspaceEmulator } from "./emulator";
import { RESPONDED, type RequestContext } from "./http";

/** The app's listing name and id (the project number of its Cloud project). */
export const MARKETPLACE_APP = { slug: "alpvault", name: "Alpvault" } as const;

/** What Google's consent screen says each scope lets the app do. */
export const SCOPE_SENTENCES: Record<string, string> = {
  [SCOPES.gmailReadonly]: "View your email messages and settings",
  [SCOPES.gmailModify]: "Read, compose, and send emails from your Gmail account",
  [SCOPES.gmailInsert]: "Add emails into your Gmail mailbox",
  [SCOPES.gmailLabels]: "See and edit your email labels",
  [SCOPES.drive]: "See, edit, create, and delete all of your Google Drive files",
  [SCOPES.directoryUserReadonly]: "See info about users on your domain",
  [SCOPES.marketplaceLicense]:
    "View your installed Google Workspace Marketplace applications' licensing information",
  [SCOPES.calendarReadonly]: "See and download any calendar you can access using your Google Calendar",
  [SCOPES.calendarAclsReadonly]: "See the sharing permissions of Google calendars you own",
  [SCOPES.calendar]:
    "See, edit, share, and permanently delete all the calendars you can access using Google Calendar",
  [SCOPES.contactsReadonly]: "See and download your contacts",
  [SCOPES.contactsOtherReadonly]:
    'See and download contact info automatically saved in your "Other contacts"',
  [SCOPES.contacts]: "See, edit, download, and permanently delete your contacts",
};

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => ESCAPES[character] ?? character);
}

const STYLE = `
body{margin:0;font-family:Roboto,Arial,sans-serif;background:#f0f4f9;color:#1f1f1f}
main{max-width:560px;margin:48px auto;background:#fff;border-radius:28px;padding:36px 40px}
h1{font-size:24px;font-weight:400;margin:0 0 8px}p{line-height:1.5}.muted{color:#444746}
ul{padding-left:20px}li{margin:6px 0}.actions{display:flex;gap:12px;justify-content:flex-end;margin-top:28px}
button,a.button{font:inherit;font-weight:500;border-radius:20px;padding:10px 24px;cursor:pointer;text-decoration:none}
.primary{background:#0b57d0;color:#fff;border:none}.secondary{background:none;color:#0b57d0;border:1px solid #747775}
.account{display:block;width:100%;text-align:left;background:none;border:none;border-bottom:1px solid #c4c7c5;
padding:14px 4px;border-radius:0;color:#1f1f1f}.account small{display:block;color:#444746}
`;

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} - Google Workspace Marketplace</title><style>${STYLE}</style></head>
<body><main>${body}</main></body></html>`;
}

function sendHtml(context: RequestContext, status: number, title: string, body: string): typeof RESPONDED {
  context.response.writeHead(status, {
    "content-type": "text/html; charset=utf-8",
    "cache-control": "no-store",
  });
  context.response.end(page(title, body));
  return RESPONDED;
}

function installPath(appId: string): string {
  return `/marketplace/app/${MARKETPLACE_APP.slug}/${appId}/install`;
}

function scopesList(scopes: readonly string[]): string {
  const items = scopes.map(
    (scope) => `<li data-scope="${escapeHtml(scope)}">${escapeHtml(SCOPE_SENTENCES[scope] ?? scope)}</li>`,
  );
  return `<ul data-testid="marketplace-scopes">${items.join("")}</ul>`;
}

function isInstalled(customer: Customer): boolean {
  return (
    customer.licenseState === "ACTIVE" &&
    DEFAULT_GRANTED_SCOPES.every((scope) => customer.grantedScopes.includes(scope))
  );
}

/** Google's refusals, each a page of its own with the HTTP status Google uses. */
function refusal(context: RequestContext, status: number, heading: string, text: string): typeof RESPONDED {
  return sendHtml(
    context,
    status,
    heading,
    `<h1 data-testid="marketplace-refusal">${escapeHtml(heading)}</h1><p class="muted">${escapeHtml(text)}</p>`,
  );
}

function accountChooser(
  context: RequestContext,
  emulator: WorkspaceEmulator,
  appId: string,
): typeof RESPONDED {
  const accounts = emulator.directory
    .allUsers()
    // The accounts signed in on this browser: the domains' administrators (a non-admin who reaches the
    // consent screen by its address gets Google's refusal).
    .filter((user) => user.isAdmin && !user.suspended)
    .map(
      (user) =>
        `<a class="account" data-testid="marketplace-account" href="${installPath(appId)}?account=${encodeURIComponent(user.id)}">` +
        `${escapeHtml(`${user.givenName} ${user.familyName}`.trim())}<small>${escapeHtml(user.primaryEmail)}</small></a>`,
    );
  return sendHtml(
    context,
    200,
    "Choose an account",
    `<h1>Choose an account</h1><p class="muted">to continue to Google Workspace Marketplace</p>${accounts.join("")}`,
  );
}

/** The installer: a super admin who is not suspended, and their domain. Otherwise Google's refusal. */
function installer(
  context: RequestContext,
  emulator: WorkspaceEmulator,
  account: string,
): { user: DirectoryUser; customer: Customer } | typeof RESPONDED {
  const user = account ? emulator.directory.user(account) : undefined;
  const customer = user ? emulator.directory.customer(user.customerId) : undefined;
  if (!user || !customer || user.suspended) {
    return refusal(context, 404, "Account not found", "Choose the account again from the app's listing.");
  }
  if (!user.isAdmin) {
    return refusal(
      context,
      403,
      "You need to be an administrator",
      `Only a super administrator of ${customer.domain} can install ${MARKETPLACE_APP.name} for the domain. Ask your administrator to install it.`,
    );
  }
  return { user, customer };
}

function consent(context: RequestContext, emulator: WorkspaceEmulator, appId: string): typeof RESPONDED {
  const account = context.query.get("account") ?? "";
  if (!account) return accountChooser(context, emulator, appId);
  const found = installer(context, emulator, account);
  if (found === RESPONDED) return found;
  const { user, customer } = found;
  if (isInstalled(customer)) {
    return sendHtml(
      context,
      200,
      "Already installed",
      `<h1 data-testid="marketplace-installed">${MARKETPLACE_APP.name} is already installed for ${escapeHtml(customer.domain)}</h1>
<p class="muted">Return to ${MARKETPLACE_APP.name} and press Verify installation.</p>`,
    );
  }
  const domain = escapeHtml(customer.domain);
  return sendHtml(
    context,
    200,
    `Install ${MARKETPLACE_APP.name}`,
    `<h1>Install ${MARKETPLACE_APP.name} for <span data-testid="marketplace-domain">${domain}</span>?</h1>
<p class="muted">Signed in as ${escapeHtml(user.primaryEmail)}. ${MARKETPLACE_APP.name} will be installed for everyone in ${domain}, and will be able to do the following for every user in the domain:</p>
${scopesList(DEFAULT_GRANTED_SCOPES)}
<p class="muted">By installing, you allow ${MARKETPLACE_APP.name} to use this data under its terms of service and privacy policy.</p>
<form method="post" action="${installPath(appId)}" class="actions">
<input type="hidden" name="account" value="${escapeHtml(user.id)}">
<button class="secondary" name="decision" value="cancel">Cancel</button>
<button class="primary" name="decision" value="install">Install</button>
</form>`,
  );
}

async function decide(context: RequestContext, emulator: WorkspaceEmulator): Promise<typeof RESPONDED> {
  const form = new URLSearchParams((await context.body()).toString("utf8"));
  const found = installer(context, emulator, form.get("account") ?? "");
  if (found === RESPONDED) return found;
  const { customer } = found;
  const domain = escapeHtml(customer.domain);
  if (form.get("decision") !== "install") {
    return sendHtml(
      context,
      200,
      "Installation cancelled",
      `<h1 data-testid="marketplace-cancelled">${MARKETPLACE_APP.name} was not installed</h1>
<p class="muted">Nothing changed for ${domain}. You can install it later from the app's listing.</p>`,
    );
  }
  // The same change as the admin API's `app:install`: licence active, the scopes granted to our client.
  customer.grantedScopes = [...DEFAULT_GRANTED_SCOPES];
  customer.licenseState = "ACTIVE";
  return sendHtml(
    context,
    200,
    "Installed",
    `<h1 data-testid="marketplace-installed">${MARKETPLACE_APP.name} is installed for ${domain}</h1>
<p class="muted">Return to ${MARKETPLACE_APP.name} and press Verify installation. You can close this tab.</p>
<div class="actions"><button class="primary" type="button" onclick="window.close()">Done</button></div>`,
  );
}

/** The listing, the account chooser and consent screen, and the install decision. */
export function registerMarketplacePages(emulator: WorkspaceEmulator, appId: string): void {
  const listing = `/marketplace/app/${MARKETPLACE_APP.slug}/${appId}`;
  emulator.router.add({
    method: "GET",
    path: listing,
    id: "marketplace.listing",
    handler: (context) =>
      sendHtml(
        context,
        200,
        MARKETPLACE_APP.name,
        `<h1>${MARKETPLACE_APP.name}</h1>
<p class="muted">Backups of every mailbox and drive in your Google Workspace organisation, encrypted under your key, searchable and restorable.</p>
<p class="muted">Works with Gmail and Google Drive. Installed by a super administrator for the whole domain.</p>
<div class="actions"><a class="button primary" href="${installPath(appId)}">Admin install</a></div>`,
      ),
  });
  emulator.router.add({
    method: "GET",
    path: installPath(appId),
    id: "marketplace.install",
    handler: (context) => consent(context, emulator, appId),
  });
  emulator.router.add({
    method: "POST",
    path: installPath(appId),
    id: "marketplace.install",
    handler: (context) => decide(context, emulator),
  });
}
