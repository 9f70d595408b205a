import { describe, expect, it } from "vitest";
import { MAX_NAMES, NAMED_AFTER, nameForRun, nameStatement } from "./statement-names.js";

/** The names `sql` runs under in `count` runs one after another. */
const namesOver = (sql: string, count: number) => Array.from({ length: count }, () => nameForRun(sql));

describe("statement names", () => {
  it("name a statement that reads or writes rows from its fifth run on, the same name each time", () => {
    for (const sql of [
      'select * from "spaces" where "id" = $1',
      'update "spaces" set "title" = $1 where "id" = $2 returning *',
      'insert into "events" ("id") values ($1)',
      'delete from "jobs" where "id" = $1',
      'with "batch" as (select 1) select * from "batch"',
    ]) {
      const names = namesOver(sql, NAMED_AFTER + 2);
      expect(names.slice(0, NAMED_AFTER - 1)).toEqual(Array(NAMED_AFTER - 1).fill(undefined));
      const named = names[NAMED_AFTER - 1];
      expect(named).toMatch(/^quire_\d+$/);
      expect(names.slice(NAMED_AFTER)).toEqual([named, named]);
    }
  });

  it("never name a command, however often it runs", () => {
    for (const sql of ["begin", "commit", "vacuum (skip_locked) unnumbered_events", "set search_path = a"])
      expect(namesOver(sql, NAMED_AFTER * 2)).toEqual(Array(NAMED_AFTER * 2).fill(undefined));
  });

  it("name a registered statement from its first run", () => {
    const sql = 'select "id" from "users" where "email" = $1';
    nameStatement(sql);
    expect(nameForRun(sql)).toMatch(/^quire_\d+$/);
  });

  it(`name ${MAX_NAMES} statements at most, besides those registered`, () => {
    const named = Array.from({ length: MAX_NAMES + 10 }, (_, i) =>
      namesOver(`select ${i}`, NAMED_AFTER).at(-1),
    );
    expect(new Set(named.filter((name) => name !== undefined)).size).toBeLessThan(MAX_NAMES);
    expect(named.at(-1)).toBeUndefined();
    const registered = 'select "id" from "spaces" where "slug" = $1';
    nameStatement(registered);
    expect(nameForRun(registered)).toMatch(/^quire_\d+$/);
  });
});
