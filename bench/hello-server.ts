// The baseline: a bare Express route, in its own process like the gateway, so figures through the
// gateway can be read as ratios to what this machine does with no work at all.
import express from "express";

const app = express();
app.get("/hello", (_request, response) => {
  response.json({ hello: "world" });
});
const server = app.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  const address = server.address();
  process.stdout.write(`${JSON.stringify({ port: typeof address === "object" && address ? address.port : 0 })}\n`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
