import { createServer, type Server } from "node:net";

import { startFirestore } from "./launcher";

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => resolve((server.address() as { port: number }).port));
  });
}

test("when the port is already in use, then startFirestore fails at once with a clear message", async () => {
  const blocker = createServer();
  const port = await listen(blocker);
  try {
    await expect(startFirestore({ port })).rejects.toThrow(`Port ${port} is in use`);
  } finally {
    await new Promise((resolve) => blocker.close(resolve));
  }
});

test("when the port is free, then startFirestore starts an emulator that accepts connections and stops cleanly", async () => {
  const probe = createServer();
  const port = await listen(probe);
  await new Promise((resolve) => probe.close(resolve));
  const firestore = await startFirestore({ port });
  try {
    expect(firestore).toMatchObject({ host: "127.0.0.1", port });
    expect(["node", "official"]).toContain(firestore.kind);
    await expect(startFirestore({ port })).rejects.toThrow(`Port ${port} is in use`);
  } finally {
    await firestore.stop();
  }
  // Stopped: the port can be bound again.
  const again = createServer();
  await new Promise<void>((resolve, reject) => {
    again.once("error", reject);
    again.listen(port, "127.0.0.1", () => resolve());
  });
  await new Promise((resolve) => again.close(resolve));
});
