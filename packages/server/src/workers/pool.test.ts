import { afterAll, describe, expect, it } from "vitest";
import { PoolBusy, WorkerPool, WorkOverrun } from "./pool.js";

const tasks = new URL("./testing.ts", import.meta.url);
const pool = new WorkerPool({ threads: 2, maxQueue: 2, timeoutMs: 1_000, memoryMb: 64 });
afterAll(() => pool.close());

describe("the worker pool", { timeout: 30_000 }, () => {
  it("runs a function of a TypeScript module in a thread", async () => {
    await expect(pool.run(tasks, "echo", { a: [1, "two"] })).resolves.toEqual({ a: [1, "two"] });
  });

  it("stops a task that runs past the time limit, and the next task runs", async () => {
    const started = performance.now();
    await expect(pool.run(tasks, "spin", 60_000)).rejects.toMatchObject({ overrun: "time" });
    expect(performance.now() - started).toBeLessThan(5_000);
    await expect(pool.run(tasks, "echo", 1)).resolves.toBe(1);
  });

  it("does not count a module's loading in the task's time", async () => {
    const slowLoad = new URL("./testing-slow-load.ts", import.meta.url);
    await expect(pool.run(slowLoad, "echo", "loaded")).resolves.toBe("loaded");
  });

  it("stops a task that runs out of memory or of stack, alone", async () => {
    const [memory, stack, fine] = await Promise.allSettled([
      pool.run(tasks, "hoard", null),
      pool.run(tasks, "recurse", 0),
      pool.run(tasks, "spin", 10),
    ]);
    expect(memory).toMatchObject({ status: "rejected", reason: { overrun: "memory" } });
    expect(stack).toMatchObject({ status: "rejected", reason: { overrun: "stack" } });
    expect(fine.status).toBe("fulfilled");
    expect((memory as PromiseRejectedResult).reason).toBeInstanceOf(WorkOverrun);
  });

  it("times a task from when it gets a thread, and refuses what the queue cannot hold", async () => {
    // Two threads busy for 2 s each, two tasks waiting: each waiting one then runs within its own 3 s,
    // though it ends 3.2 s after it was given. A busy machine (CI runs test files side by side on two
    // cores) still leaves the waiting tasks 1.8 s of slack.
    const timed = new WorkerPool({ threads: 2, maxQueue: 2, timeoutMs: 3_000, memoryMb: 64 });
    try {
      const running = [timed.run(tasks, "spin", 2_000), timed.run(tasks, "spin", 2_000)];
      const waiting = [timed.run(tasks, "spin", 1_200), timed.run(tasks, "spin", 1_200)];
      await expect(timed.run(tasks, "echo", 1)).rejects.toBeInstanceOf(PoolBusy);
      await expect(Promise.all([...running, ...waiting])).resolves.toHaveLength(4);
    } finally {
      await timed.close();
    }
  });
});
