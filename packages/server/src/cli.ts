#!/usr/bin/env node
import { text } from "node:stream/consumers";
import { runCli } from "./cli/commands.js";
import { configFromEnv } from "./config.js";

const config = configFromEnv();
process.exitCode = await runCli(process.argv.slice(2), {
  database: config.database,
  secretKeyConfigured: config.secretKey !== undefined,
  env: process.env,
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  input: () => text(process.stdin),
});
