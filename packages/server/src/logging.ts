import { type DestinationStream, type Logger, pino } from "pino";
import { prettyFactory } from "pino-pretty";

/** How long a log line may wait in the buffer before it is written anyway. */
const FLUSH_INTERVAL_MS = 1000;

/** Log text gathered before it is written: one write for some twenty request lines. */
const BATCH_CHARACTERS = 4096;

/**
 * The server's logger: lines are gathered and written about 4 KiB at a time, or at least every
 * second, and on exit. The writes are synchronous: one 4 KiB write costs less than handing it to
 * libuv's thread pool and back, which took about a twentieth of a cached read's time, and a line
 * per request is never written alone (that cost a tenth). Flush it after a line someone waits for.
 *
 * The lines are gathered here as text and handed to sonic-boom (which writes them, retrying on a
 * busy pipe) a batch at a time: buffering in sonic-boom measured its whole pending text again for
 * every line in text mode, and copied each line into a buffer of its own in buffer mode.
 *
 * `readable`: each line is written for people (pino-pretty's format, coloured), as on a newcomer's terminal.
 */
export function serverLogger(
  level: string,
  destination: string | number = 1,
  { readable = false }: { readable?: boolean } = {},
): Logger {
  const format = readable ? prettyFactory({ colorize: true }) : (line: string) => line;
  const sink = pino.destination({ dest: destination, sync: true, minLength: 0 });
  let pending = "";
  const writePending = () => {
    if (pending === "") return;
    sink.write(pending);
    pending = "";
  };
  const lines: DestinationStream & Pick<typeof sink, "flush" | "flushSync"> = {
    write(line) {
      pending += format(line);
      if (pending.length >= BATCH_CHARACTERS) writePending();
    },
    flush(callback) {
      writePending();
      sink.flush(callback);
    },
    flushSync() {
      writePending();
      sink.flushSync();
    },
  };
  const logger = pino({ level }, lines);
  setInterval(() => logger.flush(), FLUSH_INTERVAL_MS).unref();
  process.once("exit", () => lines.flushSync());
  return logger;
}
