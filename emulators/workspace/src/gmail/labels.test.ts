/**
 * Label renames as Gmail does them: labels.update and labels.patch rename a user label and keep its id,
 * so messages keep it; Gmail records no history for a rename (history has messages added or deleted and
 * labels added or removed on messages only) and the mailbox's historyId does not move. System labels cannot
 * be renamed; a name in use (any case) is 409. Latency is off for this file: these tests check answers.
 */
import { TEST_USER, googleError, startHarness, type Harness } from "../testing/harness";
import { testMessage } from "./testing-messages";

let harness: Harness;
beforeEach(async () => {
  harness = await startHarness({ quota: { enabled: false }, latency: { enabled: false } });
});
afterEach(() => harness.stop());

test("when a user label is renamed with update and then patch, then its id, its messages and the history stay as they were", async () => {
  const gmail = harness.gmail(TEST_USER);
  const { data: label } = await gmail.users.labels.create({ userId: "me", requestBody: { name: "Kunden" } });
  const userId = harness.emulator.directory.user(TEST_USER)?.id as string;
  const { id } = harness.emulator.gmail.insertMessage(userId, testMessage({ subject: "Offerte" }), {
    labelIds: ["INBOX", label.id as string],
  });
  const { data: before } = await gmail.users.getProfile({ userId: "me" });

  const { data: updated } = await gmail.users.labels.update({
    userId: "me",
    id: label.id as string,
    requestBody: { name: "Kunden 2026" },
  });
  expect(updated).toMatchObject({ id: label.id, name: "Kunden 2026", type: "user" });
  const { data: patched } = await gmail.users.labels.patch({
    userId: "me",
    id: label.id as string,
    requestBody: { name: "Kunden/Zürich" },
  });
  expect(patched).toMatchObject({ id: label.id, name: "Kunden/Zürich" });

  const { data: message } = await gmail.users.messages.get({ userId: "me", id, format: "minimal" });
  expect(message.labelIds).toEqual(["INBOX", label.id]);
  const { data: labels } = await gmail.users.labels.list({ userId: "me" });
  expect(labels.labels?.filter((entry) => entry.id === label.id).map((entry) => entry.name)).toEqual([
    "Kunden/Zürich",
  ]);
  const { data: after } = await gmail.users.getProfile({ userId: "me" });
  expect(after.historyId).toBe(before.historyId);
  const { data: history } = await gmail.users.history.list({
    userId: "me",
    startHistoryId: before.historyId as string,
  });
  expect(history.history).toBeUndefined();
  // The new name finds the messages in a search.
  const { data: found } = await gmail.users.messages.list({ userId: "me", q: "label:kunden-zürich" });
  expect(found.messages?.map((entry) => entry.id)).toEqual([id]);
});

test("when a system label is renamed, or a name in use is taken in any case, or a reserved name, then Gmail refuses", async () => {
  const gmail = harness.gmail(TEST_USER);
  const { data: first } = await gmail.users.labels.create({
    userId: "me",
    requestBody: { name: "Finanzen" },
  });
  const { data: second } = await gmail.users.labels.create({ userId: "me", requestBody: { name: "Reisen" } });
  const system = await googleError(
    gmail.users.labels.update({ userId: "me", id: "INBOX", requestBody: { name: "Eingang" } }),
  );
  expect(system).toMatchObject({ status: 400, reason: "invalidArgument" });
  const taken = await googleError(
    gmail.users.labels.patch({ userId: "me", id: second.id as string, requestBody: { name: "FINANZEN" } }),
  );
  expect(taken.body).toEqual({
    error: {
      code: 409,
      message: "Label name exists or conflicts",
      errors: [{ message: "Label name exists or conflicts", domain: "global", reason: "aborted" }],
      status: "ABORTED",
    },
  });
  const reserved = await googleError(
    gmail.users.labels.patch({ userId: "me", id: first.id as string, requestBody: { name: "Muted" } }),
  );
  expect(reserved).toMatchObject({ status: 400, message: "Invalid label name" });
  // Renaming a label to its own name in another case is not a conflict.
  const { data: recased } = await gmail.users.labels.patch({
    userId: "me",
    id: first.id as string,
    requestBody: { name: "FINANZEN" },
  });
  expect(recased.name).toBe("FINANZEN");
});

test("when a label is renamed through the admin API (the user renames it in Gmail), then clients see the new name under the same id", async () => {
  const gmail = harness.gmail(TEST_USER);
  const { data: label } = await gmail.users.labels.create({
    userId: "me",
    requestBody: { name: "Projekte" },
  });
  const renamed = await harness.admin("PATCH", `/users/${TEST_USER}/gmail/labels/${label.id as string}`, {
    name: "Projekte/Alpvault",
  });
  expect(renamed).toMatchObject({ status: 200, body: { id: label.id, name: "Projekte/Alpvault" } });
  const { data } = await gmail.users.labels.get({ userId: "me", id: label.id as string });
  expect(data.name).toBe("Projekte/Alpvault");
  const missing = await harness.admin("PATCH", `/users/${TEST_USER}/gmail/labels/Label_999`, { name: "X" });
  expect(missing.status).toBe(404);
});
