import { SortedBlocks } from "./sorted-entries";

test("when items are inserted and removed across many blocks, then the list stays sorted and positions hold", () => {
  let state = 7;
  const next = () => (state = (state * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  const compare = (a: number, b: number) => a - b;
  const list = new SortedBlocks(compare);
  list.reset(Array.from({ length: 3000 }, () => Math.floor(next() * 1e6)));
  const reference = list.toArray();
  expect(reference).toEqual([...reference].sort(compare));
  for (let round = 0; round < 5000; round++) {
    if (next() < 0.6 || reference.length === 0) {
      const item = Math.floor(next() * 1e6) + 0.5; // never equal to another item
      list.insert(item);
      reference.push(item);
      reference.sort(compare);
    } else {
      const at = Math.floor(next() * reference.length);
      expect(list.remove(reference[at]!)).toBe(true);
      reference.splice(at, 1);
    }
  }
  expect(list.remove(-1)).toBe(false);
  expect(list.length).toBe(reference.length);
  expect(list.toArray()).toEqual(reference);
  for (let i = 0; i < reference.length; i += 97) expect(list.at(i)).toBe(reference[i]);
  const pivot = reference[Math.floor(reference.length / 2)]!;
  expect(list.lowerBound((item) => item >= pivot)).toBe(reference.indexOf(pivot));
  expect(list.lowerBound((item) => item >= pivot, 0, 10)).toBe(10);
});
