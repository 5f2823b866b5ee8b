import { FakeClock, flush } from "./fake-clock";
import { Semaphore, TokenBucket } from "./token-bucket";

describe("TokenBucket", () => {
  it("when the bucket is full, then take() resolves at once and spends the units", async () => {
    const clock = new FakeClock();
    const bucket = new TokenBucket({ capacity: 100, refillPerSecond: 10, clock });
    await bucket.take(60);
    expect(bucket.available()).toBe(40);
  });

  it("when units are missing, then take() waits exactly until the refill covers them", async () => {
    const clock = new FakeClock();
    const bucket = new TokenBucket({ capacity: 100, refillPerSecond: 10, clock, initial: 0 });
    let done = false;
    void bucket.take(25).then(() => (done = true));
    await clock.advance(2_400);
    expect(done).toBe(false);
    await clock.advance(100);
    expect(done).toBe(true);
    expect(bucket.available()).toBe(0);
  });

  it("when a large request waits, then later small requests queue behind it (FIFO)", async () => {
    const clock = new FakeClock();
    const bucket = new TokenBucket({ capacity: 100, refillPerSecond: 10, clock, initial: 5 });
    const order: string[] = [];
    void bucket.take(50).then(() => order.push("large"));
    void bucket.take(1).then(() => order.push("small"));
    expect(bucket.tryTake(1)).toBe(false);
    await clock.advance(4_500);
    expect(order).toEqual(["large"]);
    await clock.advance(100);
    expect(order).toEqual(["large", "small"]);
  });

  it("when refilled for longer than a full bucket, then it holds no more than its capacity", async () => {
    const clock = new FakeClock();
    const bucket = new TokenBucket({ capacity: 100, refillPerSecond: 10, clock, initial: 0 });
    await clock.advance(60_000);
    expect(bucket.available()).toBe(100);
  });

  it("when drained, then the next request waits for the refill", async () => {
    const clock = new FakeClock();
    const bucket = new TokenBucket({ capacity: 100, refillPerSecond: 10, clock });
    bucket.drain();
    expect(bucket.waitTime(20)).toBe(2_000);
  });

  it("when a request is larger than the capacity, then take() refuses it", () => {
    const bucket = new TokenBucket({ capacity: 10, refillPerSecond: 1, clock: new FakeClock() });
    expect(() => bucket.take(11)).toThrow(RangeError);
  });

  it("when many requests run for a simulated minute, then they spend no more than capacity plus refill", async () => {
    const clock = new FakeClock();
    const bucket = new TokenBucket({ capacity: 600, refillPerSecond: 10, clock });
    let spent = 0;
    for (let i = 0; i < 200; i += 1) void bucket.take(20).then(() => (spent += 20));
    await clock.advance(60_000);
    expect(spent).toBeLessThanOrEqual(600 + 600);
    expect(spent).toBeGreaterThanOrEqual(600 + 600 - 20);
  });
});

describe("Semaphore", () => {
  it("when the limit is reached, then the next acquire waits for a release, first come first served", async () => {
    const semaphore = new Semaphore(2);
    const first = await semaphore.acquire();
    await semaphore.acquire();
    const order: number[] = [];
    void semaphore.acquire().then(() => order.push(3));
    void semaphore.acquire().then(() => order.push(4));
    await flush();
    expect(order).toEqual([]);
    first();
    first(); // releasing twice gives one slot back only
    await flush();
    expect(order).toEqual([3]);
    expect(semaphore.inUse).toBe(2);
  });
});
