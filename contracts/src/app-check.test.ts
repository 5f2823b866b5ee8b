import { checkUnsignedAppCheckToken, mintUnsignedAppCheckToken } from "./app-check";

const NOW = 1_800_000_000;
const expected = { projectId: "demo-alpvault", appIds: ["app-1"], nowSeconds: NOW };

function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString()) as Record<
    string,
    unknown
  >;
}

function withClaims(token: string, claims: Record<string, unknown>): string {
  const [header] = token.split(".");
  return `${header}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.`;
}

describe("unsigned App Check tokens", () => {
  const minted = mintUnsignedAppCheckToken({ appId: "app-1", projectId: "demo-alpvault", nowSeconds: NOW });

  test("when a token is minted, then it carries App Check's claims and an empty signature", () => {
    expect(minted.token.endsWith(".")).toBe(true);
    expect(claimsOf(minted.token)).toMatchObject({
      sub: "app-1",
      aud: expect.arrayContaining(["projects/demo-alpvault"]),
    });
    expect(minted.expireTimeMillis).toBe((NOW + 3600) * 1000);
  });

  test("when a minted token is checked with the same project and app, then it passes", () => {
    expect(checkUnsignedAppCheckToken(minted.token, expected)).toEqual({ ok: true, appId: "app-1" });
  });

  test.each([
    ["wrong issuer", { iss: "https://evil.example/1" }, "wrong issuer"],
    ["wrong audience", { aud: ["projects/other"] }, "wrong audience"],
    ["unknown app", { sub: "app-2" }, "unknown app"],
    ["expired", { exp: NOW - 1 }, "expired"],
    ["issued far in the future", { iat: NOW + 3600, exp: NOW + 7200 }, "issued in the future"],
    ["missing times", { exp: undefined }, "malformed token"],
  ])("when the claims are changed (%s), then the check fails", (_label, change, reason) => {
    const token = withClaims(minted.token, { ...claimsOf(minted.token), ...change });
    expect(checkUnsignedAppCheckToken(token, expected)).toEqual({ ok: false, reason });
  });

  test.each([["garbage"], ["a.b"], ["a.b.c"], ["!!.??."], [""]])(
    "when the token is %p, then it is malformed",
    (token) => {
      expect(checkUnsignedAppCheckToken(token, expected)).toEqual({ ok: false, reason: "malformed token" });
    },
  );
});
