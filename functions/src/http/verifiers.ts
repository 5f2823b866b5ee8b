import { getAppCheck } from "firebase-admin/app-check";
import { getAuth } from "firebase-admin/auth";
import { checkUnsignedAppCheckToken } from "@alpvault/contracts/app-check";
import type { RuntimeConfig } from "../config";
import { adminApp } from "../lib/firebase";
import type { AppCheckVerifier, IdentityVerifier } from "./authenticate";

/** Firebase Auth ID tokens, verified by firebase-admin (against the Auth emulator in local work). */
export function firebaseIdentityVerifier(): IdentityVerifier {
  return {
    async verifyIdToken(idToken) {
      const decoded = await getAuth(adminApp()).verifyIdToken(idToken, true);
      const googleIds = decoded.firebase.identities?.["google.com"];
      const hostedDomain = decoded.hd ?? decoded.firebase.sign_in_attributes?.hd;
      return {
        uid: decoded.uid,
        email: typeof decoded.email === "string" ? decoded.email : null,
        emailVerified: decoded.email_verified === true,
        signInProvider:
          typeof decoded.firebase.sign_in_provider === "string" ? decoded.firebase.sign_in_provider : null,
        googleSub: Array.isArray(googleIds) && typeof googleIds[0] === "string" ? googleIds[0] : null,
        hostedDomain: typeof hostedDomain === "string" ? hostedDomain : null,
        displayName: typeof decoded.name === "string" ? decoded.name : null,
        pictureUrl: typeof decoded.picture === "string" ? decoded.picture : null,
        authTime: typeof decoded.auth_time === "number" ? decoded.auth_time : null,
      };
    },
  };
}

/**
 * The App Check verifier chosen by the one config switch. `verify` always uses firebase-admin's signed
 * token verification; the unsigned mode exists only inside the Functions emulator (loadRuntimeConfig
 * refuses it anywhere else).
 */
export function appCheckVerifier(config: RuntimeConfig): AppCheckVerifier {
  if (config.appCheckMode === "verify") {
    return {
      async verifyAppCheckToken(token) {
        const result = await getAppCheck(adminApp()).verifyToken(token);
        return { appId: result.appId };
      },
    };
  }
  if (!config.runningInEmulator)
    throw new Error("unsigned App Check tokens are refused outside the emulator");
  return {
    async verifyAppCheckToken(token) {
      const check = checkUnsignedAppCheckToken(token, {
        projectId: config.projectId,
        appIds: config.emulatorAppIds,
        nowSeconds: Math.floor(Date.now() / 1000),
      });
      if (!check.ok) throw new Error(`App Check token refused: ${check.reason}`);
      return { appId: check.appId };
    },
  };
}
