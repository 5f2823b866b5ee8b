import { EXPORT_MESSAGES, exportRequestSchema } from "./exports";

const refusal = (body: Record<string, unknown>): string | null => {
  try {
    exportRequestSchema.validateSync(body, { strict: true });
    return null;
  } catch (error) {
    return (error as Error).message;
  }
};

describe("an export's request", () => {
  it("when a mailbox's label or a drive's folder is named, then it is taken", () => {
    expect(refusal({ resourceId: "user-ada", service: "gmail", label: "INBOX" })).toBeNull();
    expect(
      refusal({ resourceId: "user-ada", service: "drive", format: "zip", folder: "My Drive/Reports" }),
    ).toBeNull();
  });

  it.each([
    ["a label of Drive", { service: "drive", label: "INBOX" }],
    ["a folder of Gmail", { service: "gmail", folder: "My Drive" }],
    ["a label with chosen items", { service: "gmail", label: "INBOX", itemIds: ["m1"] }],
    ["a folder with chosen items", { service: "drive", folder: "My Drive", itemIds: ["f1"] }],
    ["a blank label", { service: "gmail", label: " " }],
    ["a folder over 1,000 characters", { service: "drive", folder: "x".repeat(1001) }],
  ])("when %s is asked for, then it is refused with the request's text", (_case, body) => {
    expect(refusal({ resourceId: "user-ada", ...body })).toBe(EXPORT_MESSAGES.invalid);
  });
});
