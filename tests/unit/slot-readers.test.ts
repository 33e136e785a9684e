import { describe, expect, it } from "vitest";
import { readMessage } from "@/lib/ai/offline/intent";
import { sameSlot, slotOf } from "@/lib/text/slots";
import { STANDING_SLOT_KEYS, standingValueOf } from "@/lib/text/standing-values";
import { NOW_ADVERBS } from "@/lib/text/user-statement";
import { opsForPair } from "../support/offline-consolidation";

/** The facts (memory texts) the offline model reads from one user message. */
const factsOf = (message: string) => readMessage(message).facts.map((fact) => fact.content);

describe("one list for each word class the offline reader and the slot rules share", () => {
  // Each adverb was known to one reader only: the statement reader kept "mostly" and the slot rules skipped
  // "officially", so a fact the reader wrote could fill no slot, or a slot be read from a fact never written.
  it.each(["mostly", "officially", "proudly", "truly"])(
    "reads 'I %s live in Lisbon' as a home, both ways",
    (adverb) => {
      const [fact] = factsOf(`I ${adverb} live in Lisbon.`);
      expect(fact).toBe(`User ${adverb} lives in Lisbon`);
      expect(slotOf(fact!)).toEqual({ key: "residence", value: "lisbon" });
    },
  );

  it.each([
    ["Most weekends I go sailing.", "User goes sailing most weekends"],
    ["On Sundays I swim in the sea.", "User swims in the sea on Sundays"],
    // "all" qualifies a time period for the offline consolidation ("all summer") as "most" does.
    ["All summer I'm sailing small boats.", "User is sailing small boats all summer"],
  ])("moves a leading time expression of %j to the end", (message, fact) => {
    expect(factsOf(message)).toEqual([fact]);
  });
});

describe("one reading of a place name for every home", () => {
  it.each([
    ["User lives in the Netherlands", "User settled in the Netherlands"],
    ["User moved to the United Kingdom", "The user has settled in the United Kingdom."],
    ["User moved to New York City last year", "User settled in New York City"],
    ["User lives in New York City with their partner", "User has been living in New York City"],
    ["User lives in Rio de Janeiro", "User settled in Rio de Janeiro"],
    ["User's home is in Toronto, Canada", "User settled in Toronto, Canada"],
  ])("reads %j and %j as one home", (table, grammar) => {
    const home = slotOf(table);
    expect(home?.key).toBe("residence");
    expect(slotOf(grammar)).toEqual(home);
  });

  it("reads a home the statement reader writes with 'the' as a home", () => {
    const [fact] = factsOf("We settled in the Netherlands.");
    expect(fact).toBe("User settled in the Netherlands");
    expect(slotOf(fact!)).toEqual({ key: "residence", value: "netherlands" });
    expect(sameSlot(fact!, "User lives in Lisbon")).toBe(true);
  });

  it.each(["back to", "up to", "out in", "over in"])(
    "reads the home after %j alike in the statement reader and the home slot",
    (particle) => {
      const [fact] = factsOf(`We settled ${particle} Porto.`);
      expect(fact).toBe(`User settled ${particle} Porto`);
      expect(slotOf(fact!)).toEqual({ key: "residence", value: "porto" });
    },
  );

  it("merges two wordings of one multi-word home, and supersedes another home", () => {
    expect(opsForPair("User moved to New York City last year", "User settled in New York City")).toEqual(["merge"]);
    expect(opsForPair("User lives in the Netherlands", "User settled in the United Kingdom")).toEqual(["supersede"]);
  });
});

describe("a job the user no longer holds", () => {
  it.each([
    "User quit their job as a teacher",
    "User left their job as a teacher",
    "User lost their job as a nurse",
    "User retired from their job as a teacher",
    "User retired as a teacher",
    "User used to work as a teacher",
    "User used to have a job as a teacher",
    "User was a teacher until 2019",
    "User was a teacher until last year",
    "User was fired from their job as a chef",
    "User was laid off from their job as an editor",
    "User gave up their career as a pilot",
    "User has stepped down from their job as a librarian",
    "User walked out of their job as a teacher",
    "User formerly had a job as a nurse",
    "User doesn't have a job as a nurse",
    "User never had a job as a nurse",
    "User no longer works as a teacher",
    "User worked as a waiter during university",
    "User spent ten years as a teacher",
    "User had a summer job as a lifeguard",
    "User is an amateur photographer",
    "User is a student at a language school",
    "User is a guest at a hotel in Porto",
    "User was employed as a nurse",
  ])("%j fills no job slot", (text) => {
    expect(slotOf(text)).toBeUndefined();
  });

  it.each([
    "User started a new job as a teacher",
    "User recently started a job as a teacher",
    "User got a job as a teacher",
    "User took a job as a teacher",
    "User landed a job as a teacher",
    "User found a job as a teacher",
    "User accepted a job as a teacher",
    "User began a career as a teacher",
    "User has a job as a teacher",
    "User now has a job as a teacher",
    "User loves their job as a teacher",
    "User still has their job as a teacher",
    "User keeps their job as a teacher",
    "User settled into a new job as a teacher",
  ])("%j is the user's job now", (text) => {
    expect(slotOf(text)).toEqual({ key: "job", value: "teacher" });
  });

  it.each([
    ["User is vegetarian", "User is diabetic"],
    ["User is married", "User is pregnant"],
    ["User goes running every morning", "User goes running every evening"],
  ])("reads %j and %j as two facts, not one slot: an opening of being alone, or another time of a habit", (a, b) => {
    expect(sameSlot(a, b)).toBe(false);
  });

  it("neither supersedes the job the user has now nor merges with it", () => {
    expect(sameSlot("User is a nurse", "User quit their job as a teacher")).toBe(false);
    expect(opsForPair("User is a nurse", "User quit their job as a teacher")).toEqual([]);
    expect(opsForPair("User is a teacher", "User left their job as a teacher")).toEqual([]);
    expect(opsForPair("User used to have a job as a pilot", "User works as a baker")).toEqual([]);
  });

  it.each([
    ["User works as a nurse", "User declined a job as a pilot"],
    ["User works as a nurse", "User turned down a job as a pilot"],
    ["User works as a nurse", "User rejected a job offer as a pilot"],
    ["User works as a nurse", "User passed up a job as a pilot last week"],
    ["User works as a nurse", "User interviewed for a job as a pilot"],
    ["User lives in Lisbon", "User moved to Porto as a child"],
    ["User lives in Lisbon", "User moved to Porto when they were young"],
    ["User lives in Lisbon", "User moved to Porto as a young child"],
    ["User lives in Lisbon", "User moved to Porto at the age of 10"],
    ["User lives in Lisbon", "User moved to Porto in early childhood"],
    ["User works as a nurse", "User got a job offer as a pilot"],
  ])("keeps %j beside %j: a job turned down or sought, a home of a childhood", (now, other) => {
    expect(opsForPair(now, other, "slot")).toEqual([]);
  });

  it.each([
    ["User works as a nurse", "User accepted a job as a pilot"],
    ["User works as a nurse", "User declined to comment but works as a pilot"],
    ["User works as a nurse", "User works as a child psychologist"],
    ["User lives in Lisbon", "User moved to Porto when they were 30"],
  ])(
    "supersedes %j by %j: a job taken, a refusal of something else, a job for children, a grown-up's move",
    (old, now) => {
      expect(opsForPair(old, now, "slot")).toEqual(["supersede"]);
    },
  );
});

describe("a home or a job read by kind, however it is worded", () => {
  it.each([
    ["User calls Lisbon home", "lisbon"],
    ["User has made Ghent their home", "ghent"],
    ["User moved house to Porto", "porto"],
    ["User moved home to the Netherlands", "netherlands"],
    ["User is now settled in Porto", "porto"],
    ["User is a resident of Porto", "porto"],
    ["User's new home is in Porto", "porto"],
  ])("%j is the user's home", (text, value) => {
    expect(slotOf(text)).toEqual({ key: "residence", value });
  });

  it.each([
    "User called Lisbon home",
    "User's holiday home is in Spain",
    "User's sister's home is in Porto",
    "User's favourite city is Porto",
    "User is a fan of Porto",
  ])("%j is no home the user has now", (text) => {
    expect(slotOf(text)?.key).not.toBe("residence");
  });

  it.each([
    ["User earns a living as a nurse", "nurse"],
    ["User retrained as a teacher", "teacher"],
    ["User trained as an architect", "architect"],
    ["User's job title is editor", "editor"],
    ["User is a chef now", "chef"],
  ])("%j is the user's job", (text, value) => {
    expect(slotOf(text)).toEqual({ key: "job", value });
  });

  it.each(["User volunteers as a tutor", "User's sister's job title is nurse", "User dressed up as a pilot"])(
    "%j is no job of the user's",
    (text) => {
      expect(slotOf(text)?.key).not.toBe("job");
    },
  );

  it("supersedes a home or a job worded by kind with another", () => {
    expect(opsForPair("User calls Lisbon home", "User moved house to Porto")).toEqual(["supersede"]);
    expect(opsForPair("User earns a living as a nurse", "User retrained as a teacher")).toEqual(["supersede"]);
  });
});

describe("a fact written without the user as its subject (lib/text/user-statement.ts)", () => {
  it.each([
    ["Lives in Seville.", { key: "residence", value: "seville" }],
    ["Location: Porto (since college)", { key: "residence", value: "porto" }],
    ["Occupation: teacher (approx. 8 years experience)", { key: "job", value: "teacher" }],
    ["Is a nurse at St Mary's", { key: "job", value: "nurse" }],
    ["User mentioned they moved to Lyon a few weeks ago.", { key: "residence", value: "lyon" }],
    ["User mentioned living in Lisbon for a few years", { key: "residence", value: "lisbon" }],
    ["User said they are based in Porto", { key: "residence", value: "porto" }],
    // A profile's keys, and a start that came.
    ["current_residence: Seville", { key: "residence", value: "seville" }],
    ["Current occupation: chef (started ~3 weeks ago)", { key: "job", value: "chef" }],
    ["New job: teacher", { key: "job", value: "teacher" }],
    ["new city: Bologna (moved last month)", { key: "residence", value: "bologna" }],
    ["The user has recently relocated to Porto.", { key: "residence", value: "porto" }],
    // What managers write around a statement: a key set with "=" or "->", a bullet, a persona block's "human", a
    // lead-in of when, a hedge, an aside after ";", a bracket; a report of an irregular past.
    ["home_city=Lyon (moved last month)", { key: "residence", value: "lyon" }],
    ["job -> pilot (better hours)", { key: "job", value: "pilot" }],
    ["- occupation: nurse", { key: "job", value: "nurse" }],
    ["Human: lives in Porto; finds it lovely this time of year.", { key: "residence", value: "porto" }],
    ["The human works as a teacher.", { key: "job", value: "teacher" }],
    ["As of this month, user's home city is Porto.", { key: "residence", value: "porto" }],
    ["User appears to live in Madrid and is worried about rising rent.", { key: "residence", value: "madrid" }],
    ["User has been hired as an architect (a couple of weeks ago)", { key: "job", value: "architect" }],
    ["User mentioned that they recently became a chef.", { key: "job", value: "chef" }],
    ["User mentioned they have been working as a nurse", { key: "job", value: "nurse" }],
    ["Works as a teacher; the job keeps them busy", { key: "job", value: "teacher" }],
    // A beginning said to be recent: it holds now.
    ["Moved to Madrid last month", { key: "residence", value: "madrid" }],
    ["Moved to Turin about three weeks ago; doesn't know anyone there yet", { key: "residence", value: "turin" }],
    ["Recently moved to Bruges", { key: "residence", value: "bruges" }],
    ["Just started working as a plumber", { key: "job", value: "plumber" }],
    // An aside that names another place or time of its own limits nothing.
    ["Location: Lyon; moved from Porto", { key: "residence", value: "lyon" }],
    ["User lives in Toronto (originally from Mumbai)", { key: "residence", value: "toronto" }],
    ["User works as a nurse; not a fan of night shifts", { key: "job", value: "nurse" }],
  ])("reads %j as the user's", (text, slot) => {
    expect(slotOf(text)).toEqual(slot);
  });

  it.each([...NOW_ADVERBS])("reads a home and a job after %j, an adverb the slot patterns take after 'user'", (now) => {
    const opening = now[0]!.toUpperCase() + now.slice(1);
    expect(slotOf(`${opening} works as a chef.`)).toEqual({ key: "job", value: "chef" });
    expect(slotOf(`${opening} lives in Porto.`)).toEqual({ key: "residence", value: "porto" });
  });

  // A label of a past, an origin, an aim or someone else's; a value that holds for a while; an aim or a relative's
  // job said without a subject; a beginning years ago; a report of a past.
  it.each([
    "Parents live in Rome",
    "User mentioned that their sister lives in Rome",
    "User said they used to live in Rome",
    "User was a nurse two years ago",
    "Previous job: chef",
    "Dream job: chef",
    "Wife occupation: chef",
    "Hometown: Springfield",
    "Location: Tokyo (on a business trip)",
    "Location: Tokyo this week",
    "Location: Tokyo for the conference",
    "Allergies: peanuts",
    "Wants to work as a pilot",
    "Has a sister who works as a chef",
    "User started as a chef years ago",
    "User mentioned having lived in Boston",
    "User mentioned being a chef before nursing",
    "Sister: lives in Rome",
    "Partner: works as a nurse",
    "Goal: works as a pilot someday",
    "Location: Berlin (from March)",
    "Location: at the office",
    "Location: Berlin?",
    "Occupation: nurse (laid off last week)",
    "Occupation: nurse (starting next month)",
    "New job: starting as a teacher in May",
    "previous_job: chef",
    "User seems to be moving to Berlin next month.",
    "User appears to want to live in Madrid.",
    // What an aside, a bracket or a lead-in says of the value.
    "Occupation: nurse — retired",
    "User is a nurse — just kidding",
    "Location: Tokyo; on a business trip",
    "User is a nurse (retired)",
    "User works as a nurse (part-time)",
    "Occupation: nurse (started 2015, left 2020)",
    "home_city=Lyon -> Porto",
    "As of next month, the user works as a pilot.",
    "As of tomorrow, user works as a pilot.",
    "User moved to Porto when they were a kid",
    "Parents have moved to Porto",
    "User mentioned living in Lyon years ago",
    "User mentioned they moved to Lyon for a semester",
    "Wants a job as a pilot",
    "Used to live in Lisbon.",
    "Worked as a nurse for ten years.",
    "Moved to Berlin next month.",
    "Parents moved to Florida.",
    "Moved to Linux.",
    "Declined a job as a pilot.",
    "Moved to Porto as a child.",
    "Moved to Lisbon years ago.",
    "Worked as a waiter last summer.",
  ])("reads %j as no home or job the user has now", (text) => {
    expect(slotOf(text)?.key ?? "none").not.toMatch(/^(?:residence|job)$/);
  });

  it("supersedes a home or a job written one way with one written another", () => {
    expect(opsForPair("Location: Porto", "User mentioned they moved to Lyon")).toEqual(["supersede"]);
    expect(opsForPair("Works as a chef.", "Occupation: pilot")).toEqual(["supersede"]);
    // A beginning some weeks ago holds now, where "ago" alone tells a job held before.
    const began = "The user began a new position as a chef approximately two weeks ago.";
    expect(opsForPair("The user is employed as an architect.", began)).toEqual(["supersede"]);
  });
});

describe("a value held for a while or from a time ahead (lib/text/held-for-a-while.ts)", () => {
  it.each([
    "User lives in Porto temporarily",
    "User lives in Porto (temporarily)",
    "User has a temporary job as a barista",
    "User is covering as a receptionist this week",
    "The user is based in Lisbon this semester",
    "User is working as a nurse until the end of the year",
    "User is a barista for the summer",
    "User lives in Porto for two months while the house is rebuilt",
    "User moves to Berlin next month",
    "User starts as a pilot next week",
    "User will soon move to Madrid",
    "User takes a job as a barista in two weeks",
    "Location: Tokyo this week",
    "User works as a ski instructor for the winter season",
    "User lives in Porto for the next few months",
    "User lives in Lisbon for the time being",
    "User has been living in Berlin for the summer",
    "User moves to Berlin later this month",
    "User moves to Berlin at the end of the month",
    "User is starting a job as a nurse on Monday",
    "Location: Porto (for the summer of 2026)",
    "User lives in Porto for a short while",
    "User lives in Porto for a while",
    "User lives with friends in Austin until they find a place",
    "Location: Austin (temporary)",
    "User lives in Porto until the new year",
  ])("reads %j as no home or job the user has now", (text) => {
    expect(slotOf(text)?.key ?? "none").not.toMatch(/^(?:residence|job)$/);
    expect(standingValueOf(text)).toBeUndefined();
  });

  it.each([
    ["User moved to Berlin this month", "residence", "berlin"],
    ["User lives in Porto and flies to Berlin next week", "residence", "porto"],
    ["User has been renting a flat in Porto for three months", "residence", "porto"],
    ["User works as a nurse in a day clinic", "job", "nurse"],
    ["User is a nurse for the night shift", "job", "nurse"],
    ["User started as a nurse this week", "job", "nurse"],
    // How long a value has held, a span that says why before when, a beginning or a since.
    ["User has lived in Berlin for eight months", "residence", "berlin"],
    ["User has worked as a nurse for six months", "job", "nurse"],
    ["User relocated to Lisbon for work last month", "residence", "lisbon"],
    ["User got a job as a nurse this week", "job", "nurse"],
    ["User is a nurse since this spring", "job", "nurse"],
    ["User lives in Berlin as of this month", "residence", "berlin"],
    // Another subject's time in a clause of its own, a time of day, an open end.
    ["User lives in Berlin with a flatmate who moves out next week", "residence", "berlin"],
    ["User lives in Leeds and their sister visits next week", "residence", "leeds"],
    ["User works as a bartender at a pub that stays open until 2am", "job", "bartender"],
    ["User is a nurse from 7am until 7pm", "job", "nurse"],
    ["User lives in Berlin until further notice", "residence", "berlin"],
    // A perfect with an adverb or reported, a whole span, a time in a name, "temporary" of something else, a limit
    // in another subject's clause, a time of day or a day of the week.
    ["User has now lived in Berlin for eight months", "residence", "berlin"],
    ["User has lived in Porto for a while", "residence", "porto"],
    ["User mentioned they have lived in Berlin for eight months", "residence", "berlin"],
    ["User has lived in Berlin for the whole year", "residence", "berlin"],
    ["User has been living in Porto this year", "residence", "porto"],
    ["User works as an editor for the Sunday Times", "job", "editor"],
    ["User is a curator of temporary exhibitions at the Tate", "job", "curator of temporary exhibitions"],
    ["User lives in Berlin while their partner works in Munich for six months", "residence", "berlin"],
    ["User lives in Berlin and the lease renews next month", "residence", "berlin"],
    ["User is a nurse from Monday until Friday", "job", "nurse"],
    ["User is a translator for three days each week", "job", "translator"],
  ])("reads %j as the user's %s now: a time of its beginning, another predicate's time, a kind", (text, key, value) => {
    const slot = slotOf(text);
    const standing = standingValueOf(text);
    const read = slot ? [slot.key, slot.value] : standing && [STANDING_SLOT_KEYS[standing.kind], standing.value];
    expect(read).toEqual([key, value]);
  });

  it("neither supersedes the home or job the user has now nor merges with it", () => {
    expect(opsForPair("User lives in Lisbon", "User lives in Porto temporarily")).toEqual([]);
    expect(opsForPair("User works as a nurse", "User is covering as a receptionist this week")).toEqual([]);
    expect(opsForPair("User lives in Lisbon", "User moves to Berlin next month")).toEqual([]);
    expect(opsForPair("User lives in Lisbon", "User moved to Berlin this month")).toEqual(["supersede"]);
  });
});
