#!/usr/bin/env node
import { runCli } from "./cli/commands.js";
import { configFromEnv } from "./config.js";

process.exitCode = await runCli(process.argv.slice(2), {
  database: configFromEnv().database,
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
});
