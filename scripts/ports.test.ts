import { createServer, type Server } from "node:net";
import { PORTS, assertPortsFree } from "./ports";

describe("the stack's port check", () => {
  let blocker: Server | undefined;
  afterEach(async () => {
    await new Promise<void>((resolve) => (blocker ? blocker.close(() => resolve()) : resolve()));
    blocker = undefined;
  });

  test("when a port of the stack is taken, then the check fails at once naming the port and its service", async () => {
    // Take the port; if a running stack already holds it, that is the same situation.
    const server = createServer();
    const taken = await new Promise<boolean>((resolve) => {
      server.once("error", () => resolve(false));
      server.listen(PORTS.workspace, "127.0.0.1", () => resolve(true));
    });
    if (taken) blocker = server;
    await expect(assertPortsFree()).rejects.toThrow(new RegExp(`${PORTS.workspace}\\s+Workspace emulator`));
  });
});
