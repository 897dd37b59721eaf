// The urgent lane's thread entry (pool.ts), CommonJS on purpose: Piscina loads a thread's file with
// require() first, and Node 20's require() of an ES module can race the module loader's own loading
// of it and abort the whole process ("v8::Module::IsGraphAsync must be used on an instantiated
// module", seen once in CI). This file needs no require() of an ES module: the tasks' module is
// reached by import() alone.
import type * as Tasks from "./tasks.js";

const tasks: Promise<typeof Tasks> = import("./tasks.js");

export const dealTask = async (args: Parameters<typeof Tasks.dealTask>[0]) => (await tasks).dealTask(args);

export const priceTask = async (args: Parameters<typeof Tasks.priceTask>[0]) => (await tasks).priceTask(args);
