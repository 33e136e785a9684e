import "../support/route-mocks";
import type { SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { afterEach, beforeEach, expect, it } from "vitest";
import type { Database } from "@/lib/db/client";
import { createMemory } from "@/lib/memory/store";
import { contextFor, createUser } from "../memory/support";
import { describeEachDatabase } from "../support/databases";
import { restoreEnv, setEnv } from "../support/env";
import { routeHarness } from "../support/route-harness";
import { type RouteServer, startRouteServer } from "../support/route-server";

const health = await import("@/app/api/health/route");

/** The database as the route sees it, recording the text of every statement sent through it. */
function recording(database: Database): { database: Database; statements: string[] } {
  const statements: string[] = [];
  const dialect = new PgDialect();
  const unbound = {
    get db(): never {
      throw new Error("the health route reached for the query builder");
    },
    rows<T>(query: SQL): Promise<T[]> {
      statements.push(dialect.sqlToQuery(query).sql);
      return database.unbound.rows<T>(query);
    },
  };
  return { database: { ...database, unbound }, statements };
}

describeEachDatabase("GET /api/health", (use) => {
  let server: RouteServer;

  beforeEach(async () => {
    // A configured embedding model on a database with vectors: what used to make health count every user's backlog.
    setEnv({ EMBEDDING_MODEL: "local" });
    server = await startRouteServer({ "/api/health": health });
  });

  afterEach(async () => {
    restoreEnv();
    await server.close();
  });

  it("answers what the instance runs on with one statement that reads no user's data", async () => {
    const owner = await createUser(use());
    await createMemory(contextFor(use(), owner), { content: "Waiting for its vector" });
    const { database, statements } = recording(use());
    routeHarness.database = database;

    const response = await fetch(`${server.origin}/api/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      status: "ok",
      database: use().kind,
      ...(use().kind === "citus" ? { workers: use().workers } : {}),
      vector: use().vector,
      embedding: "local:use-lite",
      chatModel: expect.any(String),
    });
    expect(statements).toEqual(["select 1"]);
  });
});
