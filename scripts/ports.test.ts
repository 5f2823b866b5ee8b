import { createServer, type Server } from "node:net";
import { HOST, assertPortsFree, freePort } from "./ports";

describe("the stack's port check", () => {
  let blocker: Server | undefined;
  afterEach(async () => {
    await new Promise<void>((resolve) => (blocker ? blocker.close(() => resolve()) : resolve()));
    blocker = undefined;
  });

  // On ports of the test's own: the stack's are in use by the stacks npm test runs beside the unit tests.
  test("when a port of the stack is taken, then the check fails at once naming the port and its service", async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, HOST, resolve));
    blocker = server;
    const { port } = server.address() as { port: number };
    const free = await freePort();
    await expect(assertPortsFree({ workspace: port, kms: free })).rejects.toThrow(
      new RegExp(
        `^These ports of the local stack are already in use:\\n  ${port}  Workspace emulator\\n[^\\d]`,
      ),
    );
  });

  test("when every port is free, then the check passes", async () => {
    await expect(assertPortsFree({ kms: await freePort() })).resolves.toBeUndefined();
  });
});
