import { STORAGE_TEXTS } from "@alpvault/contracts/billing";
import { STORAGE_PACK_BYTES } from "@alpvault/contracts/plans";
import { INITIAL_ACCOUNT, type Account } from "../organizations/repo";
import { decideStorage, storageMaximum } from "./storage";

const GENEVA: Account = { ...INITIAL_ACCOUNT, planId: "geneva", seats: 3, storagePacks: 1 };
const AUTO: Account = { ...GENEVA, autoAddStorage: true };

describe("storage at its maximum", () => {
  test("when less is stored than the maximum, then nothing changes and a backup may start, whatever the setting", () => {
    for (const account of [GENEVA, AUTO]) {
      expect(decideStorage(account, storageMaximum(account) - 1)).toEqual({
        change: { audits: [], alerts: [] },
        full: false,
      });
    }
  });

  test("when the maximum is reached with auto-add storage off, then nothing is added and a backup is refused", () => {
    expect(decideStorage(GENEVA, storageMaximum(GENEVA))).toEqual({
      change: { audits: [], alerts: [] },
      full: true,
    });
  });

  test("when the maximum is reached with auto-add storage on, then one pack is added, audited and alerted, and the backup goes on", () => {
    const decided = decideStorage(AUTO, storageMaximum(AUTO));
    expect(decided).toEqual({
      full: false,
      change: {
        account: { storagePacks: 2 },
        audits: [{ operation: "storage-packs.added", object: STORAGE_TEXTS.addedObject(1, 2) }],
        alerts: [STORAGE_TEXTS.addedAlert(1, 2)],
        // Billed: one pack at the pack's monthly price, on the plan's subscription.
        charges: [
          { kind: "storage", item: { name: "Storage pack (100 GB)", quantity: 1, unitAmountUsd: 3 } },
        ],
      },
    });
    expect(STORAGE_TEXTS.addedAlert(1, 2)).toBe(
      "Your backups reached your storage maximum, so 1 storage pack of 100 GB was added automatically (now 2 storage packs).",
    );
  });

  test("when far more is stored than the maximum, then as many packs are added as bring the maximum above it", () => {
    const used = storageMaximum(AUTO) + 2.5 * STORAGE_PACK_BYTES;
    const decided = decideStorage(AUTO, used);
    expect(decided.change.account).toEqual({ storagePacks: 4 });
    expect(decided.change.charges?.map((charge) => charge.item.quantity)).toEqual([3]);
    const after = { ...AUTO, ...decided.change.account };
    expect(storageMaximum(after)).toBeGreaterThan(used);
    expect(decideStorage(after, used).full).toBe(false);
    expect(decideStorage(after, used).change.audits).toEqual([]);
  });

  test("when the free plan reaches its maximum with auto-add storage on, then nothing is added: storage cannot be bought on it", () => {
    const free: Account = { ...INITIAL_ACCOUNT, autoAddStorage: true };
    expect(decideStorage(free, storageMaximum(free))).toEqual({
      change: { audits: [], alerts: [] },
      full: true,
    });
  });
});
