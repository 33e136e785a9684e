import { describe, expect, it } from "vitest";
import { registerSchema, signInSchema } from "@/lib/auth/credentials";
import { namespaceRoot, roleOf } from "@/lib/auth/principal";
import { safeRedirectPath } from "@/lib/auth/redirect";
import { MissingAuthSecretError, resolveAuthSecret } from "@/lib/auth/secret";
import { parseConfig } from "@/lib/config";

describe("safeRedirectPath", () => {
  it.each([
    ["/memories?q=1", "/memories?q=1"],
    ["/memories?x=1#top", "/memories?x=1#top"],
    ["/", "/"],
    ["/a/../memories", "/memories"],
    ["https://evil.example/", "/"],
    ["//evil.example/x", "/"],
    ["/\\evil.example", "/"],
    ["\\\\evil.example", "/"],
    ["/.//evil.example", "/"],
    ["/..//evil.example", "/"],
    ["/%2e//evil.example", "/"],
    ["/%2E%2E//evil.example", "/"],
    ["/a/..//evil.example", "/"],
    ["/./\\evil.example", "/"],
    ["%2f%2fevil.example", "/"],
    ["/\tevil.example", "/"],
    ["javascript:alert(1)", "/"],
    [null, "/"],
    ["", "/"],
    ["/\r\nSet-Cookie:x=y", "/"],
    ["/ключ?q=чай", "/%D0%BA%D0%BB%D1%8E%D1%87?q=%D1%87%D0%B0%D0%B9"],
    ["/a%0d%0ab", "/a%0d%0ab"],
    [`/${"a".repeat(5_000)}`, "/"],
  ])("%s → %s", (input, expected) => {
    expect(safeRedirectPath(input)).toBe(expected);
  });
});

describe("roles and roots", () => {
  it("makes admins of the database flag and of verified listed emails (case-insensitively), nobody else", () => {
    const verified = (email: string | null) => ({ email, isAdmin: false, emailVerifiedAt: new Date() });
    const admins = (list: string) => parseConfig({ ADMIN_EMAILS: list }).ADMIN_EMAILS;
    expect(roleOf(verified("Boss@Example.com"), admins(" boss@example.com , other@example.com"))).toBe("admin");
    expect(roleOf(verified("user@example.com"), admins("boss@example.com"))).toBe("user");
    expect(roleOf(verified(null), admins("boss@example.com"))).toBe("user");
    expect(roleOf(verified("boss@example.com"), admins(""))).toBe("user");
    // A registered address is not a verified one.
    expect(
      roleOf({ email: "boss@example.com", isAdmin: false, emailVerifiedAt: null }, admins("boss@example.com")),
    ).toBe("user");
    expect(roleOf({ email: null, isAdmin: true, emailVerifiedAt: null }, admins(""))).toBe("admin");
  });

  it("roots every principal at users/<id>", () => {
    expect(namespaceRoot("abc")).toEqual(["users", "abc"]);
  });
});

describe("credential rules", () => {
  it("normalises email and enforces password length", () => {
    const ok = registerSchema.parse({ email: "  Ann@Example.COM ", password: "12345678" });
    expect(ok.email).toBe("ann@example.com");
    expect(registerSchema.safeParse({ email: "ann@example.com", password: "1234567" }).success).toBe(false);
    expect(registerSchema.safeParse({ email: "ann@example.com", password: "x".repeat(73) }).success).toBe(false);
    expect(registerSchema.safeParse({ email: "not-an-email", password: "12345678" }).success).toBe(false);
    expect(signInSchema.safeParse({ email: "ann@example.com", password: "" }).success).toBe(false);
  });

  it("counts the password's 72-byte bcrypt limit in UTF-8 bytes, at registration and at sign-in", () => {
    const fits = "é".repeat(36); // 36 characters, 72 bytes
    const over = `${fits}x`; // 37 characters, 73 bytes: bcrypt would compare it as `fits`
    expect(registerSchema.safeParse({ email: "ann@example.com", password: fits }).success).toBe(true);
    const refused = registerSchema.safeParse({ email: "ann@example.com", password: over });
    expect(refused.error?.issues).toEqual([
      expect.objectContaining({ path: ["password"], message: expect.stringContaining("72 bytes") }),
    ]);
    expect(signInSchema.safeParse({ email: "ann@example.com", password: fits }).success).toBe(true);
    expect(signInSchema.safeParse({ email: "ann@example.com", password: over }).success).toBe(false);
  });
});

describe("resolveAuthSecret", () => {
  it("uses AUTH_SECRET when set", () => {
    expect(resolveAuthSecret(parseConfig({ AUTH_SECRET: "s3cret", NODE_ENV: "production" }))).toBe("s3cret");
  });

  it("refuses to run in production without one, saying what to do", () => {
    expect(() => resolveAuthSecret(parseConfig({ NODE_ENV: "production" }))).toThrow(MissingAuthSecretError);
    expect(() => resolveAuthSecret(parseConfig({ NODE_ENV: "production" }))).toThrow(/set AUTH_SECRET/);
  });

  it("generates a development secret once and reuses it", () => {
    const first = resolveAuthSecret(parseConfig({ NODE_ENV: "development" }));
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(resolveAuthSecret(parseConfig({ NODE_ENV: "development" }))).toBe(first);
  });
});
