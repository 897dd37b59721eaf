// Preloaded into every service (`node --import`): a launcher killed with SIGKILL runs no exit
// handler, so each child notices its parent is gone and stops itself, gracefully, via SIGTERM.
const parent = process.ppid;

const timer = setInterval(() => {
  if (process.ppid === parent) return;
  clearInterval(timer);
  process.kill(process.pid, "SIGTERM");
}, 1000);
timer.unref();
