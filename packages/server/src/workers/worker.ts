import { registerHooks } from "node:module";
import type { MessagePort } from "node:worker_threads";

/**
 * What every pool thread runs: it imports the module a task names and calls the function named, with
 * the task's input. Under the tests the modules are TypeScript sources that import each other as
 * `./x.js`, as the build does: there the thread resolves such a specifier to `./x.ts` when no `.js`
 * exists. This file itself imports nothing relative, so that it loads either way.
 */
if (import.meta.url.endsWith(".ts")) {
  registerHooks({
    resolve(specifier, context, nextResolve) {
      try {
        return nextResolve(specifier, context);
      } catch (error) {
        if (!specifier.startsWith(".") || !specifier.endsWith(".js")) throw error;
        return nextResolve(`${specifier.slice(0, -3)}.ts`, context);
      }
    },
  });
}

export interface WorkerTask {
  /** The module's URL. */
  module: string;
  /** The function of the module to call: it takes the input and returns the result (or a promise of it). */
  name: string;
  input: unknown;
  /** Told when the function is called, its module loaded: the task's time limit runs from then. */
  started: MessagePort;
}

export default async function runTask({ module, name, input, started }: WorkerTask): Promise<unknown> {
  const loaded = (await import(module)) as Record<string, (input: unknown) => unknown>;
  const run = loaded[name];
  if (typeof run !== "function") throw new Error(`${module} exports no function ${name}`);
  started.postMessage(null);
  started.close();
  return run(input);
}
