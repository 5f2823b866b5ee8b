/**
 * The backup policies screen (docs/requirements.md#validation, #who-may-do-what, #errors-and-messages)
 * against the fake API: the form's four required texts from the contract, the frequencies each plan may
 * use, the writes answered in the snackbar, the 409 of a policy in use, and the free plan's gating.
 */
import { screen, waitFor, within } from "@testing-library/react";
import { POLICY_MESSAGES } from "@alpvault/contracts/policies";
import type { PlanId } from "@alpvault/contracts/plans";
import { installFakeApi, type FakeApi } from "@/testing/fake-api";
import { fill } from "@/testing/fill";
import { aCustomPolicy, aPolicy, policiesOf } from "@/testing/fixtures/policies";
import { renderWithProviders } from "@/testing/render";
import { expectSnackbar } from "@/testing/snackbar";
import { PoliciesScreen } from "./policies-screen";

const LIST = "GET /organizations/:organizationId/policies";
const CREATE = "POST /organizations/:organizationId/policies";
const UPDATE = "PATCH /organizations/:organizationId/policies/:policyId";
const DELETE = "DELETE /organizations/:organizationId/policies/:policyId";

let api: FakeApi;
beforeEach(() => {
  api = installFakeApi();
  api.answer(LIST, policiesOf("geneva", aPolicy(), aCustomPolicy({ resourceCount: 2 })));
});

async function openScreen(plan: PlanId = "geneva") {
  const rendered = await renderWithProviders(<PoliciesScreen />, { route: "/policies", plan });
  await screen.findAllByTestId("policy-row");
  return rendered;
}

const row = (name: string) =>
  screen.getAllByTestId("policy-row").find((candidate) => within(candidate).queryByText(name)) as HTMLElement;
const dialog = () => screen.getByRole("dialog", { name: /backup policy/ });

async function openNewPolicy(plan: PlanId = "geneva") {
  api.answer(LIST, policiesOf(plan, aPolicy()));
  const rendered = await openScreen(plan);
  await rendered.user.click(screen.getByRole("button", { name: "New policy" }));
  return rendered;
}

describe("the policies list", () => {
  it("when the policies load, then each row says what, how often, when, how long, archiving and how many resources", async () => {
    await openScreen();
    const standard = row("Default policy");
    for (const text of [
      "Default",
      "Emails, Drive",
      "1 backup per day",
      "Every day",
      "30 days",
      "Archiving off",
    ]) {
      expect(within(standard).getByText(text)).toBeInTheDocument();
    }
    const custom = row("Finance team");
    for (const text of ["Emails", "3 backups per day", "Monday, Thursday", "90 days", "Archiving on"]) {
      expect(within(custom).getByText(text)).toBeInTheDocument();
    }
    expect(within(custom).getByTestId("policy-resources")).toHaveTextContent("2");
    expect(screen.getByRole("button", { name: "Delete Default policy" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Delete Finance team" })).toBeEnabled();
  });

  it("when the list fails, then its message shows with Try again, which reads it again", async () => {
    api.fail(LIST, { code: 500, message: "Policies are unavailable." });
    const { user } = await renderWithProviders(<PoliciesScreen />, { route: "/policies" });
    const error = await screen.findByTestId("policies-error");
    expect(error).toHaveTextContent("Policies are unavailable.");
    api.answer(LIST, policiesOf("geneva", aPolicy()));
    await user.click(within(error).getByRole("button", { name: "Try again" }));
    await screen.findByTestId("policy-row");
    expect(screen.queryByTestId("policies-error")).not.toBeInTheDocument();
  });

  it("when the list is loading, then the table is busy, and the loading stops when it fails", async () => {
    api.failNetwork(LIST);
    const held = api.hold(LIST);
    await renderWithProviders(<PoliciesScreen />, { route: "/policies" });
    await waitFor(() => expect(held.arrived).toBe(1));
    expect(screen.getByTestId("policies-table")).toHaveAttribute("aria-busy", "true");
    held.release();
    expect(await screen.findByTestId("policies-error")).toHaveTextContent("Unexpected error occurred");
    expect(screen.getByTestId("policies-table")).toHaveAttribute("aria-busy", "false");
  });
});

describe("the policy form", () => {
  it("when it is sent empty, then the four required texts of the contract show and nothing is sent", async () => {
    const { user } = await openNewPolicy();
    await user.click(within(dialog()).getByRole("button", { name: "Add policy" }));
    for (const text of [
      POLICY_MESSAGES.nameRequired,
      POLICY_MESSAGES.dataTypesRequired,
      POLICY_MESSAGES.frequencyRequired,
      POLICY_MESSAGES.scheduleRequired,
    ]) {
      expect(within(dialog()).getByText(text)).toBeInTheDocument();
    }
    expect(api.requests(CREATE)).toHaveLength(0);
  });

  it("when chosen days are the schedule but none is ticked, then the schedule text shows", async () => {
    const { user } = await openNewPolicy();
    await fill(user, within(dialog()).getByLabelText(/Policy name/), "Weekly");
    await user.click(within(dialog()).getByRole("checkbox", { name: "Emails" }));
    await user.click(within(dialog()).getByRole("radio", { name: /^1 backup per day/ }));
    await user.click(within(dialog()).getByRole("radio", { name: "Chosen days" }));
    await user.click(within(dialog()).getByRole("button", { name: "Add policy" }));
    expect(within(dialog()).getByText(POLICY_MESSAGES.scheduleRequired)).toBeInTheDocument();
    expect(within(dialog()).queryByText(POLICY_MESSAGES.nameRequired)).not.toBeInTheDocument();
    expect(api.requests(CREATE)).toHaveLength(0);
  });

  it("when the data types show, then the coming-soon ones are disabled with their label", async () => {
    await openNewPolicy();
    for (const type of ["Chats", "Directory"]) {
      expect(within(dialog()).getByRole("checkbox", { name: `${type} (Coming soon)` })).toBeDisabled();
    }
    expect(within(dialog()).getByRole("checkbox", { name: "Emails" })).toBeEnabled();
  });

  it("when the plan is geneva, then contacts and calendars are disabled saying they need Zürich", async () => {
    await openNewPolicy("geneva");
    for (const type of ["Contacts", "Calendars"]) {
      expect(
        within(dialog()).getByRole("checkbox", { name: `${type} (Needs the Zürich plan)` }),
      ).toBeDisabled();
    }
    expect(within(dialog()).getByRole("checkbox", { name: "Drive" })).toBeEnabled();
  });

  it("when the plan is zurich, then contacts and calendars can be chosen and are sent with the policy", async () => {
    const { user } = await openNewPolicy("zurich");
    api.answer(CREATE, aCustomPolicy({ name: "Everything", dataTypes: ["contacts", "calendars"] }));
    await fill(user, within(dialog()).getByLabelText(/Policy name/), "Everything");
    await user.click(within(dialog()).getByRole("checkbox", { name: "Contacts" }));
    await user.click(within(dialog()).getByRole("checkbox", { name: "Calendars" }));
    await user.click(within(dialog()).getByRole("radio", { name: /^24 backups per day/ }));
    await user.click(within(dialog()).getByRole("radio", { name: "Every day" }));
    await user.click(within(dialog()).getByRole("button", { name: "Add policy" }));
    await expectSnackbar("Policy added", "success");
    expect(api.lastRequest(CREATE).body).toMatchObject({
      dataTypes: ["contacts", "calendars"],
      frequency: 24,
    });
  });

  it.each<[PlanId, string[], string[]]>([
    ["geneva", ["1", "3"], ["24"]],
    ["zurich", ["1", "3", "24"], []],
    // Matterhorn cannot open the form at all (see "policies on the free plan").
  ])(
    "when the plan is %s, then the frequencies it includes are open and the others disabled",
    async (plan, open, closed) => {
      await openNewPolicy(plan);
      const radio = (frequency: string) =>
        within(dialog()).getByRole("radio", { name: new RegExp(`^${frequency} backups? per day`) });
      for (const frequency of open) expect(radio(frequency)).toBeEnabled();
      for (const frequency of closed) expect(radio(frequency)).toBeDisabled();
      const hint = within(dialog()).queryByTestId("policy-upgrade-hint");
      if (closed.length === 0) expect(hint).not.toBeInTheDocument();
      else
        expect(within(hint as HTMLElement).getByRole("link", { name: "Upgrade" })).toHaveAttribute(
          "href",
          "/plans",
        );
      expect(within(dialog()).getByText("Needs the Zürich plan")).toBeInTheDocument();
    },
  );

  it("when the form is filled in, then the policy is sent in week order, confirmed, and listed after the list is read again", async () => {
    const { user } = await openNewPolicy();
    api.answer(CREATE, aCustomPolicy());
    await fill(user, within(dialog()).getByLabelText(/Policy name/), "  Finance team ");
    await user.click(within(dialog()).getByRole("checkbox", { name: "Emails" }));
    await user.click(within(dialog()).getByRole("radio", { name: /^3 backups per day/ }));
    await user.click(within(dialog()).getByRole("radio", { name: "Chosen days" }));
    await user.click(within(dialog()).getByRole("checkbox", { name: "Thursday" }));
    await user.click(within(dialog()).getByRole("checkbox", { name: "Monday" }));
    await user.click(within(dialog()).getByRole("combobox", { name: "Retention" }));
    await user.click(screen.getByRole("option", { name: "90 days" }));
    await user.click(within(dialog()).getByRole("switch", { name: /Archiving/ }));
    api.answer(LIST, policiesOf("geneva", aPolicy(), aCustomPolicy()));
    await user.click(within(dialog()).getByRole("button", { name: "Add policy" }));
    await expectSnackbar("Policy added", "success");
    expect(api.lastRequest(CREATE).body).toEqual({
      name: "Finance team",
      dataTypes: ["emails"],
      frequency: 3,
      schedule: "days",
      days: ["monday", "thursday"],
      retentionDays: 90,
      archiving: true,
    });
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(await screen.findByText("Finance team")).toBeInTheDocument();
  });

  it("when the API refuses the policy, then its message shows as an error and the dialog keeps the values", async () => {
    const { user } = await openNewPolicy("geneva");
    api.fail(CREATE, { code: 403, message: POLICY_MESSAGES.frequency3 });
    await fill(user, within(dialog()).getByLabelText(/Policy name/), "Fast");
    await user.click(within(dialog()).getByRole("checkbox", { name: "Drive" }));
    await user.click(within(dialog()).getByRole("radio", { name: /^3 backups per day/ }));
    await user.click(within(dialog()).getByRole("radio", { name: "Every day" }));
    await user.click(within(dialog()).getByRole("button", { name: "Add policy" }));
    await expectSnackbar(POLICY_MESSAGES.frequency3, "error");
    expect(within(dialog()).getByLabelText(/Policy name/)).toHaveValue("Fast");
  });

  it("when a policy is edited, then the form starts from it and only the change is saved and confirmed", async () => {
    api.answer(UPDATE, aCustomPolicy({ name: "Finance", schedule: "weekdays", days: [] }));
    const { user } = await openScreen();
    await user.click(screen.getByRole("button", { name: "Edit Finance team" }));
    expect(dialog()).toHaveAccessibleName("Edit backup policy");
    expect(within(dialog()).getByLabelText(/Policy name/)).toHaveValue("Finance team");
    expect(within(dialog()).getByRole("checkbox", { name: "Monday" })).toBeChecked();
    await fill(user, within(dialog()).getByLabelText(/Policy name/), "Finance");
    await user.click(within(dialog()).getByRole("radio", { name: "Weekdays" }));
    await user.click(within(dialog()).getByRole("button", { name: "Save" }));
    await expectSnackbar("Policy updated", "success");
    expect(api.lastRequest(UPDATE)).toMatchObject({
      params: { policyId: "finance" },
      body: { name: "Finance", schedule: "weekdays", days: [], frequency: 3, retentionDays: 90 },
    });
  });
});

describe("deleting a policy", () => {
  it("when a policy with resources is deleted, then the required 409 text shows as an error and it stays", async () => {
    api.fail(DELETE, { code: 409, message: POLICY_MESSAGES.inUse });
    const { user } = await openScreen();
    await user.click(screen.getByRole("button", { name: "Delete Finance team" }));
    const confirm = screen.getByRole("dialog", { name: "Delete backup policy" });
    expect(confirm).toHaveTextContent('Delete the policy "Finance team"? This cannot be undone.');
    await user.click(within(confirm).getByRole("button", { name: "Delete" }));
    await expectSnackbar(POLICY_MESSAGES.inUse, "error");
    expect(row("Finance team")).toBeInTheDocument();
  });

  it("when a policy without resources is deleted, then the snackbar confirms it and it leaves the list", async () => {
    api.answer(LIST, policiesOf("geneva", aPolicy(), aCustomPolicy()));
    api.answer(DELETE, { policyId: "finance" });
    const { user } = await openScreen();
    api.answer(LIST, policiesOf("geneva", aPolicy()));
    await user.click(screen.getByRole("button", { name: "Delete Finance team" }));
    await user.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Delete" }));
    await expectSnackbar("Policy deleted", "success");
    expect(api.lastRequest(DELETE).params.policyId).toBe("finance");
    await waitFor(() => expect(screen.queryByText("Finance team")).not.toBeInTheDocument());
  });

  it("when the deletion fails without a message, then the snackbar says the generic text", async () => {
    api.fail(DELETE, { code: 500, message: "" });
    const { user } = await openScreen();
    await user.click(screen.getByRole("button", { name: "Delete Finance team" }));
    await user.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Delete" }));
    await expectSnackbar("Something went wrong.", "error");
  });
});

describe("policies on the free plan", () => {
  it("when the organisation is on Matterhorn, then creating, editing and deleting are disabled and the notice says how resources are backed up", async () => {
    api.answer(LIST, policiesOf("matterhorn", aPolicy()));
    const { user, router } = await openScreen("matterhorn");
    const notice = screen.getByTestId("policies-free-plan");
    expect(notice).toHaveTextContent(
      "Creating, editing and deleting policies needs the Geneva or Zürich plan",
    );
    expect(notice).toHaveTextContent(
      "assign it to them on the Resources screen (Change backup policy); a resource without a policy is not backed up.",
    );
    expect(screen.getByRole("button", { name: "New policy" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Edit Default policy" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Delete Default policy" })).toBeDisabled();
    await user.click(within(notice).getByRole("link", { name: "Upgrade" }));
    expect(router.state.location.pathname).toBe("/plans");
  });

  it("when the organisation's answers name it 'matterhorn' in any case, then it is gated whatever the list says", async () => {
    api.answer(LIST, policiesOf("geneva", aPolicy()));
    api.answer("GET /organizations/:organizationId", {
      organizationId: "org-demo",
      domain: "alpvault-demo.test",
      totalStorage: 0,
      maximumStorage: 0,
      plan: { name: "matterhorn" },
    });
    await openScreen("geneva");
    expect(screen.getByTestId("policies-free-plan")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "New policy" })).toBeDisabled();
  });

  it("when the organisation's answers name Geneva, then nothing is gated", async () => {
    await openScreen("geneva");
    expect(screen.queryByTestId("policies-free-plan")).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "New policy" })).toBeEnabled();
  });
});
