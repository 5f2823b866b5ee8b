import { SharedByKey } from "./parallel";

test("when callers ask for one key at once, then they share one making; a failed making is tried again by the next caller", async () => {
  const shared = new SharedByKey<string>();
  let made = 0;
  const make = (value: string) => async () => {
    made += 1;
    await new Promise((resolve) => setTimeout(resolve, 5));
    return value;
  };
  expect(await Promise.all([shared.get("a", make("first")), shared.get("a", make("second"))])).toEqual([
    "first",
    "first",
  ]);
  expect(await shared.get("b", make("other"))).toBe("other");
  expect(made).toBe(2);

  const failing = shared.get("c", () => Promise.reject(new Error("Google answered 503")));
  await expect(failing).rejects.toThrow("Google answered 503");
  expect(await shared.get("c", make("retried"))).toBe("retried");
  expect(made).toBe(3);
});
