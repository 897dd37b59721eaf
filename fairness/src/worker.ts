// Worker thread: runs the tasks it is sent, one at a time, and posts progress and the result back.
import { parentPort } from "node:worker_threads";
import { type Task, runTask } from "./tasks.js";

const port = parentPort;
if (!port) throw new Error("fairness/worker must run as a worker thread");
port.on("message", (task: Task) => {
  try {
    const result = runTask(task, (units) => port.postMessage({ type: "progress", kind: task.kind, units }));
    port.postMessage({ type: "result", result });
  } catch (error) {
    port.postMessage({ type: "error", message: (error as Error).stack ?? String(error) });
  }
});
