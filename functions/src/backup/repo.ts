import { FieldValue } from "firebase-admin/firestore";
import { globalDb } from "../lib/firebase";
import type { BackupTask } from "./schema";

/** Stores a pending backup run once per task id (a duplicate delivery finds it and writes nothing). */
export async function recordBackupRequest(taskId: string, task: BackupTask): Promise<boolean> {
  const ref = globalDb().collection("backupRequests").doc(taskId);
  return globalDb().runTransaction(async (transaction) => {
    const existing = await transaction.get(ref);
    if (existing.exists) return false;
    transaction.create(ref, { ...task, state: "pending", receivedAt: FieldValue.serverTimestamp() });
    return true;
  });
}
