import { SEAT_TEXTS } from "@alpvault/contracts/billing";
import { INITIAL_ACCOUNT, type Account } from "../organizations/repo";
import { seatOverageView } from "../organizations/service";
import { beyondSeats, decideSeats } from "./seats";

const NOW = new Date("2026-11-25T10:00:00.000Z");
const DAY = 24 * 3600 * 1000;

function mailboxes(count: number) {
  return Array.from({ length: count }, (_, index) => ({
    resourceId: `user-${index}`,
    email: `u${index}@example.test`,
    discoveredAt: new Date(Date.parse("2026-01-01T00:00:00.000Z") + index * DAY).toISOString(),
  }));
}

const GENEVA: Account = { ...INITIAL_ACCOUNT, planId: "geneva", seats: 3 };

describe("seats over the count", () => {
  test("when the mailboxes fit the seats, then nothing changes, and a recorded overage ends", () => {
    expect(decideSeats(GENEVA, mailboxes(3), NOW)).toEqual({ audits: [], alerts: [] });
    const over = decideSeats(GENEVA, mailboxes(4), NOW);
    const after = { ...GENEVA, ...over.account } as Account;
    expect(decideSeats(after, mailboxes(3), NOW).account).toEqual({
      seatOverage: { since: null, unseated: [] },
    });
  });

  test("when a fourth mailbox comes to three seats, then the overage is audited and alerted once, naming the mailbox added last", () => {
    const first = decideSeats(GENEVA, mailboxes(5), NOW);
    expect(first.account?.seatOverage).toEqual({
      since: NOW.toISOString(),
      unseated: [
        { resourceId: "user-4", email: "u4@example.test" },
        { resourceId: "user-3", email: "u3@example.test" },
      ],
    });
    expect(first.audits).toEqual([{ operation: "seats.exceeded", object: SEAT_TEXTS.exceededObject(5, 3) }]);
    // The stop date in the console's one style for a day (as /plans shows it), not an ISO date.
    expect(first.alerts).toEqual([
      "2 mailboxes are beyond your seats. They are backed up until December 9, 2026; add seats to keep them protected after that.",
    ]);
    const later = decideSeats(
      { ...GENEVA, ...first.account } as Account,
      mailboxes(5),
      new Date(NOW.getTime() + DAY),
    );
    expect(later.audits).toEqual([]);
    expect(later.alerts).toEqual([]);
    expect(later.account?.seatOverage?.since).toBe(NOW.toISOString());
  });

  test("when auto-add seats is on for a paid plan, then the seats rise to the mailboxes, audited; the free plan never adds seats", () => {
    const added = decideSeats({ ...GENEVA, autoAddSeats: true }, mailboxes(5), NOW);
    expect(added.account).toMatchObject({ seats: 5, seatOverage: { since: null, unseated: [] } });
    expect(added.audits).toEqual([{ operation: "seats.added", object: SEAT_TEXTS.addedObject(3, 5) }]);
    // The two seats added are billed at Geneva's price per seat.
    expect(added.charges).toEqual([
      { kind: "seats", item: { name: "Geneva seat", quantity: 2, unitAmountUsd: 3 } },
    ]);
    const free = decideSeats({ ...INITIAL_ACCOUNT, autoAddSeats: true }, mailboxes(3), NOW);
    expect(free.account?.seats).toBeUndefined();
    expect(free.audits[0]?.operation).toBe("seats.exceeded");
  });

  test("when the grace is over, then only the mailboxes still beyond the count are refused, counted again", async () => {
    const account = { ...GENEVA, ...decideSeats(GENEVA, mailboxes(5), NOW).account } as Account;
    const inGrace = new Date(NOW.getTime() + 13 * DAY);
    const after = new Date(NOW.getTime() + 14 * DAY);
    expect(await beyondSeats(account, "user-4", async () => 5, inGrace)).toBe(false);
    expect(await beyondSeats(account, "user-4", async () => 5, after)).toBe(true);
    expect(await beyondSeats(account, "user-0", async () => 5, after)).toBe(false);
    // One mailbox left since: only the last added is still beyond the count.
    expect(await beyondSeats(account, "user-3", async () => 4, after)).toBe(false);
    expect(await beyondSeats(account, "user-4", async () => 4, after)).toBe(true);
    expect(seatOverageView(account, 4)).toMatchObject({ over: 1, mailboxes: [{ resourceId: "user-4" }] });
    expect(seatOverageView(account, 3)).toBeNull();
  });
});
