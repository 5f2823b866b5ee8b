import { spawn, type ChildProcess } from "node:child_process";
import { RecentOutput, Supervisor } from "./supervise";

/** A child like the Firebase emulators: prints, then runs until killed. */
function longRunning(lines: string[]): { child: ChildProcess; recent: RecentOutput; ready: Promise<void> } {
  const script = `${lines.map((line) => `console.error(${JSON.stringify(line)});`).join("")}console.log("ready");setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "pipe"] });
  const recent = new RecentOutput();
  const ready = new Promise<void>((resolve) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      recent.add(chunk);
      if (chunk.toString().includes("ready")) resolve();
    });
  });
  child.stderr?.on("data", (chunk: Buffer) => recent.add(chunk));
  return { child, recent, ready };
}

test("when a child of the stack is killed while it runs, then the supervisor names it, how it ended and its last output", async () => {
  const supervisor = new Supervisor();
  const firebase = longRunning(["functions: Beginning execution", "BodyTimeoutError: Body Timeout Error"]);
  await firebase.ready;
  supervisor.watch(
    "The Firebase emulators (Auth, Functions, Hosting, Cloud Tasks)",
    firebase.child,
    firebase.recent,
  );
  firebase.child.kill("SIGKILL");
  const death = await supervisor.died;
  expect(death).toMatchObject({
    name: "The Firebase emulators (Auth, Functions, Hosting, Cloud Tasks)",
    code: null,
    signal: "SIGKILL",
  });
  expect(death.lastOutput).toEqual([
    "functions: Beginning execution",
    "BodyTimeoutError: Body Timeout Error",
    "ready",
  ]);
  expect(death.message).toContain(
    "The Firebase emulators (Auth, Functions, Hosting, Cloud Tasks) was killed (SIGKILL)",
  );
  expect(death.message).toContain("BodyTimeoutError: Body Timeout Error");
});

test("when a child exits on its own with an error code, then the code is reported", async () => {
  const supervisor = new Supervisor();
  const child = spawn(process.execPath, ["-e", "console.error('port taken'); process.exit(3)"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const recent = new RecentOutput();
  child.stderr?.on("data", (chunk: Buffer) => recent.add(chunk));
  supervisor.watch("The scheduler", child, recent);
  const death = await supervisor.died;
  expect(death).toMatchObject({ name: "The scheduler", code: 3, signal: null });
  expect(death.message).toMatch(/^The scheduler exited with code 3 while the stack was running\./);
  expect(death.lastOutput).toEqual(["port taken"]);
});

test("when the stack stops its children itself, then no death is reported", async () => {
  const supervisor = new Supervisor();
  const child = longRunning([]);
  await child.ready;
  supervisor.watch("The scheduler", child.child, child.recent);
  supervisor.stop();
  const exited = new Promise((resolve) => child.child.once("exit", resolve));
  child.child.kill("SIGINT");
  await exited;
  const outcome = await Promise.race([
    supervisor.died.then(() => "died"),
    new Promise((resolve) => setTimeout(() => resolve("quiet"), 200)),
  ]);
  expect(outcome).toBe("quiet");
});

test("when output arrives in pieces, then only the last 30 whole lines are kept", () => {
  const recent = new RecentOutput();
  for (let index = 0; index < 40; index += 1) recent.add(`line ${index}\n`);
  recent.add("half a ");
  recent.add("line");
  const last = recent.last();
  expect(last).toHaveLength(31);
  expect(last[0]).toBe("line 10");
  expect(last.at(-1)).toBe("half a line");
});
