/**
 * Linux processes as /proc shows them, for tests that start and break the local stack themselves: which
 * process listens on a port, a process tree, and whether a process recorded earlier still runs.
 */
import { readFileSync, readdirSync, readlinkSync } from "node:fs";

export interface ProcessInfo {
  pid: number;
  ppid: number;
  /** Process group. */
  pgid: number;
  /** Clock ticks since boot at which it started: with the pid, it names one process even if pids are reused. */
  startTime: number;
  command: string;
}

/** Parses /proc/<pid>/stat (the command may hold spaces and parentheses, so fields follow the last ')'). */
export function parseStat(stat: string): ProcessInfo {
  const open = stat.indexOf("(");
  const close = stat.lastIndexOf(")");
  const fields = stat
    .slice(close + 2)
    .trim()
    .split(/\s+/);
  // After the command: state(3) ppid(4) pgrp(5) ... starttime(22), counted from pid(1) and comm(2).
  return {
    pid: Number(stat.slice(0, open).trim()),
    command: stat.slice(open + 1, close),
    ppid: Number(fields[1]),
    pgid: Number(fields[2]),
    startTime: Number(fields[19]),
  };
}

function readProcess(pid: number): ProcessInfo | undefined {
  try {
    return parseStat(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return undefined; // gone meanwhile
  }
}

function pids(): number[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map(Number);
}

export function processes(): ProcessInfo[] {
  return pids()
    .map(readProcess)
    .filter((info): info is ProcessInfo => info !== undefined);
}

/** `root` and every process below it, now. */
export function processTree(root: number): ProcessInfo[] {
  const all = processes();
  const tree = all.filter((info) => info.pid === root);
  for (const parent of tree) tree.push(...all.filter((info) => info.ppid === parent.pid));
  return tree;
}

/** Whether this very process (same pid, same start) still exists; a zombie counts as gone. */
export function stillRunning(info: ProcessInfo): boolean {
  const now = readProcess(info.pid);
  if (!now || now.startTime !== info.startTime) return false;
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${info.pid}/status`, "utf8"));
  } catch {
    return false;
  }
}

/**
 * The socket inodes listening on `port` in /proc/net/tcp or tcp6 lines
 * (`sl local_address rem_address st … inode`, addresses as hex `ADDR:PORT`, state 0A = LISTEN).
 */
export function listeningInodes(table: string, port: number): string[] {
  const inodes: string[] = [];
  for (const line of table.split("\n").slice(1)) {
    const [, local = "", , state, , , , , , inode] = line.trim().split(/\s+/);
    if (state === "0A" && inode && parseInt(local.split(":")[1] ?? "", 16) === port) inodes.push(inode);
  }
  return inodes;
}

/** The processes that hold a socket listening on `port`. */
export function listeners(port: number): ProcessInfo[] {
  const inodes = new Set(
    ["/proc/net/tcp", "/proc/net/tcp6"].flatMap((file) => {
      try {
        return listeningInodes(readFileSync(file, "utf8"), port);
      } catch {
        return [];
      }
    }),
  );
  if (inodes.size === 0) return [];
  return pids()
    .filter((pid) => {
      try {
        return readdirSync(`/proc/${pid}/fd`).some((fd) => {
          try {
            const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
            return inodes.has(target.slice("socket:[".length, -1)) && target.startsWith("socket:[");
          } catch {
            return false;
          }
        });
      } catch {
        return false;
      }
    })
    .map(readProcess)
    .filter((info): info is ProcessInfo => info !== undefined);
}
