// Where a phase's time goes: the CPU each process of the stack (with its own child processes) and
// the load generator itself used while it ran, as a share of the machine's cores (read from /proc,
// so Linux only).
import { spawnSync } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import { availableParallelism } from "node:os";

const TICKS_PER_SECOND = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout.trim()) || 100;

/** User + system CPU seconds of a process so far (fields 14 and 15 of /proc/<pid>/stat). */
async function ownCpuSecondsOf(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
  // The command name in field 2 may hold spaces: count fields after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** The running children of a process (those of each of its threads). */
async function childrenOf(pid: number): Promise<number[]> {
  const tids = await readdir(`/proc/${pid}/task`).catch(() => []);
  const lists = await Promise.all(
    tids.map((tid) => readFile(`/proc/${pid}/task/${tid}/children`, "utf8").catch(() => "")),
  );
  return lists.flatMap((list) => list.split(" ").filter(Boolean).map(Number));
}

/** CPU seconds of a process and of its running descendants (the odds service's batch processes). */
async function cpuSecondsOf(pid: number): Promise<number> {
  const children = await childrenOf(pid);
  const theirs = await Promise.all(children.map(cpuSecondsOf));
  return (await ownCpuSecondsOf(pid)) + theirs.reduce((sum, seconds) => sum + seconds, 0);
}

type CpuReading = Map<string, number>;

/** CPU seconds so far of each named process, and of this one as "load generator". */
export async function readCpu(processes: readonly { name: string; pid: number }[]): Promise<CpuReading> {
  const reading: CpuReading = new Map();
  for (const { name, pid } of processes) reading.set(name, await cpuSecondsOf(pid));
  const own = process.cpuUsage();
  reading.set("load generator", (own.user + own.system) / 1e6);
  return reading;
}

/** "gateway 38%, table 21%, …" of the machine between two readings, largest first, and the total. */
export function cpuSplit(before: CpuReading, after: CpuReading, wallSeconds: number): { text: string; total: number } {
  const capacity = wallSeconds * availableParallelism();
  const shares = [...after]
    .map(([name, seconds]) => ({ name, share: (seconds - (before.get(name) ?? 0)) / capacity }))
    .sort((a, b) => b.share - a.share);
  const text = shares.map(({ name, share }) => `${name} ${(100 * share).toFixed(0)}%`).join(", ");
  return { text, total: shares.reduce((sum, { share }) => sum + share, 0) };
}
