/**
 * The shared components that carry logic: the pace and time left of work under way, a table's pager, the
 * named problems of a finished job, and the confirmation of a destructive action.
 */
import { screen, within } from "@testing-library/react";
import { useState } from "react";
import { initI18n } from "@/lib/i18n/i18n";
import { renderWithProviders } from "@/testing/render";
import { ConfirmDialog } from "./confirm-dialog";
import { NamedProblems } from "./named-problems";
import { TablePager } from "./table-pager";
import { WorkPace } from "./work-pace";

const gmailLimit = {
  kind: "gmail-user" as const,
  text: "Gmail's import limit of 240 messages a minute per mailbox",
};

describe("the pace of work under way", () => {
  it.each([
    [
      { itemsPerMinute: 120.4, etaSeconds: 12_000, limit: gmailLimit },
      "120 items a minute · about 3 h 20 min left · pace set by Gmail's import limit of 240 messages a minute per mailbox",
    ],
    [{ itemsPerMinute: 1500, etaSeconds: 30, limit: null }, "1,500 items a minute · under a minute left"],
    [{ itemsPerMinute: null, etaSeconds: 2 * 86_400 + 5 * 3600, limit: null }, "about 2 days 5 h left"],
    [
      { itemsPerMinute: null, etaSeconds: null, limit: gmailLimit },
      "pace set by Gmail's import limit of 240 messages a minute per mailbox",
    ],
    [
      {
        itemsPerMinute: null,
        etaSeconds: null,
        limit: { kind: "none" as const, text: "No Google quota applies" },
      },
      "No Google quota applies",
    ],
  ])("when the pace is %j, then it reads “%s”", async (pace, text) => {
    await renderWithProviders(<WorkPace pace={pace} testId="pace" />);
    expect(screen.getByTestId("pace").textContent).toBe(text);
  });

  it("when nothing of the pace is known yet, then nothing is shown", async () => {
    await renderWithProviders(
      <WorkPace pace={{ itemsPerMinute: null, etaSeconds: null, limit: null }} testId="pace" />,
    );
    expect(screen.queryByTestId("pace")).not.toBeInTheDocument();
  });
});

/** A pager over `count` rows, as a table keeps it. */
function Pager({ count }: { count: number }) {
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(25);
  return (
    <TablePager
      count={count}
      page={page}
      pageSize={pageSize}
      pageSizes={[5, 25]}
      rowsPerPageLabel="Rows per page"
      onPageChange={setPage}
      onPageSizeChange={(size) => {
        setPageSize(size);
        setPage(1);
      }}
    />
  );
}

describe("a table's pager", () => {
  it("when rows fit one page, then it counts them and neither way is open", async () => {
    await renderWithProviders(<Pager count={12} />);
    expect(screen.getByTestId("table-pager")).toHaveTextContent("1–12 of 12");
    expect(screen.getByRole("button", { name: "Go to previous page" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Go to next page" })).toBeDisabled();
  });

  it("when five rows fit a page, then it pages forward to the last rows and back", async () => {
    const { user } = await renderWithProviders(<Pager count={12} />);
    await user.selectOptions(screen.getByRole("combobox", { name: "Rows per page" }), "5");
    expect(screen.getByTestId("table-pager")).toHaveTextContent("1–5 of 12");
    await user.click(screen.getByRole("button", { name: "Go to next page" }));
    await user.click(screen.getByRole("button", { name: "Go to next page" }));
    expect(screen.getByTestId("table-pager")).toHaveTextContent("11–12 of 12");
    expect(screen.getByRole("button", { name: "Go to next page" })).toBeDisabled();
    await user.click(screen.getByRole("button", { name: "Go to previous page" }));
    expect(screen.getByTestId("table-pager")).toHaveTextContent("6–10 of 12");
  });

  it("when there are no rows, then it reads 0–0 of 0", async () => {
    await renderWithProviders(<Pager count={0} />);
    expect(screen.getByTestId("table-pager")).toHaveTextContent("0–0 of 0");
  });
});

describe("the named problems of a finished job", () => {
  it("when some items are named and more are left, then each says why and the rest are counted", async () => {
    // The texts are the calling feature's (here a bundle of the test's own, as a feature registers its own).
    initI18n("en").addResourceBundle("en", "translation", {
      job: {
        problems: "Items left out",
        problem: "{{name}}: {{reason}}",
        unnamed: "(no name)",
        more_one: "and {{count}} more in the report",
        more_other: "and {{count}} more in the report",
      },
    });
    await renderWithProviders(
      <NamedProblems
        problems={[
          { itemKey: "a", name: "Quarterly report", reason: "integrity check failed" },
          { itemKey: "b", name: "", reason: "not backed up" },
        ]}
        more={3}
        texts="job"
        testId="problem"
      />,
    );
    const list = screen.getByRole("list", { name: "Items left out" });
    expect(
      within(list)
        .getAllByTestId("problem")
        .map((item) => item.textContent),
    ).toEqual(["Quarterly report: integrity check failed", "(no name): not backed up"]);
    expect(screen.getByText("and 3 more in the report")).toBeInTheDocument();
  });
});

describe("the confirmation of a destructive action", () => {
  const props = {
    titleId: "confirm-title",
    title: "Delete secret?",
    body: "It will be removed.",
    cancelLabel: "Cancel",
    confirmLabel: "Delete",
  };

  it("when it is answered, then Delete confirms and Cancel does not", async () => {
    const onConfirm = jest.fn();
    const onCancel = jest.fn();
    const { user } = await renderWithProviders(
      <ConfirmDialog {...props} open pending={false} onConfirm={onConfirm} onCancel={onCancel} />,
    );
    const dialog = screen.getByRole("dialog", { name: "Delete secret?" });
    await user.click(within(dialog).getByRole("button", { name: "Delete" }));
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    expect(onCancel).toHaveBeenCalledTimes(1);
  });

  it("when the action runs, then neither button can be pressed and Escape does not close it", async () => {
    const onCancel = jest.fn();
    const { user } = await renderWithProviders(
      <ConfirmDialog {...props} open pending onConfirm={jest.fn()} onCancel={onCancel} />,
    );
    const dialog = screen.getByRole("dialog", { name: "Delete secret?" });
    expect(within(dialog).getByRole("button", { name: "Delete" })).toBeDisabled();
    expect(within(dialog).getByRole("button", { name: "Cancel" })).toBeDisabled();
    await user.keyboard("{Escape}");
    expect(onCancel).not.toHaveBeenCalled();
  });
});
