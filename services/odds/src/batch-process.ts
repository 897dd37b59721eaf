// A batch process of the odds pool (batch-processes.ts): it lowers its own priority, then runs the
// tasks its parent sends over IPC, one at a time, and answers each with its result.
//
// Bulk chunks run in processes rather than niced threads of the service: a thread's nice value
// leaves out what V8 does for it on the process's shared helper threads (garbage collection,
// compilation), and where the kernel schedules each session as a group of its own (autogroup, on
// by default on desktop kernels), nice only ranks the threads of one group, so the service's deals
// were charged for its bulk chunks. A process lowers every thread it has, and its own group.
import { readdirSync, writeFileSync } from "node:fs";
import { getPriority, setPriority } from "node:os";
import * as Tasks from "./tasks.js";

/** A task for this process, as the parent sends it. */
export interface TaskMessage {
  id: number;
  name: keyof typeof Tasks;
  args: unknown;
}

/** Its answer: the task's result, or why it failed (an error that is not a domain error). */
export type AnswerMessage = { id: number; result: unknown } | { id: number; failure: string };

/**
 * Every thread of this process at `nice` or lower, and its autogroup where the kernel has them.
 * Never higher: a service started at a nice value above `nice` (nice -n 15, a unit's Nice=) may not
 * raise it back without CAP_SYS_NICE, and the refusal ended every process at its start.
 */
function lowerPriority(nice: number): void {
  if (process.platform !== "linux") return setPriority(Math.max(nice, getPriority()));
  // On Linux a nice value is a thread's own: V8's helper threads were started before this ran.
  for (const tid of readdirSync("/proc/self/task")) {
    try {
      setPriority(Number(tid), Math.max(nice, getPriority(Number(tid))));
    } catch (error) {
      // A helper thread that ended since the directory was read.
      if ((error as { info?: { code?: string } }).info?.code !== "ESRCH") throw error;
    }
  }
  try {
    writeFileSync("/proc/self/autogroup", String(nice));
  } catch {
    // No autogroups (a container, a server kernel): the threads' nice value is all there is.
  }
}

lowerPriority(Number(process.env.ODDS_BATCH_NICE));
// The service is gone (even killed with SIGKILL): so is this process's purpose.
process.on("disconnect", () => process.exit(0));
process.on("message", (message: TaskMessage) => {
  let answer: AnswerMessage;
  try {
    const task = Tasks[message.name] as (args: unknown) => unknown;
    answer = { id: message.id, result: task(message.args) };
  } catch (error) {
    answer = { id: message.id, failure: error instanceof Error ? error.message : String(error) };
  }
  process.send!(answer);
});
