import "../support/route-mocks";
import { renderToStaticMarkup } from "react-dom/server";
import { beforeEach, expect, it } from "vitest";
import MemoryPage from "@/app/(console)/memories/[id]/page";
import AccessLogPage from "@/app/(console)/memories/access-log/page";
import InstructionsPage from "@/app/(console)/memories/instructions/page";
import MemoriesPage from "@/app/(console)/memories/page";
import ReviewPage from "@/app/(console)/memories/review/page";
import RulesPage from "@/app/(console)/memories/rules/page";
import { listAuditEntries } from "@/lib/console/audit";
import { createMemory } from "@/lib/memory/store";
import { bindingFor, contextFor, createUser } from "../memory/support";
import { describeEachDatabase } from "../support/databases";
import { principalFor, routeHarness } from "../support/route-harness";

const search = (values: Record<string, string>) => Promise.resolve(values);

/** Every console page that takes `?as=`, rendered as Next.js would for the current principal. */
const pages = {
  memories: (as: string) => MemoriesPage({ searchParams: search({ as }) }),
  memory: (as: string, id: string) => MemoryPage({ params: Promise.resolve({ id }), searchParams: search({ as }) }),
  review: (as: string) => ReviewPage({ searchParams: search({ as }) }),
  rules: (as: string) => RulesPage({ searchParams: search({ as }) }),
  instructions: (as: string) => InstructionsPage({ searchParams: search({ as }) }),
};

describeEachDatabase("admin reads of another user's console", (use) => {
  let owner: string;
  let admin: string;
  let memoryId: string;

  beforeEach(async () => {
    routeHarness.database = use();
    owner = await createUser(use());
    admin = await createUser(use());
    memoryId = (await createMemory(contextFor(use(), owner), { content: "Owner likes green tea" })).id;
  });

  const auditOf = async (userId: string) => (await listAuditEntries(bindingFor(use(), userId))).entries;

  it("writes one entry in the owner's audit log for every page read with ?as=, which their access log shows", async () => {
    routeHarness.principal = principalFor(admin, "admin");
    await pages.memories(owner);
    await pages.memory(owner, memoryId);
    await pages.review(owner);
    await pages.rules(owner);
    await pages.instructions(owner);

    const entries = await auditOf(owner);
    expect(entries.map((entry) => [entry.action, entry.target]).sort()).toEqual(
      [
        ["view_instructions", owner],
        ["view_memories", owner],
        ["view_memory", memoryId],
        ["view_review", owner],
        ["view_rules", owner],
      ].sort(),
    );
    for (const entry of entries) expect(entry).toMatchObject({ actorType: "admin", actorId: admin, userId: owner });

    routeHarness.principal = principalFor(owner);
    const log = renderToStaticMarkup(await AccessLogPage({ searchParams: search({}) }));
    for (const words of ["viewed your review queue", "viewed your rules", "viewed your instructions"]) {
      expect(log).toContain(words);
    }
  });

  it("writes nothing when a user reads their own pages, ?as= naming themselves included", async () => {
    routeHarness.principal = principalFor(owner, "admin");
    await pages.memories(owner);
    await pages.review(owner);
    await pages.rules(owner);
    await pages.instructions(owner);
    expect(await auditOf(owner)).toEqual([]);
  });
});
