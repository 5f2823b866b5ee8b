/** Who calls an API route: the token's holder and, with domain-wide delegation, the impersonated user. */
import type { AccessTokenInfo } from "./auth";
import type { DirectoryUser } from "./directory/store";

export interface Principal {
  token: AccessTokenInfo;
  /** The impersonated user (domain-wide delegation); absent for the service account's own token. */
  user?: DirectoryUser;
}
