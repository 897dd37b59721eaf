export default {
  files: ["**/test/**/*.test.ts", "!**/node_modules/**", "!**/dist/**"],
  extensions: { ts: "module" },
  timeout: "5m",
  concurrency: 2,
  workerThreads: false,
};
