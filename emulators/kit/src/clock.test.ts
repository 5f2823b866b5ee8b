/**
 * The test clock: sleepers wake in the order of their instants, `advance` stops where it is told, and
 * `run` moves time only while everything waits for it (a request on the loopback is answered first).
 */
import { request } from "node:http";
import { ManualClock, listen } from "./index";

describe("ManualClock", () => {
  test("when time is advanced, then the sleepers it passes wake in the order of their instants, the others wait", async () => {
    const clock = new ManualClock(1_000);
    const woken: string[] = [];
    void clock.sleep(30).then(() => woken.push(`late at ${clock.now()}`));
    void clock.sleep(10).then(() => woken.push(`early at ${clock.now()}`));
    void clock.sleep(500).then(() => woken.push("never"));
    await clock.advance(100);
    expect(woken).toEqual(["early at 1010", "late at 1030"]);
    expect(clock.now()).toBe(1_100);
    expect(clock.pendingSleeps).toBe(1);
  });

  test("when work runs on the clock, then time moves to each sleeper in turn and a chain of sleeps takes their sum", async () => {
    const clock = new ManualClock(0);
    const chain = async (): Promise<number> => {
      for (let step = 0; step < 5; step += 1) await clock.sleep(60_000);
      return clock.now();
    };
    expect(await clock.run(chain())).toBe(300_000);
  });

  test("when work waits for a request on the loopback, then the clock waits for its answer before it moves", async () => {
    const clock = new ManualClock(0);
    const server = await listen({ port: 0 });
    server.serve((_request, response) => {
      const answer = (): void => {
        response.writeHead(200);
        response.end(String(clock.now()));
      };
      void clock.sleep(250).then(answer);
    });
    try {
      const get = (): Promise<string> =>
        new Promise((resolve, reject) => {
          request(server.url, (response) => {
            let body = "";
            response.on("data", (chunk: Buffer) => (body += chunk.toString()));
            response.on("end", () => resolve(body));
          })
            .on("error", reject)
            .end();
        });
      // A sleeper of the test's own that ends before the server's answer: time stops there first.
      const work = async (): Promise<string[]> => {
        const [answer, early] = await Promise.all([get(), clock.sleep(100).then(() => clock.now())]);
        return [answer, String(early)];
      };
      expect(await clock.run(work())).toEqual(["250", "100"]);
    } finally {
      await server.close();
    }
  });
});
