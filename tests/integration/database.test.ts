import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { describeEachDatabase } from "../support/databases";

describeEachDatabase("database layer", (use, backend) => {
  it("applies every migration and records them once", async () => {
    const rows = await use().unbound.rows<{ count: number }>(
      sql`select count(*)::int as count from drizzle.__drizzle_migrations`,
    );
    expect(rows[0]?.count).toBeGreaterThanOrEqual(3);
  });

  it("creates pg_trgm and records whether pgvector exists", async () => {
    const database = use();
    const extensions = await database.unbound.rows<{ extname: string }>(sql`select extname from pg_extension`);
    const names = extensions.map((row) => row.extname);
    expect(names).toContain("pg_trgm");
    expect(database.vector).toBe(names.includes("vector"));
    if (backend === "pglite") expect(database.vector).toBe(true);
    const [meta] = await database.unbound.rows<{ value: unknown }>(
      sql`select value from app_meta where key = 'vector'`,
    );
    expect(meta?.value).toBe(database.vector);
  });

  it("keeps the database usable for queries across the schema", async () => {
    const [row] = await use().unbound.rows<{ similarity: number }>(
      sql`select similarity('dark mode', 'drak mode') as similarity`,
    );
    expect(row?.similarity).toBeGreaterThan(0.2);
  });
});
