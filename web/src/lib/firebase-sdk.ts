import { initializeApp } from "firebase/app";
import {
  CustomProvider,
  initializeAppCheck,
  ReCaptchaEnterpriseProvider,
  type AppCheck,
} from "firebase/app-check";
import { connectAuthEmulator, getAuth } from "firebase/auth";
import { mintUnsignedAppCheckToken } from "@alpvault/contracts/app-check";
import { env } from "@/config/env";

/**
 * The Firebase SDK parts the web app uses, loaded on demand through `firebase.ts` (`loadFirebase`) so
 * they stay out of the first paint. The Firebase app, App Check and Auth are created once, here. One switch (`env.useEmulators`)
 * chooses between the local stack (Auth emulator, unsigned App Check tokens the local API accepts) and
 * production (reCAPTCHA Enterprise).
 */
export const firebaseApp = initializeApp(env.firebase);

function createAppCheck(): AppCheck {
  if (env.useEmulators) {
    const provider = new CustomProvider({
      getToken: async () =>
        mintUnsignedAppCheckToken({
          appId: env.firebase.appId,
          projectId: env.firebase.projectId,
          nowSeconds: Math.floor(Date.now() / 1000),
        }),
    });
    return initializeAppCheck(firebaseApp, { provider, isTokenAutoRefreshEnabled: true });
  }
  return initializeAppCheck(firebaseApp, {
    provider: new ReCaptchaEnterpriseProvider(env.recaptchaEnterpriseSiteKey),
    isTokenAutoRefreshEnabled: true,
  });
}

export const appCheck = createAppCheck();

export const auth = getAuth(firebaseApp);
if (env.useEmulators) {
  connectAuthEmulator(auth, env.authEmulatorUrl, { disableWarnings: true });
}

export { getToken } from "firebase/app-check";
export {
  GoogleAuthProvider,
  onAuthStateChanged,
  signInWithCredential,
  signInWithPopup,
  signOut,
} from "firebase/auth";
