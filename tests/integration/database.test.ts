import { eq, sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { resultRows } from "@/lib/db/client";
import { users } from "@/lib/db/schema";
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

  it.skipIf(backend === "pglite")(
    "prepares the builder's and raw parameterised statements on their connection, each planned for its values",
    async () => {
      const { prepared, mode } = await use().unbound.db.transaction(async (tx) => {
        await tx.select({ id: users.id }).from(users).where(eq(users.email, "nobody@example.com"));
        await tx.execute(sql`select ${"raw"}::text as value`);
        const statements = resultRows<{ statement: string }>(
          await tx.execute(sql`select statement from pg_prepared_statements`),
        );
        const [setting] = resultRows<{ mode: string }>(
          await tx.execute(sql`select current_setting('plan_cache_mode') as mode`),
        );
        return { prepared: statements.map((row) => row.statement), mode: setting?.mode };
      });
      expect(prepared).toEqual(
        expect.arrayContaining([
          expect.stringContaining('from "users" where "users"."email" = $1'),
          expect.stringContaining("select $1::text as value"),
        ]),
      );
      expect(mode).toBe("force_custom_plan");
    },
  );
});
