import { connect } from "node:net";

function tryConnect(host: string, port: number): Promise<NodeJS.ErrnoException | undefined> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(undefined);
    });
    socket.once("error", (error) => resolve(error));
  });
}

describe("outbound network in tests", () => {
  test("when code connects to an internet host, then it fails at once with the block's error", async () => {
    const error = await tryConnect("203.0.113.10", 443);
    expect(error?.message).toBe("Outbound network blocked in tests: 203.0.113.10");
  });

  test("when code fetches a Google API, then the request fails instead of leaving the machine", async () => {
    await expect(fetch("https://oauth2.googleapis.com/token")).rejects.toThrow();
  });

  test("when code connects to loopback, then the block lets it through (nothing listens: refused by the OS)", async () => {
    const error = await tryConnect("127.0.0.1", 9);
    expect(error?.code).toBe("ECONNREFUSED");
    expect(error?.message).not.toContain("blocked in tests");
  });
});
