import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { createUser, tableFingerprints } from "../memory/support";
import { describeEachDatabase } from "../support/databases";
import { changedRows, snapshotRows } from "./owned-rows";

// The security suites prove "a refusal writes nothing" with these: a fingerprint that missed a change would let any
// write through unseen.
describeEachDatabase("row fingerprints and snapshots", (use) => {
  it("move with every insert, change of one column and delete, and only in the table written", async () => {
    const database = use();
    const userId = await createUser(database);
    const start = await tableFingerprints(database);
    expect(await tableFingerprints(database)).toEqual(start);

    const prints = [start];
    await database.unbound.rows(sql`insert into user_settings (user_id, review) values (${userId}::uuid, 'off')`);
    prints.push(await tableFingerprints(database));
    await database.unbound.rows(sql`update user_settings set review = 'all' where user_id = ${userId}::uuid`);
    prints.push(await tableFingerprints(database));
    await database.unbound.rows(sql`delete from user_settings where user_id = ${userId}::uuid`);
    prints.push(await tableFingerprints(database));

    for (let step = 1; step < prints.length; step++) {
      const [before, after] = [prints[step - 1]!, prints[step]!];
      const moved = [...after.keys()].filter((table) => after.get(table) !== before.get(table));
      expect(moved, `step ${step}`).toEqual(["user_settings"]);
    }
    // Back to no row: the same count and hash sum as before the insert.
    expect(prints[3]).toEqual(start);
  });

  it("report a changed row as removed and added, with its owner, reading again only the tables that moved", async () => {
    const database = use();
    const userId = await createUser(database);
    const before = await snapshotRows(database);
    await database.unbound.rows(sql`update users set name = 'renamed' where id = ${userId}::uuid`);
    const after = await snapshotRows(database, before);

    const changes = changedRows(before, after);
    expect(changes.map(({ table, owner, change }) => ({ table, owner, change }))).toEqual([
      { table: "users", owner: userId, change: "added" },
      { table: "users", owner: userId, change: "removed" },
    ]);
    expect(JSON.parse(changes[0]!.json)).toMatchObject({ name: "renamed" });
    const untouched = [...after].filter(([table]) => table !== "users");
    for (const [table, rows] of untouched) expect(rows.rows, table).toBe(before.get(table)!.rows);
  });
});
