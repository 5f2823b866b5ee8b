import { functionsOf } from "./sizes";

test("when a file holds functions of every form, then each is measured from its first to its last line, nested ones on their own too", () => {
  const text = [
    "export function outer(): number {", // 1
    "  const inner = (value: number) => {", // 2
    "    return value + 1;", // 3
    "  };", // 4
    "  return inner(1);", // 5
    "}", // 6
    "class Box {", // 7
    "  constructor(readonly size: number) {}", // 8
    "  get area(): number {", // 9
    "    return this.size ** 2;", // 10
    "  }", // 11
    "}", // 12
    "const handlers = { onClick: function () {", // 13
    "  return 0;", // 14
    "} };", // 15
    "[1, 2].map((n) => n * 2);", // 16
    "declare function bodiless(): void;", // 17
  ].join("\n");
  expect(functionsOf("example.ts", text).map(({ name, lines }) => [name, lines])).toEqual([
    ["outer", 6],
    ["inner", 3],
    ["constructor", 1],
    ["area", 3],
    ["onClick", 3],
    ["<callback of [1, 2].map>", 1],
  ]);
});
