import { getApps, initializeApp, type App } from "firebase-admin/app";
import { getFirestore, type Firestore } from "firebase-admin/firestore";

let app: App | undefined;

/** The one firebase-admin app of this process (emulator hosts come from the standard env variables). */
export function adminApp(): App {
  app ??= getApps()[0] ?? initializeApp();
  return app;
}

/** The default Firestore database (global data: users, organisation → region map, regions). */
export function globalDb(): Firestore {
  return getFirestore(adminApp());
}

/** The Firestore database of one backup region (an organisation's data lives in its region's database). */
export function regionDb(databaseId: string): Firestore {
  return getFirestore(adminApp(), databaseId);
}
