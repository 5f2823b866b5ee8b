import { createServer, type Server } from "node:net";
import { PORTS, assertPortsFree } from "./ports";

describe("the stack's port check", () => {
  let blocker: Server | undefined;
  afterEach(async () => {
    await new Promise<void>((resolve) => (blocker ? blocker.close(() => resolve()) : resolve()));
    blocker = undefined;
  });

  test("when a port of the stack is taken, then the check fails at once naming the port and its service", async () => {
    blocker = createServer();
    await new Promise<void>((resolve, reject) => {
      blocker?.once("error", reject);
      blocker?.listen(PORTS.workspace, "127.0.0.1", resolve);
    });
    await expect(assertPortsFree()).rejects.toThrow(new RegExp(`${PORTS.workspace}\\s+Workspace emulator`));
  });
});
