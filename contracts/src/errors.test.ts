import { toApiError } from "./errors";

describe("toApiError", () => {
  test("when the value has a numeric code and a string message, then those are kept (and nothing else)", () => {
    expect(toApiError({ code: 409, message: "Conflict", stack: "x" })).toEqual({
      code: 409,
      message: "Conflict",
    });
  });

  test.each([
    [null],
    [undefined],
    ["text"],
    [{ code: "409", message: "x" }],
    [{ code: 400 }],
    [new Error("boom")],
  ])("when the value is %p, then it becomes 500 'Unexpected error occurred'", (value) => {
    expect(toApiError(value)).toEqual({ code: 500, message: "Unexpected error occurred" });
  });
});
