import { GoogleApiError, Router, applyFields, parseFields } from "./http";

describe("fields partial responses", () => {
  const file = {
    kind: "drive#file",
    id: "f1",
    name: "Budget.xlsx",
    owners: [{ emailAddress: "a@x.test", displayName: "A" }],
    capabilities: { canEdit: true, canShare: false },
  };

  test("when fields names top-level keys, sub-selections and paths, then only those are kept", () => {
    const list = { nextPageToken: "t", kind: "drive#fileList", files: [file, { ...file, id: "f2" }] };
    expect(applyFields(list, "nextPageToken,files(id,owners/emailAddress)")).toEqual({
      nextPageToken: "t",
      files: [
        { id: "f1", owners: [{ emailAddress: "a@x.test" }] },
        { id: "f2", owners: [{ emailAddress: "a@x.test" }] },
      ],
    });
    expect(applyFields(file, "capabilities/canEdit,capabilities/canShare,name")).toEqual({
      capabilities: { canEdit: true, canShare: false },
      name: "Budget.xlsx",
    });
  });

  test("when fields is absent or *, then everything is kept; files(*) keeps whole items", () => {
    expect(applyFields(file, null)).toBe(file);
    expect(applyFields(file, "*")).toBe(file);
    expect(applyFields({ files: [file] }, "files(*)")).toEqual({ files: [file] });
  });

  test("when a selection is malformed, then it is a 400 invalidParameter", () => {
    expect(() => parseFields("files(id")).toThrow(GoogleApiError);
    expect(() => parseFields("files)id")).toThrow(GoogleApiError);
  });
});

describe("router", () => {
  test("when paths have parameters, greedy rests and :verb suffixes, then they match as Google's do", () => {
    const router = new Router();
    const handler = (): unknown => null;
    router.add({ method: "GET", path: "/gmail/v1/users/:userId/messages/:id", id: "get", handler });
    router.add({
      method: "POST",
      path: "/emulator/v1/customers/:customer/app:install",
      id: "install",
      handler,
    });
    router.add({ method: "PUT", path: "/upload/:rest*", id: "upload", handler });
    expect(router.match("GET", "/gmail/v1/users/me/messages/abc")?.params).toEqual({
      userId: "me",
      id: "abc",
    });
    expect(router.match("GET", "/gmail/v1/users/a%40x.test/messages/abc")?.params.userId).toBe("a@x.test");
    expect(router.match("POST", "/emulator/v1/customers/x.test/app:install")?.route.id).toBe("install");
    expect(router.match("POST", "/emulator/v1/customers/x.test/app:uninstall")).toBeUndefined();
    expect(router.match("PUT", "/upload/drive/v3/files/f1")?.params.rest).toBe("drive/v3/files/f1");
    expect(router.match("DELETE", "/gmail/v1/users/me/messages/abc")).toBeUndefined();
  });
});
