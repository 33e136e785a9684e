import "../support/route-mocks";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { createUser } from "../memory/support";
import { describeEachDatabase } from "../support/databases";
import { routeHarness } from "../support/route-harness";
import { call, principalFor } from "./support";

const { GET: openapiRoute } = await import("@/app/api/v1/openapi.json/route");
const responses = await import("@/lib/api/response-schemas");
const keyResponses = await import("@/lib/api/key-requests");

const METHODS = ["get", "put", "post", "patch", "delete", "head", "options", "trace"] as const;
const V1 = path.resolve(import.meta.dirname, "../../app/api/v1");

/** `app/api/v1/memories/[id]/route.ts` → `/api/v1/memories/{id}`, with the HTTP methods the file exports. */
function routesOnDisk(): Map<string, string[]> {
  const routes = new Map<string, string[]>();
  const walk = (directory: string) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const full = path.join(directory, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === "route.ts") {
        const relative = path.relative(V1, directory).split(path.sep).join("/");
        const routePath = `/api/v1/${relative}`.replace(/\[([^\]]+)\]/g, "{$1}");
        const source = readFileSync(full, "utf8");
        const exported = [
          ...source.matchAll(/export (?:const|async function|function) (GET|POST|PUT|PATCH|DELETE)\b/g),
        ];
        routes.set(routePath, exported.map((match) => (match[1] as string).toLowerCase()).sort());
      }
    }
  };
  walk(V1);
  return routes;
}

// biome-ignore lint/suspicious/noExplicitAny: the document is walked generically
type Doc = any;

async function fetchDocument(): Promise<Doc> {
  const response = await openapiRoute(new Request("http://localhost/api/v1/openapi.json"));
  expect(response.status).toBe(200);
  return response.json();
}

function refsIn(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) refsIn(item, found);
  else if (value && typeof value === "object") {
    for (const [key, inner] of Object.entries(value)) {
      if (key === "$ref" && typeof inner === "string") found.push(inner);
      else refsIn(inner, found);
    }
  }
  return found;
}

describe("OpenAPI document", () => {
  it("is a structurally valid OpenAPI 3.1 document", async () => {
    const doc = await fetchDocument();
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info).toMatchObject({ title: expect.any(String), version: expect.any(String) });
    expect(doc.servers).toEqual([{ url: "http://localhost" }]);
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(["bearer", "cookie"]);
    const operationIds = new Set<string>();
    for (const [routePath, item] of Object.entries<Doc>(doc.paths)) {
      expect(routePath.startsWith("/")).toBe(true);
      const operations = Object.entries<Doc>(item).filter(([key]) => (METHODS as readonly string[]).includes(key));
      expect(operations.length, routePath).toBeGreaterThan(0);
      for (const [method, operation] of operations) {
        const where = `${method.toUpperCase()} ${routePath}`;
        expect(operationIds.has(operation.operationId), where).toBe(false);
        operationIds.add(operation.operationId);
        const statuses = Object.keys(operation.responses);
        expect(statuses.length, where).toBeGreaterThan(0);
        for (const status of statuses) {
          expect(status, where).toMatch(/^[1-5]\d\d$/);
          expect(operation.responses[status].description, `${where} ${status}`).toEqual(expect.any(String));
        }
        const templated = [...routePath.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
        const pathParameters = (operation.parameters ?? []).filter((p: Doc) => p.in === "path");
        expect(
          pathParameters.map((p: Doc) => p.name),
          where,
        ).toEqual(templated);
        for (const parameter of pathParameters) expect(parameter.required).toBe(true);
        for (const requirement of operation.security ?? []) {
          for (const scheme of Object.keys(requirement)) expect(doc.components.securitySchemes).toHaveProperty(scheme);
        }
      }
    }
    for (const ref of refsIn(doc)) {
      expect(ref).toMatch(/^#\/components\/schemas\//);
      expect(doc.components.schemas, ref).toHaveProperty(ref.slice("#/components/schemas/".length));
    }
  });

  it("lists every REST route on disk with exactly the methods it exports", async () => {
    const doc = await fetchDocument();
    const documented = new Map(
      Object.entries<Doc>(doc.paths).map(([routePath, item]) => [
        routePath,
        Object.keys(item)
          .filter((key) => (METHODS as readonly string[]).includes(key))
          .sort(),
      ]),
    );
    const onDisk = routesOnDisk();
    expect(onDisk.size).toBeGreaterThanOrEqual(10);
    expect(Object.fromEntries(documented)).toEqual(Object.fromEntries(onDisk));
  });

  it("marks issuing, listing and revoking keys as cookie-only", async () => {
    const doc = await fetchDocument();
    expect(doc.paths["/api/v1/keys"].post.security).toEqual([{ cookie: [] }]);
    expect(doc.paths["/api/v1/keys"].get.security).toEqual([{ cookie: [] }]);
    expect(doc.paths["/api/v1/keys/{id}"].delete.security).toEqual([{ cookie: [] }]);
    expect(doc.paths["/api/v1/memories"].get.security).toEqual([{ bearer: [] }, { cookie: [] }]);
  });
});

describeEachDatabase("OpenAPI response schemas match what the routes answer", (use) => {
  beforeEach(async () => {
    routeHarness.database = use();
    routeHarness.principal = principalFor(await createUser(use()));
  });

  it("memory, list, history, search, me and keys responses parse with the documented schemas", async () => {
    const collection = await import("@/app/api/v1/memories/route");
    const history = await import("@/app/api/v1/memories/[id]/history/route");
    const search = await import("@/app/api/v1/memories/search/route");
    const me = await import("@/app/api/v1/me/route");
    const keys = await import("@/app/api/v1/keys/route");

    const created = await call(collection.POST, {
      method: "POST",
      body: { content: "I like tea", metadata: { a: 1 } },
    });
    responses.memoryResponse.parse(created.json);
    responses.memoryListResponse.parse((await call(collection.GET)).json);
    responses.historyResponse.parse((await call(history.GET, { params: { id: created.json.memory.id } })).json);
    responses.searchResponse.parse((await call(search.POST, { method: "POST", body: { query: "tea" } })).json);
    responses.meResponse.parse((await call(me.GET)).json);
    keyResponses.createdKeyResponse.parse(
      (await call(keys.POST, { method: "POST", body: { name: "k", scopes: ["read"] } })).json,
    );
    keyResponses.keyListResponse.parse((await call(keys.GET)).json);
    responses.errorResponseBody.parse((await call(collection.POST, { method: "POST", body: {} })).json);
  });
});
