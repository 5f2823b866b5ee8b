/**
 * Watches the local stack's child processes (the Firebase emulators, the scheduler): when one exits while
 * the stack is not stopping, `died` says which, how (exit code or signal) and what it printed last, so
 * `npm start` and the test runner can say so and stop everything instead of running on half a stack.
 */
import type { ChildProcess } from "node:child_process";

export interface ChildDeath {
  name: string;
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The child's last lines of output (its cause of death, usually). */
  lastOutput: string[];
  /** One paragraph for the terminal. */
  message: string;
}

const KEPT_LINES = 30;

/** The last lines a child printed. */
export class RecentOutput {
  private readonly lines: string[] = [];
  private partial = "";

  add(chunk: Buffer | string): void {
    const text = this.partial + chunk.toString();
    const lines = text.split(/\r?\n/);
    this.partial = lines.pop() ?? "";
    for (const line of lines) {
      if (line.trim() === "") continue;
      this.lines.push(line);
      if (this.lines.length > KEPT_LINES) this.lines.shift();
    }
  }

  last(): string[] {
    return this.partial.trim() ? [...this.lines, this.partial] : [...this.lines];
  }
}

export function describeDeath(death: Omit<ChildDeath, "message">): string {
  const how = death.signal ? `was killed (${death.signal})` : `exited with code ${String(death.code)}`;
  const output =
    death.lastOutput.length > 0
      ? `\nIts last output:\n${death.lastOutput.map((line) => `  ${line}`).join("\n")}`
      : "";
  return `${death.name} ${how} while the stack was running.${output}`;
}

export class Supervisor {
  private stopping = false;
  private resolveDeath: (death: ChildDeath) => void = () => undefined;
  /** Resolves with the first child that exits while the stack runs (never, if none does). */
  readonly died: Promise<ChildDeath>;

  constructor() {
    this.died = new Promise((resolve) => {
      this.resolveDeath = resolve;
    });
  }

  /** Watches `child` from now on; `recent` collects its output. */
  watch(name: string, child: ChildProcess, recent: RecentOutput): void {
    child.once("exit", (code, signal) => {
      if (this.stopping) return;
      const death = { name, code, signal, lastOutput: recent.last() };
      this.resolveDeath({ ...death, message: describeDeath(death) });
    });
  }

  /** The stack is stopping: its children's exits are expected. */
  stop(): void {
    this.stopping = true;
  }
}
