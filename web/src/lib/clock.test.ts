import { createClock } from "./clock";

describe("createClock", () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  test("when nobody listens, then the time stays as first read and no timer runs", () => {
    let time = 1_000;
    const clock = createClock(() => time, 30_000);
    time = 5_000;
    jest.advanceTimersByTime(60_000);
    expect(clock.now()).toBe(1_000);
    expect(jest.getTimerCount()).toBe(0);
  });

  test("when a component subscribes, then it reads the time anew and moves on with each tick", () => {
    let time = 1_000;
    const clock = createClock(() => time, 30_000);
    time = 2_000;
    const listener = jest.fn();
    const unsubscribe = clock.subscribe(listener);
    expect(clock.now()).toBe(2_000);

    time = 20_000;
    expect(clock.now()).toBe(2_000);
    jest.advanceTimersByTime(30_000);
    expect(clock.now()).toBe(20_000);
    expect(listener).toHaveBeenCalledTimes(2);

    unsubscribe();
  });

  test("when the last listener leaves, then the timer stops", () => {
    const clock = createClock(() => 0, 30_000);
    const first = clock.subscribe(() => undefined);
    const second = clock.subscribe(() => undefined);
    expect(jest.getTimerCount()).toBe(1);
    first();
    expect(jest.getTimerCount()).toBe(1);
    second();
    expect(jest.getTimerCount()).toBe(0);
  });
});
