/**
 * The secrets screen (docs/requirements.md#validation, #who-may-do-what, #errors-and-messages) against the
 * fake API: the dialog's validation texts from the contract, every write answered in the snackbar, the
 * errors of the API shown as it gives them, and the free plan's gating.
 */
import { screen, waitFor, within } from "@testing-library/react";
import type { PlanId } from "@alpvault/contracts/plans";
import { SECRET_MESSAGES, type Secret, type SecretsResponse } from "@alpvault/contracts/secrets";
import { installFakeApi, type FakeApi } from "@/testing/fake-api";
import { renderWithProviders } from "@/testing/render";
import { fill } from "@/testing/fill";
import { expectSnackbar } from "@/testing/snackbar";
import { SecretsScreen } from "./secrets-screen";

const LIST = "GET /organizations/:organizationId/secrets";
const CREATE = "POST /organizations/:organizationId/secrets";
const UPDATE = "PATCH /organizations/:organizationId/secrets/:secretId";
const DELETE = "DELETE /organizations/:organizationId/secrets/:secretId";
const MAKE_DEFAULT = "POST /organizations/:organizationId/secrets/:secretId/default";
const CHECK = "POST /organizations/:organizationId/secrets/:secretId:check";

const KEY_NAME = "projects/alpvault-demo/locations/europe-west6/keyRings/backups/cryptoKeys/finance";

const builtIn: Secret = {
  secretId: "default",
  description: "Alpvault default key (AES-256)",
  kind: "default",
  kmsResourceName: null,
  isDefault: true,
  lastCheck: null,
  createdAt: null,
  updatedAt: null,
};

function aKey(change: Partial<Secret> = {}): Secret {
  return {
    secretId: "finance",
    description: "Finance key",
    kind: "cloud-kms",
    kmsResourceName: KEY_NAME,
    isDefault: false,
    lastCheck: { health: "ok", message: null, checkedAt: "2026-11-20T10:00:00.000Z" },
    createdAt: "2026-11-20T10:00:00.000Z",
    updatedAt: null,
    ...change,
  };
}

const listOf = (...secrets: Secret[]): SecretsResponse => ({ secrets, planId: "geneva" });

let api: FakeApi;
beforeEach(() => {
  api = installFakeApi();
  api.answer(LIST, listOf(builtIn, aKey()));
});

async function openScreen(plan: PlanId = "geneva") {
  const rendered = await renderWithProviders(<SecretsScreen />, { route: "/profile/secrets", plan });
  await waitFor(() => expect(screen.getByTestId("secrets-table")).toHaveAttribute("aria-busy", "false"));
  await screen.findAllByTestId("secret-row");
  return rendered;
}

const dialog = () => screen.getByRole("dialog");

describe("the secrets list", () => {
  it("when the list loads, then the built-in key comes first marked Default and each Cloud KMS key shows its state", async () => {
    api.answer(
      LIST,
      listOf(builtIn, aKey(), aKey({ secretId: "hr", description: "HR key", lastCheck: null })),
    );
    await openScreen();
    const rows = screen.getAllByTestId("secret-row");
    expect(within(rows[0] as HTMLElement).getByText("Alpvault default key (AES-256)")).toBeInTheDocument();
    expect(within(rows[0] as HTMLElement).getByText("Default")).toBeInTheDocument();
    expect(within(rows[0] as HTMLElement).getByText("Managed by Alpvault")).toBeInTheDocument();
    expect(within(rows[1] as HTMLElement).getByText("Usable")).toBeInTheDocument();
    expect(within(rows[2] as HTMLElement).getByText("Not checked")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Edit Finance key" })).toBeEnabled();
    // The built-in key has no edit, check or delete.
    expect(within(rows[0] as HTMLElement).queryAllByRole("button")).toHaveLength(0);
  });

  it("when the list is loading, then the table is busy with a progress bar, and not once it has loaded", async () => {
    const held = api.hold(LIST);
    await renderWithProviders(<SecretsScreen />, { route: "/profile/secrets" });
    await waitFor(() => expect(held.arrived).toBe(1));
    expect(screen.getByTestId("secrets-table")).toHaveAttribute("aria-busy", "true");
    expect(screen.getByRole("progressbar")).toBeInTheDocument();
    held.release();
    await waitFor(() => expect(screen.getByTestId("secrets-table")).toHaveAttribute("aria-busy", "false"));
    expect(screen.queryByRole("progressbar")).not.toBeInTheDocument();
    expect(screen.getAllByTestId("secret-row")).toHaveLength(2);
  });

  it("when the list fails with {code, message}, then the message is shown with Retry, which reads it again", async () => {
    api.fail(LIST, { code: 503, message: "Secrets are resting." });
    const { user } = await renderWithProviders(<SecretsScreen />, { route: "/profile/secrets" });
    const error = await screen.findByTestId("secrets-error");
    expect(error).toHaveTextContent("Secrets are resting.");
    api.answer(LIST, listOf(builtIn));
    await user.click(within(error).getByRole("button", { name: "Retry" }));
    await screen.findByTestId("secret-row");
    expect(screen.queryByTestId("secrets-error")).not.toBeInTheDocument();
  });

  it("when the network fails, then the unexpected error is shown and the loading stops", async () => {
    api.failNetwork(LIST);
    await renderWithProviders(<SecretsScreen />, { route: "/profile/secrets" });
    expect(await screen.findByTestId("secrets-error")).toHaveTextContent("Unexpected error occurred");
    expect(screen.getByTestId("secrets-table")).toHaveAttribute("aria-busy", "false");
    expect(screen.queryByRole("progressbar")).not.toBeInTheDocument();
  });
});

describe("adding a secret", () => {
  it("when the form is sent empty, then the required texts of the contract are shown and nothing is sent", async () => {
    const { user } = await openScreen();
    await user.click(screen.getByRole("button", { name: "Add secret" }));
    await user.click(within(dialog()).getByRole("button", { name: "Add" }));
    expect(within(dialog()).getByText(SECRET_MESSAGES.descriptionRequired)).toBeInTheDocument();
    expect(within(dialog()).getByText(SECRET_MESSAGES.kmsResourceNameRequired)).toBeInTheDocument();
    expect(api.requests(CREATE)).toHaveLength(0);
  });

  it("when the key's resource name is not a Cloud KMS name, then the format text is shown", async () => {
    const { user } = await openScreen();
    await user.click(screen.getByRole("button", { name: "Add secret" }));
    await fill(user, within(dialog()).getByLabelText("Description"), "Finance key");
    await fill(user, within(dialog()).getByLabelText("Cloud KMS key resource name"), "projects/p/keys/k");
    await user.click(within(dialog()).getByRole("button", { name: "Add" }));
    expect(within(dialog()).getByText(SECRET_MESSAGES.kmsResourceNameInvalid)).toBeInTheDocument();
    expect(within(dialog()).queryByText(SECRET_MESSAGES.descriptionRequired)).not.toBeInTheDocument();
    expect(api.requests(CREATE)).toHaveLength(0);
  });

  it("when a valid key is added, then it is sent trimmed, confirmed in the snackbar, the dialog closes and the list is read again", async () => {
    api.answer(LIST, listOf(builtIn));
    api.answer(CREATE, { secret: aKey() });
    const { user } = await openScreen();
    await user.click(screen.getByRole("button", { name: "Add secret" }));
    await fill(user, within(dialog()).getByLabelText("Description"), "  Finance key ");
    await fill(user, within(dialog()).getByLabelText("Cloud KMS key resource name"), KEY_NAME);
    await user.click(
      within(dialog()).getByRole("checkbox", { name: "Use as the default key for new backups" }),
    );
    api.answer(LIST, listOf(builtIn, aKey()));
    await user.click(within(dialog()).getByRole("button", { name: "Add" }));
    await expectSnackbar(SECRET_MESSAGES.added, "success");
    expect(api.lastRequest(CREATE).body).toEqual({
      description: "Finance key",
      kmsResourceName: KEY_NAME,
      isDefault: true,
    });
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    await waitFor(() => expect(screen.getAllByTestId("secret-row")).toHaveLength(2));
  });

  it("when Cloud KMS cannot use the added key, then the snackbar says it was added with the key's problem, as an error", async () => {
    const message = "The Cloud KMS key is disabled. Enable its primary version in Google Cloud.";
    api.answer(CREATE, {
      secret: aKey({ lastCheck: { health: "disabled", message, checkedAt: "2026-11-20T10:00:00.000Z" } }),
    });
    const { user } = await openScreen();
    await user.click(screen.getByRole("button", { name: "Add secret" }));
    await fill(user, within(dialog()).getByLabelText("Description"), "Finance key");
    await fill(user, within(dialog()).getByLabelText("Cloud KMS key resource name"), KEY_NAME);
    await user.click(within(dialog()).getByRole("button", { name: "Add" }));
    await expectSnackbar(`${SECRET_MESSAGES.added}. ${message}`, "error");
  });

  it("when the API refuses the key, then its message is shown as an error and the dialog keeps what was typed", async () => {
    api.fail(CREATE, { code: 409, message: SECRET_MESSAGES.alreadyAdded });
    const { user } = await openScreen();
    await user.click(screen.getByRole("button", { name: "Add secret" }));
    await fill(user, within(dialog()).getByLabelText("Description"), "Finance key");
    await fill(user, within(dialog()).getByLabelText("Cloud KMS key resource name"), KEY_NAME);
    await user.click(within(dialog()).getByRole("button", { name: "Add" }));
    await expectSnackbar(SECRET_MESSAGES.alreadyAdded, "error");
    expect(within(dialog()).getByLabelText("Description")).toHaveValue("Finance key");
    expect(within(dialog()).getByRole("button", { name: "Add" })).toBeEnabled();
  });

  it("when the API fails with an empty message, then the snackbar says the generic text", async () => {
    api.fail(CREATE, { code: 500, message: "" });
    const { user } = await openScreen();
    await user.click(screen.getByRole("button", { name: "Add secret" }));
    await fill(user, within(dialog()).getByLabelText("Description"), "Finance key");
    await fill(user, within(dialog()).getByLabelText("Cloud KMS key resource name"), KEY_NAME);
    await user.click(within(dialog()).getByRole("button", { name: "Add" }));
    await expectSnackbar("Something went wrong.", "error");
  });
});

describe("changing a secret", () => {
  it("when an edit empties the description, then the required text shows; a new one is saved and confirmed", async () => {
    api.answer(UPDATE, { secret: aKey({ description: "Finance key 2026" }) });
    const { user } = await openScreen();
    await user.click(screen.getByRole("button", { name: "Edit Finance key" }));
    expect(within(dialog()).getByRole("heading", { name: "Edit secret" })).toBeInTheDocument();
    expect(within(dialog()).getByLabelText("Cloud KMS key resource name")).toHaveValue(KEY_NAME);
    await user.clear(within(dialog()).getByLabelText("Description"));
    await user.click(within(dialog()).getByRole("button", { name: "Save" }));
    expect(within(dialog()).getByText(SECRET_MESSAGES.descriptionRequired)).toBeInTheDocument();
    await fill(user, within(dialog()).getByLabelText("Description"), "Finance key 2026");
    await user.click(within(dialog()).getByRole("button", { name: "Save" }));
    await expectSnackbar(SECRET_MESSAGES.updated, "success");
    expect(api.lastRequest(UPDATE)).toMatchObject({
      params: { secretId: "finance" },
      body: { description: "Finance key 2026", kmsResourceName: KEY_NAME },
    });
  });

  it("when a key is made the default, then the snackbar names it", async () => {
    api.answer(MAKE_DEFAULT, listOf(aKey({ isDefault: true }), { ...builtIn, isDefault: false }));
    const { user } = await openScreen();
    await user.click(screen.getByRole("button", { name: "Make default" }));
    await expectSnackbar("“Finance key” is now the default key.", "success");
    expect(api.lastRequest(MAKE_DEFAULT).params.secretId).toBe("finance");
  });

  it("when a key is checked, then the snackbar says it works, or why it does not as an error", async () => {
    api.answer(CHECK, { secret: aKey() });
    const { user } = await openScreen();
    await user.click(screen.getByRole("button", { name: "Check Finance key" }));
    await expectSnackbar("The key of “Finance key” works.", "success");
    const message = "The Cloud KMS key was not found. Check its resource name.";
    api.answer(CHECK, {
      secret: aKey({ lastCheck: { health: "not-found", message, checkedAt: "2026-11-21T10:00:00.000Z" } }),
    });
    await user.click(screen.getByRole("button", { name: "Check Finance key" }));
    await expectSnackbar(message, "error");
  });

  it("when a key is deleted after the confirmation, then the snackbar confirms it", async () => {
    api.answer(DELETE, undefined);
    const { user } = await openScreen();
    await user.click(screen.getByRole("button", { name: "Delete Finance key" }));
    const confirm = screen.getByRole("dialog", { name: "Delete secret?" });
    expect(confirm).toHaveTextContent(
      "“Finance key” will be removed from Alpvault. A key that protects backups cannot be deleted.",
    );
    api.answer(LIST, listOf(builtIn));
    await user.click(within(confirm).getByRole("button", { name: "Delete" }));
    await expectSnackbar(SECRET_MESSAGES.deleted, "success");
    expect(api.lastRequest(DELETE).params.secretId).toBe("finance");
    await waitFor(() => expect(screen.getAllByTestId("secret-row")).toHaveLength(1));
  });

  it("when the key protects backups, then the 409 text is shown as an error and the key stays", async () => {
    api.fail(DELETE, { code: 409, message: SECRET_MESSAGES.deleteConflict });
    const { user } = await openScreen();
    await user.click(screen.getByRole("button", { name: "Delete Finance key" }));
    await user.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Delete" }));
    await expectSnackbar(SECRET_MESSAGES.deleteConflict, "error");
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(screen.getAllByTestId("secret-row")).toHaveLength(2);
  });
});

describe("secrets on the free plan", () => {
  it("when the organisation is on Matterhorn, then adding is disabled and the notice leads to the plans", async () => {
    api.answer(LIST, { secrets: [builtIn], planId: "matterhorn" });
    const { user, router } = await openScreen("matterhorn");
    const notice = screen.getByTestId("secrets-free-plan");
    expect(notice).toHaveTextContent("Your own encryption keys need a paid plan");
    expect(screen.getByRole("button", { name: "Add secret" })).toBeDisabled();
    await user.click(within(notice).getByRole("link", { name: "See plans" }));
    expect(router.state.location.pathname).toBe("/plans");
  });

  it("when the organisation's answers name a paid plan, then adding is open whatever the list's plan", async () => {
    api.answer(LIST, { secrets: [builtIn], planId: "matterhorn" });
    await openScreen("zurich");
    expect(screen.queryByTestId("secrets-free-plan")).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Add secret" })).toBeEnabled();
  });
});
