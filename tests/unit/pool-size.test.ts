import { describe, expect, it } from "vitest";
import { parseConfig } from "@/lib/config";

describe("DATABASE_POOL_SIZE", () => {
  it("is 10 when unset and the given whole number otherwise", () => {
    expect(parseConfig({}).DATABASE_POOL_SIZE).toBe(10);
    expect(parseConfig({ DATABASE_POOL_SIZE: " 40 " }).DATABASE_POOL_SIZE).toBe(40);
  });

  it("stops the start on a value that is not a whole number from 1 to 500", () => {
    for (const bad of ["0", "501", "2.5", "ten"]) {
      expect(() => parseConfig({ DATABASE_POOL_SIZE: bad })).toThrow(
        `DATABASE_POOL_SIZE must be a whole number from 1 to 500 (got "${bad}").`,
      );
    }
  });
});
