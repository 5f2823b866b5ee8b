import { createServer } from "node:net";
import { listeners, listeningInodes, parseStat, processTree, stillRunning } from "./processes";

test("when a command holds spaces and parentheses, then its stat line still gives ppid, group and start", () => {
  const stat =
    "4387 (node (worker) x) S 4327 4300 2240 0 -1 4194304 100 0 0 0 0 0 0 0 20 0 1 0 3722382 3133440";
  expect(parseStat(stat)).toEqual({
    pid: 4387,
    command: "node (worker) x",
    ppid: 4327,
    pgid: 4300,
    startTime: 3722382,
  });
});

test("when /proc/net/tcp lists sockets, then only those listening on the port are taken", () => {
  const table = [
    "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode",
    "   0: 0100007F:1389 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1076 1 0",
    "   1: 0100007F:1389 0100007F:9C40 01 00000000:00000000 00:00000000 00000000     0        0 2001 1 0",
    "   2: 0100007F:1388 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 3003 1 0",
  ].join("\n");
  expect(listeningInodes(table, 5001)).toEqual(["1076"]);
});

test("when this process listens on a port, then it is the port's listener and runs", async () => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const { port } = server.address() as { port: number };
    const [listener] = listeners(port);
    expect(listener?.pid).toBe(process.pid);
    expect(processTree(process.pid)[0]).toEqual(listener);
    expect(listener && stillRunning(listener)).toBe(true);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});
