import { generateText, isStepCount, Output, streamText, tool } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { planOps, proposeOps } from "@/lib/ai/offline/extraction";
import { MAX_READ_CHARS, readablePart, readMessage, thirdPerson } from "@/lib/ai/offline/intent";
import { OfflineLanguageModel } from "@/lib/ai/offline/model";
import { restates } from "@/lib/ai/offline/restatement";
import { createModelRegistry, languageModel } from "@/lib/ai/registry";
import { buildInstructions } from "@/lib/chat/instructions";
import { parseConfig } from "@/lib/config";
import { managerAnswerSchema, parseManagerAnswer } from "@/lib/memory/extraction/ops";
import { buildExtractionPrompt, EXTRACTION_INSTRUCTIONS } from "@/lib/memory/extraction/prompt";
import { sameSlot } from "@/lib/text/slots";
import { answerForPair, opsForPair } from "../support/offline-consolidation";
import restatementPairs from "../support/restatement-pairs.json";
import restatementPairs2 from "../support/restatement-pairs-2.json";

/** The offline manager's ops as the validator reads them (its answer is their wire form, see proposeOps). */
const plannedOps = (input: Parameters<typeof planOps>[0]) => planOps(input).map((planned) => planned.op);

/** The facts (memory texts) the offline model reads from one user message. */
const factsOf = (message: string) => readMessage(message).facts.map((fact) => fact.content);

describe("offline statement reading", () => {
  it.each([
    [
      "Hi! My name is Priya and I work as a nurse in Toronto.",
      ["User's name is Priya", "User works as a nurse in Toronto"],
    ],
    [
      "I'm allergic to peanuts, so never suggest recipes with them.",
      ["User is allergic to peanuts", "Never suggest recipes with peanuts"],
    ],
    ["Actually I moved to Vancouver last month.", ["User lives in Vancouver"]],
    ["By the way, I live in Lisbon.", ["User lives in Lisbon"]],
  ])("the issue's sentence %j", (message, facts) => {
    expect(factsOf(message)).toEqual(facts);
  });

  it.each([
    ["I am allergic to nuts", ["User is allergic to nuts"]],
    ["I'm a nurse", ["User is a nurse"]],
    ["I have two cats", ["User has two cats"]],
    ["I've been vegetarian for ten years", ["User has been vegetarian for ten years"]],
    ["I work as a teacher", ["User works as a teacher"]],
    ["I watch films with my sister", ["User watches films with their sister"]],
    ["I don't drink coffee", ["User doesn't drink coffee"]],
    ["I usually wake up at 6", ["User usually wakes up at 6"]],
    ["I was born in Porto but I grew up in Lisbon", ["User was born in Porto", "User grew up in Lisbon"]],
    ["My favourite colour is blue", ["User's favourite colour is blue"]],
    ["My sister lives in Lisbon", ["User's sister lives in Lisbon"]],
    ["My wife and I live in Porto", ["User and their wife live in Porto"]],
    ["I prefer tabs over spaces.", ["User prefers tabs over spaces"]],
    ["I live in Porto, not Lisbon", ["User lives in Porto"]],
    ["I moved to São Paulo, Brazil in 2019", ["User lives in São Paulo, Brazil"]],
    ["I moved to a new flat", ["User moved to a new flat"]],
    ["I'm going to a conference in Madrid on 2027-01-03.", ["User is going to a conference in Madrid on 2027-01-03"]],
    // "i" as people type it in chat, inside a fact; not the "i" of "i.e.", nor a numeral.
    [
      "I'm a nurse in Leeds and i want to retrain, i.e. switch careers",
      ["User is a nurse in Leeds and they want to retrain, i.e. switch careers"],
    ],
    ["I live in Oslo and I'd like to move", ["User lives in Oslo and they'd like to move"]],
    ["i have type i diabetes", ["User has type i diabetes"]],
  ])("first-person form %j", (message, facts) => {
    expect(factsOf(message)).toEqual(facts);
  });

  it.each([
    // A comma alone joins clauses: what follows may take back or end what came before ("I'm a pilot, I'm kidding").
    ["I'm a pilot, I'm kidding.", ["User is a pilot, they are kidding"]],
    // Since, because: the clause held true ends where another subject opens one.
    ["Since I moved to Berlin I've been much happier.", ["User lives in Berlin"]],
    ["Because I work as a chef I eat late.", ["User works as a chef"]],
    // The order said, where a quote is said twice: the last value is the one held.
    [
      "It's not that I live in Rome, I live in Milan now, I live in Rome.",
      ["User lives in Milan", "User lives in Rome"],
    ],
    // A part's home or job beside a clause read whole.
    ["The boxes are finally unpacked and I live in Ghent now.", ["User lives in Ghent"]],
  ])("a sentence of several clauses %j", (message, facts) => {
    expect(factsOf(message)).toEqual(facts);
  });

  it.each([
    ["Also, I speak Portuguese.", ["User speaks Portuguese"]],
    ["Oh, and by the way, I'm vegan.", ["User is vegan"]],
    ["Hello, I'm Priya.", ["User's name is Priya"]],
    ["Hey there! I cycle to work.", ["User cycles to work"]],
    ["These days I work as a teacher.", ["User works as a teacher"]],
  ])("lead-ins and greetings are not part of the fact: %j", (message, facts) => {
    expect(factsOf(message)).toEqual(facts);
  });

  it.each([
    [
      "My favourite colour is blue; I speak Portuguese and Spanish.",
      ["User's favourite colour is blue", "User speaks Portuguese and Spanish"],
    ],
    ["I live in Lisbon and work as a nurse", ["User lives in Lisbon", "User works as a nurse"]],
    ["I'm vegan and never eat honey", ["User is vegan", "User never eats honey"]],
    ["I like cats but I'm allergic to them", ["User likes cats", "User is allergic to cats"]],
    ["I hate mushrooms, so don't put them in anything", ["User hates mushrooms", "Don't put mushrooms in anything"]],
    ["I used to live in Berlin but now I live in Munich", ["User used to live in Berlin", "User lives in Munich"]],
  ])("splits %j into single facts", (message, facts) => {
    expect(factsOf(message)).toEqual(facts);
  });

  it.each([
    ["I like salt and pepper", ["User likes salt and pepper"]],
    ["I have two cats and a dog", ["User has two cats and a dog"]],
  ])("keeps %j one fact: the other side of the 'and' is no statement", (message, facts) => {
    expect(factsOf(message)).toEqual(facts);
  });

  it("drops a consequence it cannot resolve to a standing instruction", () => {
    expect(factsOf("I'm allergic to shellfish, so be careful")).toEqual(["User is allergic to shellfish"]);
    expect(factsOf("Never suggest recipes with them.")).toEqual([]);
  });

  it.each([
    "I think so",
    "I'm not sure",
    "I'm fine, thanks",
    "Thanks! That's helpful.",
    "Hi!",
    "Good morning! I'm so tired today",
    "I have a question",
    "I'm looking for a recipe",
    "I'm going to the gym later",
    "I love it so much",
    "My question is about Python",
    "I like that idea",
    "I had a great day",
    "Never mind",
    "Where do I live?",
    "Do you remember that I live in Lisbon?",
  ])("states no fact: %j", (message) => {
    expect(factsOf(message)).toEqual([]);
  });

  it("quotes each fact with the exact words of its clause", () => {
    const message = "Hi! My name is Priya and I work as a nurse in Toronto.";
    const { facts } = readMessage(message);
    expect(facts.map((fact) => fact.quote)).toEqual(["My name is Priya", "I work as a nurse in Toronto"]);
    for (const fact of facts) expect(message).toContain(fact.quote);
  });

  it("keeps the app's instruction phrasings", () => {
    expect(factsOf("Remember that I prefer dark mode")).toEqual(["User prefers dark mode"]);
    expect(factsOf("Can you remember that I like tea?")).toEqual(["User likes tea"]);
    expect(factsOf("From now on, answer in French")).toEqual(["From now on, answer in French"]);
    expect(factsOf("From now on, call me Ada")).toEqual(["From now on, call the user Ada"]);
    expect(factsOf("Always answer in French.")).toEqual(["Always answer in French"]);
  });

  it("reads questions as searches, with the memory's words for the user's own facts", () => {
    expect(readMessage("What are my display preferences?")).toEqual({
      facts: [],
      question: { query: "What are my display preferences", quote: "What are my display preferences?" },
    });
    expect(readMessage("what's my job?").question?.query).toMatch(/job.*works as/);
    expect(readMessage("Where do I live?").question?.query).toContain("lives in");
    expect(readMessage("What do you know about me?").question?.query).toBe("What do you know about me");
  });

  it("reads forget requests, but not 'forget it'", () => {
    expect(readMessage("Forget that I prefer dark mode")).toEqual({
      facts: [],
      forget: { query: "I prefer dark mode", quote: "Forget that I prefer dark mode" },
    });
    expect(readMessage("Oh, forget it.")).toEqual({ facts: [] });
  });

  it("rewrites first person into a statement about the user", () => {
    expect(thirdPerson("I am allergic to nuts")).toBe("User is allergic to nuts");
    expect(thirdPerson("I watch films with my sister")).toBe("User watches films with their sister");
    expect(thirdPerson("I don't drink coffee")).toBe("User doesn't drink coffee");
  });
});

describe("offline reading of a fact by what it says, not by its verb", () => {
  // Verbs no list holds: the home or job slot reads the statement, WordNet the liking, a plural period the habit.
  it.each([
    ["I call Lisbon home.", "User calls Lisbon home"],
    ["I earn a living as a nurse.", "User earns a living as a nurse"],
    ["I retrained as a teacher.", "User retrained as a teacher"],
    ["I took a job as a pilot.", "User took a job as a pilot"],
    ["I relish baking sourdough bread.", "User relishes baking sourdough bread"],
    ["I spend weekends sailing small boats.", "User spends weekends sailing small boats"],
  ])("reads %j as %j", (message, fact) => {
    expect(readMessage(message).facts.map((read) => read.content)).toEqual([fact]);
  });

  it.each(["I call my mother on Sundays.", "I dressed up as a pilot.", "I spend too much."])(
    "keeps nothing of %j",
    (message) => {
      expect(readMessage(message).facts).toEqual([]);
    },
  );
});

describe("offline reading of facts said in another order", () => {
  it.each([
    ["Most weekends you'll find me hiking in the mountains.", "User is hiking in the mountains most weekends"],
    ["My flight to Bologna leaves on 2026-09-15.", "User's flight to Bologna leaves on 2026-09-15"],
    [
      "There's a conference in Lyon on 2027-01-03 that I'm attending.",
      "User is attending a conference in Lyon on 2027-01-03",
    ],
    ["Honestly, sailing small boats is my favourite thing.", "User's favourite thing is sailing small boats"],
    ["We settled in Lyon last spring.", "User settled in Lyon last spring"],
  ])("reads %j as %j", (message, fact) => {
    expect(factsOf(message)).toEqual([fact]);
  });

  it("keeps a name's capital, and reads the user's own pronouns in what someone of theirs does", () => {
    expect(factsOf("Sarah is my sister.")).toEqual(["User's sister is Sarah"]);
    expect(factsOf("My boss calls me every morning.")).toEqual(["User's boss calls the user every morning"]);
  });

  it("keeps a leading word that is no adverb, and a 'there is' without the user in it", () => {
    expect(factsOf("Family, friends and food matter most.")).toEqual([]);
    expect(factsOf("There's a conference in Lyon on 2027-01-03.")).toEqual([]);
  });
});

describe("offline reading of where the user lives", () => {
  it.each([
    ["We settled in Lyon.", "User settled in Lyon"],
    ["I reside in Porto.", "User resides in Porto"],
    ["I've settled in Ghent.", "User has settled in Ghent"],
    ["We've settled in Ghent.", "User has settled in Ghent"],
    ["We've lived in Lyon since 2019.", "User has lived in Lyon since 2019"],
    // A move for a while or in a childhood is no home now.
    ["We moved to Porto when I was a kid.", "User moved to Porto when they were a kid"],
    ["We moved to Porto when I was offered a job at SAP.", "User lives in Porto"],
    ["We moved to Lyon for a semester.", "User moved to Lyon for a semester"],
    ["Big news, we finally did it — we moved to Porto last week!", "User lives in Porto"],
    // "our" includes the user, as "we" does.
    ["I live in Porto with my partner and our dog.", "User lives in Porto with their partner and their dog"],
  ])("reads %j as %j", (message, fact) => {
    expect(factsOf(message)).toEqual([fact]);
  });

  it("ends a fact at a dash between blanks: what follows is a thought of its own", () => {
    expect(factsOf("I've been a nurse for years and we've settled in Porto — the kids love their new school.")).toEqual(
      ["User has been a nurse for years", "User has settled in Porto"],
    );
  });

  it("keeps a sentence whole where what follows a dash takes it back, and a dash between numbers", () => {
    expect(factsOf("I live in Berlin — actually no, I moved to Lisbon last month.")).not.toContain(
      "User lives in Berlin",
    );
    expect(factsOf("I'm a nurse — or I was, until I retired last year.")).not.toContain("User is a nurse");
    expect(factsOf("I work 9 - 5 as a nurse.")).toEqual(["User works 9 - 5 as a nurse"]);
    // A piece with a subject of its own is a statement of its own.
    expect(factsOf("I'm a teacher — I was a lawyer before.")).toEqual([
      "User is a teacher",
      "User was a lawyer before",
    ]);
  });

  it("keeps no passing mention of where the user stayed", () => {
    expect(factsOf("I stayed in a hotel near the station.")).toEqual([]);
    expect(factsOf("We stayed at my aunt's for a week.")).toEqual([]);
  });

  it("reads 'we' as the user only for where they live", () => {
    expect(factsOf("We have a question about pricing.")).toEqual([]);
  });

  it("reads a stay in a named place for a while as a visit, not a home", () => {
    expect(factsOf("I stayed in Lisbon for three days.")).toEqual([]);
  });
});

describe("offline slots", () => {
  it.each([
    ["User lives in Toronto", "User lives in Vancouver"],
    ["The user lives in Toronto", "User lives in Vancouver"],
    ["User moved to Toronto", "User lives in Vancouver"],
    ["User's name is Ada", "User's name is Priya"],
    ["User works as a nurse in Toronto", "User works as a doctor"],
    ["User's job is nurse", "User now works as a teacher"],
    ["User prefers tea over coffee", "User prefers coffee over tea"],
    ["User prefers dark mode", "User prefers light mode"],
    ["User likes coffee", "User doesn't like coffee"],
    ["User's favourite colour is blue", "User's favourite colour is green"],
    // Read by grammar and WordNet, not the table: an occupation noun, a verb of residence and a place.
    ["User is a nurse by trade", "User started a new job as a teacher"],
    ["User became a dentist", "User works as a pilot"],
    ["User settled in Porto", "User lives in Lisbon"],
    ["User has been living in Ghent", "User is based in Bruges"],
  ])("%j and %j hold the same fact", (a, b) => {
    expect(sameSlot(a, b)).toBe(true);
  });

  it.each([
    ["User is allergic to peanuts", "User is allergic to cats"],
    ["User likes tea", "User likes coffee"],
    ["User lives in Lisbon", "User's sister lives in Lisbon"],
    ["User's name is Ada", "User's cat is called Miso"],
    ["User speaks Portuguese", "User speaks Spanish"],
    ["User is a nurse", "User's sister is a teacher"],
    ["User is a nurse", "User is a vegetarian"],
    ["User is a nurse", "User is a good cook"],
    ["User is a nurse", "User volunteers as a tutor"],
    ["User lives in Lisbon", "User lived in Porto for a year"],
    ["User lives in Porto", "User stayed in Lisbon for three days"],
    ["User lives in Porto", "User stays in Lisbon every summer"],
    ["User lives in Lisbon", "User is moving to Porto next month"],
    ["User lives in Lisbon", "User is flying to Porto on 2026-09-15"],
  ])("%j and %j are separate facts", (a, b) => {
    expect(sameSlot(a, b)).toBe(false);
  });
});

describe("offline consolidation", () => {
  it.each([
    ["User spends most weekends hiking in the mountains", "User's favourite thing is hiking in the mountains"],
    ["User loves sailing small boats", "The user enjoys sailing small boats in their free time."],
  ])("merges %j and %j: the same words once the framing of a liking or a habit is dropped", (a, b) => {
    expect(opsForPair(a, b)).toEqual(["merge"]);
  });

  it.each([
    ["User likes dogs", "User likes all dogs"],
    ["User spends most weekends hiking in winter", "User loves hiking in summer"],
    ["User loves hiking", "User hates hiking"],
    ["User is Italian", "User loves Italian"],
  ])("keeps %j and %j apart", (a, b) => {
    expect(opsForPair(a, b)).toEqual([]);
  });

  // A liking said with a noun of feeling (WordNet's liking, love, pleasure…) or of the one who feels it (a fan), with
  // the verb and adjectives before it and the preposition after it, is framing like "loves".
  it.each([
    ["User has a real fondness for sailing small boats", "User loves sailing small boats"],
    ["User is a big fan of sailing small boats", "User enjoys sailing small boats"],
    ["User takes great pleasure in sailing small boats", "User adores sailing small boats"],
    ["User gets a lot of joy from sailing small boats", "User is keen on sailing small boats"],
  ])("merges %j and %j: a liking said with a noun of feeling", (a, b) => {
    expect(opsForPair(a, b)).toEqual(["merge"]);
  });

  it.each([
    ["User has a real hatred of sailing small boats", "User has a real fondness for sailing small boats"],
    ["User likes dogs", "User is a big fan of cats"],
    ["User has dogs", "User loves dogs"],
  ])("keeps %j and %j apart: a feeling is no liking unless WordNet says so, and having is no liking", (a, b) => {
    expect(opsForPair(a, b)).toEqual([]);
  });

  it("merges a liking WordNet defines by pleasure or fondness, not one it does not", () => {
    expect(opsForPair("User relishes sailing small boats", "User loves sailing small boats")).toEqual(["merge"]);
    expect(opsForPair("User dreads sailing small boats", "User loves sailing small boats")).toEqual([]);
  });

  it("merges a habit told by a plural period alone, an adverb of frequency or a duration", () => {
    expect(opsForPair("User spends weekends knitting warm scarves", "User loves knitting warm scarves")).toEqual([
      "merge",
    ]);
    expect(opsForPair("User often goes knitting warm scarves", "User loves knitting warm scarves")).toEqual(["merge"]);
    expect(opsForPair("User has been knitting warm scarves for years", "User likes knitting warm scarves")).toEqual([
      "merge",
    ]);
  });

  it.each([
    ["User rarely goes sailing small boats", "User loves sailing small boats"],
    ["User never goes sailing small boats", "User loves sailing small boats"],
    ["User spends weekends sailing in winter", "User loves sailing in summers"],
    ["User goes to Lisbon on Sundays", "User loves Lisbon"],
  ])("keeps %j and %j apart: not often is no habit, one time no other, and a place keeps its preposition", (a, b) => {
    expect(opsForPair(a, b)).toEqual([]);
  });

  it("merges a liking put after what is liked, or as being into it", () => {
    expect(opsForPair("Sailing small boats is something the user loves", "User enjoys sailing small boats")).toEqual([
      "merge",
    ]);
    expect(opsForPair("Sailing small boats is what the user enjoys most", "User likes sailing small boats")).toEqual([
      "merge",
    ]);
    expect(opsForPair("User is really into sailing small boats", "User likes to go sailing small boats")).toEqual([
      "merge",
    ]);
    expect(opsForPair("User is really into Italian", "User is Italian")).toEqual([]);
  });
});

const memoryKinds = { kinds: ["memory"], allowed: ["insert", "update", "delete"], deleted: [] };
const said = (...texts: string[]) => texts.map((text, index) => ({ id: `u${index + 1}`, role: "user", text }));
const shown = (...texts: string[]) =>
  texts.map((text, index) => ({ id: `mem${index + 1}`, version: index + 2, kind: "memory", text }));

describe("offline consolidation of a pair close in meaning", () => {
  // Close by the vector index, sharing what is liked, each framing it as a liking or a habit, and no other word naming
  // a thing of its own: one fact, in words the framing list does not hold ("a favourite activity of").
  it("merges a liking restated in other words, whichever leg of the finder paired the two", () => {
    const a = "Hiking in the mountains is a favourite activity of the user";
    const b = "User loves hiking in the mountains";
    expect(opsForPair(a, b)).toEqual(["merge"]);
    expect(opsForPair(a, b, "slot")).toEqual(["merge"]);
  });

  // Whose time ("their free time", "their week") is no time of the habit; "on Sundays" is how often, "to clear head"
  // why, "can't stop" a habit kept and "the best part of" a favourite.
  it.each([
    [
      "User spends most of their free time sailing small boats.",
      "User still considers sailing small boats the best part of their week; it is how they unwind after work.",
    ],
    [
      "Loves baking sourdough bread, does it early on Sundays to clear head",
      "Can't stop baking sourdough bread; joined a local group that meets on weekends",
    ],
    // A manager's hedge or a persona block's "the human" (lib/text/user-statement.ts).
    ["User seems to love hiking in the mountains", "User loves hiking in the mountains most weekends"],
    ["User appears to really enjoy hiking in the mountains", "User goes hiking in the mountains most weekends"],
    // A day of the weekend is within it.
    [
      "User's pastime: hiking in the mountains, usually on weekends.",
      "User continues hiking in the mountains on Saturday mornings; user's sister now joins.",
    ],
  ])("merges %j and %j: one habit, framed two ways, whichever was said first", (a, b) => {
    expect(opsForPair(a, b)).toEqual(["merge"]);
    expect(opsForPair(b, a)).toEqual(["merge"]);
  });

  it.each([
    ["User goes to the gym on Mondays", "User goes to the gym on Fridays"],
    ["User goes running every morning", "User goes running every evening"],
    ["User loves hiking in the mountains most weekends", "User loves hiking in the mountains every summer"],
    ["User goes hiking in the mountains on Saturdays", "User goes hiking in the mountains on Sundays"],
    ["User spends their weekends hiking in the mountains", "User goes hiking in the mountains on weekday evenings"],
    // A purpose that names someone or something is part of a habit of its own.
    ["User goes to yoga on Mondays", "User goes to yoga on Mondays to relax with their friend Ana"],
    ["User goes running every morning", "User goes running every morning to train for the Berlin marathon"],
  ])("keeps %j and %j apart: two times of one habit are two habits", (a, b) => {
    expect(opsForPair(a, b, "slot")).toEqual([]);
  });

  it.each([
    "User's sister loves hiking in the mountains",
    "User loves hiking in the mountains with friends",
    "User loves hiking in the mountains in Norway",
    "User loves hiking in the mountains in winter",
    "User used to love hiking in the mountains",
    "User wants to try hiking in the mountains",
    "User rarely goes hiking in the mountains",
    "User teaches hiking in the mountains",
    "User sells gear for hiking in the mountains",
    "User went hiking in the mountains on 2026-01-03",
    "User's club loves hiking in the mountains",
    "User loved hiking in the mountains back then",
    "User is eager to go hiking in the mountains",
    "User hardly ever goes hiking in the mountains",
    "User is keen to go hiking in the mountains to clear their head",
  ])("keeps %j apart from the liking: a person, a thing, a place, a time, a former time or another verb", (text) => {
    expect(opsForPair(text, "User loves hiking in the mountains")).toEqual([]);
  });

  // WordNet defines "hike" as "walk a long way, as for pleasure…": a thing done for pleasure is no verb of liking.
  it("merges a liking of a thing WordNet defines as done for pleasure, restated", () => {
    expect(opsForPair("User loves hiking", "User really enjoys hiking", "duplicate")).toEqual(["merge"]);
  });

  it("keeps two likings apart when each qualifies the thing liked its own way", () => {
    expect(
      opsForPair("User loves spicy food from street vendors", "User enjoys sweet food from street vendors"),
    ).toEqual([]);
  });

  // Being into a thing is liking it, and an aside after a ";" is kept in the merged memory, not compared.
  it("merges a liking said as being into it with an aside about someone else, not someone else's liking", () => {
    const into = "User is very into hiking in the mountains; their partner teases them about it";
    expect(opsForPair(into, "User's weekends are for hiking in the mountains")).toEqual(["merge"]);
    expect(opsForPair("User's sister is into hiking in the mountains", "User loves hiking in the mountains")).toEqual(
      [],
    );
  });

  it("merges a liking said after what is liked, spent on every free weekend, with a habit said with a clause of time", () => {
    const spent = "For the user, hiking in the mountains is how every free weekend is spent";
    expect(opsForPair(spent, "User goes hiking in the mountains whenever they can")).toEqual(["merge"]);
    expect(opsForPair("User spent a weekend hiking in the mountains", "User loves hiking in the mountains")).toEqual(
      [],
    );
  });

  // Hosted managers add an aside in brackets or as a second predicate, put a label first, and tell how often or how
  // long in a clause of its own: each is framing, compared on the statement's main clause (lib/text/clauses.ts).
  it.each([
    [
      "Hobby: sailing small boats (a couple of times a week)",
      "Interests: still sailing small boats as often as possible",
    ],
    [
      "The user is an avid enthusiast of knitting warm scarves and finds it restorative.",
      "The user remains very fond of knitting warm scarves and pursues it whenever time permits.",
    ],
    ["Has been baking sourdough bread for about ten years", "Still baking sourdough bread every chance they get."],
    [
      "User enjoys hiking in the mountains; spends most weekends on it.",
      "User is still regularly hiking in the mountains, usually on free Saturdays.",
    ],
    // Idioms of a liking or a habit, read as the plain words they stand for (restatement.ts IDIOMS).
    ["User finds baking sourdough bread relaxing.", "User can't get enough of baking sourdough bread."],
    ["User is really into playing chess online these days.", "User's go-to weekend activity is playing chess online."],
    ["Loves knitting warm scarves", "User describes knitting warm scarves as their happy place."],
    [
      "User took up restoring old bicycles a few years ago and still loves it.",
      "For the user, restoring old bicycles remains one of their favourite pastimes.",
    ],
    ["User often winds down in the evening by playing chess online.", "User really enjoys playing chess online."],
    [
      "User is a big fan of baking sourdough bread and experimenting with different flours.",
      "User loves baking sourdough bread.",
    ],
    // A liking narrowed after a comma is a liking of what the focus names.
    [
      "Is an avid tinkerer, especially fond of restoring old bicycles.",
      "User has been restoring old bicycles for years.",
    ],
    // An aside on one side only adds to the one fact.
    ["User enjoys birdwatching.", "Hobby: birdwatching (heads out with binoculars most weekends)"],
  ])("merges %j and %j: asides, labels, idioms and how often or how long are framing", (a, b) => {
    expect(opsForPair(a, b)).toEqual(["merge"]);
  });

  it.each([
    ["User loves hiking in the mountains whenever their sister Ana visits", "User loves hiking in the mountains"],
    ["User goes hiking in the mountains whenever it's not raining", "User loves hiking in the mountains"],
    ["User teaches hiking in the mountains (twice a week)", "User loves hiking in the mountains"],
    ["User's sister can't get enough of baking sourdough bread", "User loves baking sourdough bread"],
    ["User took up baking sourdough bread on 2026-01-03 for one class", "User loves baking sourdough bread"],
    ["User would like to make time for baking sourdough bread", "User loves baking sourdough bread"],
    ["User used to be really into baking sourdough bread these days", "User loves baking sourdough bread"],
  ])("keeps %j apart from %j: a name, a negation, another verb, a date, a wish or a past beside framing", (a, b) => {
    expect(opsForPair(a, b)).toEqual([]);
  });

  // Two sets of 60 near-misses written blind to the rules beside 60 restatements each (docs/performance.md, "Memory
  // hygiene"): someone else's liking, a past, a wish, a one-off, another relation, variant, time, place or companion.
  // None is one fact.
  it.each([...restatementPairs.different, ...restatementPairs2.different])("never merges %j and %j", (a, b) => {
    expect(opsForPair(a, b)).not.toContain("merge");
  });

  it.each([
    ["User takes ibuprofen whenever they have a migraine", "User takes ibuprofen whenever they have back pain"],
    ["User drinks coffee as much as possible", "User drinks coffee as much as the doctor allows"],
    ["User loves board games (especially Catan)", "User loves board games (especially chess)"],
    ["User goes swimming at the lake (Mondays)", "User goes swimming at the lake (Fridays)"],
    ["User loves reading mystery novels (Agatha Christie)", "User loves reading mystery novels (Dan Brown)"],
    ["User drinks coffee (black)", "User drinks coffee (with milk)"],
    // An aside that only says the liking holds leaves the other's weighed as one on its own.
    ["User loves sailing (still loves it)", "User loves sailing (hates it now)"],
    ["User has a sister (older)", "User has a sister (younger)"],
    ["User enjoys cooking Italian food and hates spicy food", "User enjoys cooking Italian food and likes spicy food"],
    ["User loves playing with cats and dogs", "User loves playing with cats and birds"],
    ["User loves Italian food, especially fresh pasta dishes", "User loves Italian food, especially thin-crust pizza"],
    ["User goes sailing small boats whenever their doctor allows", "User loves sailing small boats"],
    ["User goes sailing small boats whenever their knee allows", "User loves sailing small boats"],
    // A focus after a comma keeps who likes it, a negation or a wish, and is a focus only when an activity of its own.
    ["User's daughter loves animals, especially riding horses on the beach", "User loves riding horses on the beach"],
    ["User doesn't like most sports, especially watching football on TV", "User likes watching football on TV"],
    [
      "User would love to try water sports, especially kayaking on mountain lakes",
      "User enjoys kayaking on mountain lakes",
    ],
    ["User loves cooking for their grandmother, especially baking apple pies", "User loves baking apple pies"],
    [
      "User enjoys cooking, especially Thai curries with fresh herbs",
      "User enjoys eating out, especially Thai curries with fresh herbs",
    ],
    [
      "User is keen to try water sports, especially kayaking on mountain lakes",
      "User enjoys kayaking on mountain lakes",
    ],
    ["User stopped enjoying water sports, especially sailing small boats", "User enjoys sailing small boats"],
    [
      "User enjoys spending time with their grandchildren, especially reading bedtime stories",
      "User enjoys reading bedtime stories",
    ],
    ["User goes swimming in the sea whenever the weather is warm", "User loves swimming in the sea"],
    // An aside on one side only that takes the fact back or thins it.
    ["User plays guitar (mostly classical).", "User plays guitar (no longer)."],
    ["User eats meat.", "User eats meat (trying to quit)."],
    ["Hobby: birdwatching", "Hobby: birdwatching (rarely)"],
    ["User drinks coffee.", "User drinks coffee (switched to tea)."],
    ["User plays tennis.", "User plays tennis (gave it up)."],
  ])("keeps %j and %j apart: a condition, or asides that name or time things their own way", (a, b) => {
    expect(opsForPair(a, b)).toEqual([]);
  });

  it.each([
    [
      "Hobby: hiking in the mountains (still loves it very much)",
      "Hobby: hiking in the mountains (every weekend, with their brother)",
      "Hobby: hiking in the mountains (still loves it very much) (every weekend, with their brother)",
    ],
    [
      "User loves hiking in the mountains and finds it restorative",
      "User loves hiking in the mountains and pursues it whenever they can.",
      "User loves hiking in the mountains and pursues it whenever they can; finds it restorative",
    ],
    // An aside that only says the liking holds leaves the other's to add.
    [
      "User loves sailing (still loves it very much)",
      "User loves sailing (with their brother)",
      "User loves sailing (still loves it very much) (with their brother)",
    ],
    // An aside the standing memory already holds is not written twice.
    ["User enjoys birdwatching (most weekends)", "Hobby: birdwatching (most weekends)", null],
  ])("merges %j and %j in one wording that keeps each aside: %j", (a, b, text) => {
    expect(answerForPair(a, b)).toMatchObject([{ op: "merge", text }]);
  });

  // A verb of reporting tells who said it ("mentioned that"), and one of easing off frames a habit ("to unwind").
  it.each([
    ["User mentioned that they go hiking in the mountains to unwind", ["merge"]],
    ["User said that hiking in the mountains on weekends is their favourite way to relax", ["merge"]],
    ["User mentioned that they quit hiking in the mountains", []],
    ["User mentioned that their sister loves hiking in the mountains", []],
    ["User said they want to try hiking in the mountains", []],
    ["User finds hiking in the mountains relaxing", ["merge"]],
    ["User considers hiking in the mountains their favourite hobby", ["merge"]],
    ["User is happiest when hiking in the mountains", ["merge"]],
    ["User has been hiking in the mountains for years and still loves it", ["merge"]],
    ["User finds hiking in the mountains exhausting", []],
    ["User considers hiking in the mountains dangerous", []],
    ["User is unhappy when hiking in the mountains", []],
    ["User spends money on hiking in the mountains", []],
    ["Hiking in the mountains remains the user's favourite pastime", ["merge"]],
    ["User continues to enjoy hiking in the mountains", ["merge"]],
    ["User still loves hiking in the mountains as much as ever", ["merge"]],
    ["User keeps going hiking in the mountains every weekend", ["merge"]],
    ["User reiterated their love of hiking in the mountains", ["merge"]],
    ["User's sister still loves hiking in the mountains", []],
    ["User is going hiking in the mountains on 2026-01-05", []],
  ])(
    "reads %j beside a liking of the same thing as %j: a report of what the user said or how they see it",
    (a, ops) => {
      expect(opsForPair(a, "User loves hiking in the mountains")).toEqual(ops);
    },
  );

  // An adjective WordNet defines by interest, enthusiasm, devotion or dependence, and by no fear, anger or weariness.
  it.each([
    ["User is obsessed with hiking in the mountains", ["merge"]],
    ["User is hooked on hiking in the mountains", ["merge"]],
    ["User is bored with hiking in the mountains", []],
    ["User is afraid of hiking in the mountains", []],
    ["User's sister is obsessed with hiking in the mountains", []],
    ["User is indifferent to hiking in the mountains", []],
    ["User would love to try hiking in the mountains", []],
    ["User would like to go hiking in the mountains", []],
    ["User is curious about hiking in the mountains", []],
  ])("reads %j beside a liking of the same thing as %j: an adjective of eager attitude frames a liking", (a, ops) => {
    expect(opsForPair(a, "User loves hiking in the mountains")).toEqual(ops);
  });

  // A home or a job read by its kind (a place name beside a word of dwelling, an occupation said of the user), however
  // the statement is worded: the newer supersedes the older (lib/text/standing-values.ts).
  it.each([
    ["User has been renting a small place in Lisbon for about three years", "User signed the lease on a flat in Porto"],
    ["User's day job is being a nurse", "User handed in their notice and is starting as a teacher"],
    ["User is a nurse working night shifts", "User switched careers and is now a teacher at a primary school"],
    ["User's apartment is near the river in Lisbon", "User's new apartment is in Porto"],
    ["User is based in Lisbon", "User is now a Porto resident"],
    ["User mentioned living in Lisbon for a few years", "User shared that they recently moved to Porto"],
    ["User lives in Lisbon", "User's new place is in Porto"],
    ["User lives in Lisbon", "User recently moved into a flat in Porto"],
    ["User lives in Lisbon", "User moved house and now lives with their partner in Porto"],
    ["User lives in Lisbon", "User moved from Lisbon to Porto"],
    ["User lives in Lisbon", "User moved with their family to Porto"],
    ["User lives in Lisbon", "User is renting a flat in Porto next to their parents"],
    ["User is a barista at a cafe", "User is a nurse at St Mary's"],
    ["User lives in Lisbon", "User is now based in Madrid"],
    ["User lives in Lisbon", "User and their partner moved to Porto"],
    ["User is a teacher", "User was hired as a nurse"],
  ])("supersedes %j with %j: two values of one kind the user holds one of", (a, b) => {
    expect(opsForPair(a, b)).toEqual(["supersede"]);
  });

  it.each([
    ["User's sister lives in Porto", "User has been renting a small place in Lisbon"],
    ["User visited a friend's house in Turin", "User lives in Porto"],
    ["User is moving to Madrid", "User lives in Porto"],
    ["User loves Lisbon", "User signed the lease on a flat in Porto"],
    ["User is married to a pilot", "User's day job is being a nurse"],
    ["User quit their job as a chef", "User's day job is being a nurse"],
    ["User is a good cook", "User's day job is being a nurse"],
    ["User has a holiday home in the Algarve", "User lives in Porto"],
    ["User's parents have a summer house in Faro", "User signed the lease on a flat in Porto"],
    ["User is staying at their sister's flat in Braga this week", "User lives in Porto"],
    ["User rented a car in Lisbon", "User lives in Porto"],
    ["User's former flat was in Lisbon", "User signed the lease on a flat in Porto"],
    ["User's old apartment in Lisbon had a balcony", "User lives in Porto"],
    ["User has a second home in Madrid", "User lives in Porto"],
    // Each of these, the newer, beside "User lives in Lisbon" or "User is a nurse": a place not tied to the user's
    // dwelling, someone else's, a dwelling owned, rented out or kept aside, a past, a future, an aim, a second job.
    ...[
      "User feels at home in Porto",
      "User works at a nursing home in Porto",
      "User cleans houses in Porto for a living",
      "User lives alone and works at Google",
      "User lives next to Ana",
      "User helped their sister move to Porto",
      "User and their sister's family moved to Porto",
      "User drove their mom to her new apartment in Porto",
      "User's grandmother's house is in Braga",
      "User's beach house is in Faro",
      "User rented a cottage in Cornwall for the summer",
      "User is renting out their flat in Porto",
      "User owns an apartment in Madrid that they rent out",
      "User bought a house in Porto for their parents",
      "User was living in Porto",
      "User will move to Porto",
      "User is going to move to Porto",
      "User's house has a big garden",
      "User moved their parents to Porto",
      "User moved out of their flat in Porto",
      "User rented an apartment in Rome for their holiday",
      "User rented a villa in Tuscany for two weeks",
      "User is looking to rent a flat in Porto",
      "User rents their flat in Porto to tourists",
      "User stays with their grandparents in Porto every summer",
      "User spends weekends at their cabin in Tahoe",
    ].map((text) => ["User lives in Lisbon", text]),
    ...[
      "User was a teacher in their twenties",
      "User's previous job was as a teacher",
      "User's last job was as a teacher",
      "User is studying to become a doctor",
      "User is training to be a pilot",
      "User's dream is to be a teacher",
      "User is applying for a job as a teacher",
      "User is as stubborn as a farmer",
      "User is a volunteer firefighter",
      "User is also a photographer",
      "User worked as a waiter during university",
      "User mentioned that their wife is a doctor",
      "User lives with their partner, who is a doctor",
      "User has a friend who is a lawyer",
    ].map((text) => ["User is a nurse", text]),
  ])("keeps %j and %j: someone else's value, a visit, a plan, a liking or a job no longer held is none", (a, b) => {
    expect(opsForPair(a, b)).toEqual([]);
  });
});

describe("offline memory manager", () => {
  it("splits a message into single facts, each quoting its clause", () => {
    const ops = plannedOps({
      ...memoryKinds,
      existing: [],
      messages: said("Hi! My name is Priya and I work as a nurse in Toronto."),
    });
    expect(ops).toEqual([
      {
        op: "insert",
        kind: "memory",
        content: { content: "User's name is Priya" },
        messageId: "u1",
        quote: "My name is Priya",
      },
      {
        op: "insert",
        kind: "memory",
        content: { content: "User works as a nurse in Toronto" },
        messageId: "u1",
        quote: "I work as a nurse in Toronto",
      },
    ]);
  });

  it("keeps an allergy and the standing instruction that follows from it", () => {
    const ops = plannedOps({
      ...memoryKinds,
      existing: [],
      messages: said("I'm allergic to peanuts, so never suggest recipes with them."),
    });
    expect(ops.map((op) => op.op === "insert" && op.content)).toEqual([
      { content: "User is allergic to peanuts" },
      { content: "Never suggest recipes with peanuts" },
    ]);
  });

  it("updates where the user lives when they say they moved, with the version it was shown", () => {
    const ops = plannedOps({
      ...memoryKinds,
      existing: shown("User's name is Priya", "User lives in Toronto"),
      messages: said("Actually I moved to Vancouver last month."),
    });
    expect(ops).toEqual([
      {
        op: "update",
        id: "mem2",
        expectedVersion: 3,
        content: { content: "User lives in Vancouver" },
        messageId: "u1",
        quote: "I moved to Vancouver last month",
        reason: "The user stated a new value for this.",
      },
    ]);
  });

  it("closes the memory of a job the user says they left, as of when they said it, and says so", () => {
    const ops = plannedOps({
      ...memoryKinds,
      existing: shown("User lives in Lisbon", "User is a dentist"),
      messages: [{ id: "u1", role: "user", text: "I'm no longer a dentist.", createdAt: "2026-12-01T10:00:00.000Z" }],
    });
    expect(ops).toEqual([
      {
        op: "update",
        id: "mem2",
        expectedVersion: 3,
        content: { content: "User is no longer a dentist" },
        messageId: "u1",
        quote: "I'm no longer a dentist",
        reason: "The user said this no longer holds.",
        validFrom: "2026-12-01T10:00:00.000Z",
      },
    ]);
  });

  it("closes the memory of a job left for another, and keeps no memory of an end nothing held", () => {
    const existing = shown("User lives in Lisbon", "User is a dentist");
    const message = said("I left my job as a dentist and became a baker.");
    expect(plannedOps({ ...memoryKinds, existing, messages: message })).toMatchObject([
      { op: "update", id: "mem2", content: { content: "User left their job as a dentist" } },
      { op: "insert", content: { content: "User became a baker" } },
    ]);
    expect(plannedOps({ ...memoryKinds, existing: existing.slice(0, 1), messages: message })).toMatchObject([
      { op: "insert", content: { content: "User became a baker" } },
    ]);
  });

  it("keeps a job turned down as a fact of its own, beside the job the user has", () => {
    const existing = shown("User works as a nurse");
    const ops = plannedOps({ ...memoryKinds, existing, messages: said("I declined a job as a pilot.") });
    expect(ops).toMatchObject([{ op: "insert", content: { content: "User declined a job as a pilot" } }]);
  });

  it.each([
    // The memory says more than the value ended, or the end says less or other than that value.
    ["User is a dentist and lives in Lyon", "I'm no longer a dentist.", "User is no longer a dentist"],
    ["User is a nurse", "I'm no longer a nurse in the ICU.", "User is no longer a nurse in the ICU"],
  ])("closes no memory %j for %j", (memory, message, inserted) => {
    const ops = plannedOps({ ...memoryKinds, existing: shown(memory), messages: said(message) });
    expect(ops).toMatchObject([{ op: "insert", content: { content: inserted } }]);
  });

  it("inserts a fact stated after a lead-in", () => {
    const ops = plannedOps({ ...memoryKinds, existing: [], messages: said("By the way, I live in Lisbon.") });
    expect(ops).toMatchObject([
      { op: "insert", content: { content: "User lives in Lisbon" }, quote: "I live in Lisbon" },
    ]);
  });

  it("updates a changed name, job and preference instead of adding contradictions", () => {
    const ops = plannedOps({
      ...memoryKinds,
      existing: shown("User's name is Ada", "User works as a nurse", "User prefers dark mode"),
      messages: said("Actually, my name is Priya.", "I work as a doctor now.", "I prefer light mode"),
    });
    expect(ops.map((op) => op.op === "update" && [op.id, op.content])).toEqual([
      ["mem1", { content: "User's name is Priya" }],
      ["mem2", { content: "User works as a doctor" }],
      ["mem3", { content: "User prefers light mode" }],
    ]);
  });

  it("adds a second allergy rather than replacing the first", () => {
    const ops = plannedOps({
      ...memoryKinds,
      existing: shown("User is allergic to peanuts"),
      messages: said("I'm also allergic to shellfish."),
    });
    expect(ops).toMatchObject([{ op: "insert", content: { content: "User is allergic to shellfish" } }]);
  });

  it("proposes nothing for what a memory already says, nor for questions, small talk or the assistant", () => {
    const ops = plannedOps({
      ...memoryKinds,
      existing: shown("User's name is Ada"),
      messages: [
        { id: "u1", role: "user", text: "My name is Ada. Where do I live? I think so. Thanks!" },
        { id: "a1", role: "assistant", text: "I live in Lisbon and my name is Bot." },
      ],
    });
    expect(ops).toEqual([]);
  });

  it("retires a contradicting memory when the chat already saved the new value", () => {
    const input = {
      ...memoryKinds,
      existing: shown("User lives in Toronto", "User lives in Vancouver"),
      messages: said("I moved to Vancouver last month."),
    };
    expect(planOps(input)).toEqual([
      {
        op: {
          op: "delete",
          id: "mem1",
          reason: 'The user said "I moved to Vancouver last month", which replaces this.',
          messageId: "u1",
          quote: "I moved to Vancouver last month",
        },
        source: { messageId: "u1", quote: "I moved to Vancouver last month" },
      },
    ]);
  });

  it("inserts only the last of two values one run states for the same fact", () => {
    const ops = plannedOps({
      ...memoryKinds,
      existing: [],
      messages: said("I live in Lisbon.", "Actually, I moved to Porto."),
    });
    expect(ops).toEqual([
      {
        op: "insert",
        kind: "memory",
        content: { content: "User lives in Porto" },
        messageId: "u2",
        quote: "I moved to Porto",
      },
    ]);
  });

  it("deletes the best match on 'forget', citing the user's words in the reason and the op's source", () => {
    const input = {
      ...memoryKinds,
      existing: shown("User lives in Lisbon", "User prefers dark mode"),
      messages: said("Please forget that I prefer dark mode."),
    };
    expect(planOps(input)).toEqual([
      {
        op: {
          op: "delete",
          id: "mem2",
          reason: 'The user asked to forget this: "Please forget that I prefer dark mode."',
          messageId: "u1",
          quote: "Please forget that I prefer dark mode.",
        },
        source: { messageId: "u1", quote: "Please forget that I prefer dark mode." },
      },
    ]);
  });

  it("does not restate a fact the user deleted", () => {
    const input = {
      ...memoryKinds,
      deleted: ["User lives in Lisbon"],
      existing: [],
      messages: said("I live in Lisbon"),
    };
    expect(proposeOps(input)).toEqual({ ops: [] });
  });

  it("with updates disabled, inserts the new value rather than losing it", () => {
    const ops = plannedOps({
      ...memoryKinds,
      allowed: ["insert"],
      existing: shown("User lives in Toronto"),
      messages: said("I live in Vancouver"),
    });
    expect(ops).toMatchObject([{ op: "insert", content: { content: "User lives in Vancouver" } }]);
  });

  it("answers the manager's prompt with ops the output schema accepts, through the AI SDK", async () => {
    const { output } = await generateText({
      model: new OfflineLanguageModel(),
      instructions: EXTRACTION_INSTRUCTIONS,
      prompt: buildExtractionPrompt({
        ...memoryKinds,
        existing: shown("User lives in Toronto"),
        messages: said("Hello, I'm Priya. I moved to Vancouver last month and I'm allergic to peanuts."),
      }),
      output: Output.object({ schema: managerAnswerSchema, name: "memory_ops" }),
    });
    const { ops, rejected } = parseManagerAnswer(output);
    expect(rejected).toEqual([]);
    expect(ops.map((op) => [op.op, op.op !== "delete" && op.content])).toEqual([
      ["insert", { content: "User's name is Priya" }],
      ["update", { content: "User lives in Vancouver" }],
      ["insert", { content: "User is allergic to peanuts" }],
    ]);
    const message = "Hello, I'm Priya. I moved to Vancouver last month and I'm allergic to peanuts.";
    for (const op of ops) expect(message).toContain(op.quote);
  });
});

/** Tools with the names and output shapes of lib/memory's, backed by an array, to drive the model's steps. */
/** A memory as recall puts it in front of the model (lib/memory/contract/vocabulary.ts). */
const recalledMemory = (id: string, text: string) => ({
  id,
  text,
  kind: "memory",
  namespace: [],
  updatedAt: "2026-01-01T00:00:00.000Z",
  score: 1,
});

function fakeMemoryTools() {
  const saved: Array<{ id: string; text: string }> = [];
  const manage_memory = tool({
    description: "Create, update or delete a memory",
    inputSchema: z.object({
      action: z.enum(["create", "update", "delete"]),
      content: z.string().optional(),
      id: z.string().optional(),
      validFrom: z.string().optional(),
    }),
    execute: async ({ action, content, id }) => {
      if (action === "create") {
        const memory = { id: `m${saved.length + 1}`, text: content ?? "" };
        saved.push(memory);
        return { action: "created", id: memory.id, text: memory.text, version: 1 };
      }
      const index = saved.findIndex((m) => m.id === id);
      if (index < 0) throw new Error("No memory with that id");
      if (action === "update") {
        saved[index] = { id: saved[index]!.id, text: content ?? "" };
        return { action: "updated", id: saved[index]!.id, text: saved[index]!.text, version: 2 };
      }
      const [removed] = saved.splice(index, 1);
      return { action: "deleted", id: removed!.id, text: removed!.text, version: 2 };
    },
  });
  const search_memory = tool({
    description: "Search memories",
    inputSchema: z.object({ query: z.string(), limit: z.number().optional() }),
    execute: async ({ query }) => {
      const words = query.toLowerCase().split(/\W+/);
      const hits = saved.filter((m) => words.some((w) => w.length > 3 && m.text.toLowerCase().includes(w.slice(0, 5))));
      return hits.map((memory) => ({ id: memory.id, kind: "memory", text: memory.text, score: 1 }));
    },
  });
  return { saved, tools: { manage_memory, search_memory } };
}

describe("OfflineLanguageModel", () => {
  it("saves, answers from search results, and forgets, over several tool steps", async () => {
    const model = new OfflineLanguageModel();
    const { saved, tools } = fakeMemoryTools();
    const run = (prompt: string) => generateText({ model, tools, prompt, stopWhen: isStepCount(5) });

    const save = await run("Remember that I prefer dark mode");
    expect(saved).toEqual([{ id: "m1", text: "User prefers dark mode" }]);
    expect(save.text).toBe("Got it. I'll remember: User prefers dark mode.");

    const ask = await run("What do I prefer for display mode?");
    expect(ask.steps).toHaveLength(2);
    expect(ask.text).toContain("User prefers dark mode");

    const forget = await run("Forget that I prefer dark mode");
    expect(forget.steps).toHaveLength(3);
    expect(saved).toEqual([]);
    expect(forget.text).toBe("Done. I've forgotten: User prefers dark mode.");
  });

  it("streams text deltas and tool calls through streamText", async () => {
    const { tools } = fakeMemoryTools();
    const result = streamText({
      model: new OfflineLanguageModel(),
      tools,
      prompt: "My name is Ada",
      stopWhen: isStepCount(3),
    });
    const types = new Set<string>();
    for await (const part of result.stream) types.add(part.type);
    expect([...types]).toEqual(expect.arrayContaining(["tool-input-start", "tool-call", "tool-result", "text-delta"]));
    expect(await result.text).toBe("Got it. I'll remember: User's name is Ada.");
  });

  it("reports tool errors instead of pretending", async () => {
    const { tools } = fakeMemoryTools();
    const failing = {
      ...tools,
      manage_memory: tool({
        inputSchema: z.object({ action: z.string(), content: z.string().optional() }),
        execute: async (): Promise<string> => {
          throw new Error("database unavailable");
        },
      }),
    };
    const result = await generateText({
      model: new OfflineLanguageModel(),
      tools: failing,
      prompt: "Remember that I like tea",
      stopWhen: isStepCount(3),
    });
    expect(result.text).toBe("I couldn't save that: database unavailable");
  });

  it("saves every fact of a message, in one step of parallel tool calls", async () => {
    const { saved, tools } = fakeMemoryTools();
    const result = await generateText({
      model: new OfflineLanguageModel(),
      tools,
      prompt: "Hi! My name is Priya and I work as a nurse in Toronto.",
      stopWhen: isStepCount(5),
    });
    expect(saved.map((memory) => memory.text)).toEqual(["User's name is Priya", "User works as a nurse in Toronto"]);
    expect(result.steps).toHaveLength(2);
    expect(result.steps[0]!.toolCalls).toHaveLength(2);
    expect(result.text).toBe("Got it. I'll remember:\n- User's name is Priya\n- User works as a nurse in Toronto");
  });

  it("saves an allergy and the instruction that follows from it", async () => {
    const { saved, tools } = fakeMemoryTools();
    await generateText({
      model: new OfflineLanguageModel(),
      tools,
      prompt: "I'm allergic to peanuts, so never suggest recipes with them.",
      stopWhen: isStepCount(5),
    });
    expect(saved.map((memory) => memory.text)).toEqual([
      "User is allergic to peanuts",
      "Never suggest recipes with peanuts",
    ]);
  });

  it("updates the recalled memory a correction replaces", async () => {
    const { saved, tools } = fakeMemoryTools();
    saved.push({ id: "m1", text: "User lives in Toronto" });
    const result = await generateText({
      model: new OfflineLanguageModel(),
      tools,
      instructions: buildInstructions({
        recalled: [recalledMemory("m1", "User lives in Toronto")],
      }),
      prompt: "Actually I moved to Vancouver last month.",
      stopWhen: isStepCount(5),
    });
    // "last month", read from today: the first of the previous month, so the tool supersedes.
    expect(result.steps[0]!.toolCalls.map((call) => call.input)).toEqual([
      {
        action: "update",
        id: "m1",
        content: "User lives in Vancouver",
        validFrom: expect.stringMatching(/^\d{4}-\d{2}-01$/),
      },
    ]);
    expect(saved).toEqual([{ id: "m1", text: "User lives in Vancouver" }]);
    expect(result.text).toBe("Updated: User lives in Vancouver.");
  });

  it("says so when a recalled memory already holds the fact, without calling a tool", async () => {
    const { tools } = fakeMemoryTools();
    const result = await generateText({
      model: new OfflineLanguageModel(),
      tools,
      instructions: buildInstructions({
        recalled: [recalledMemory("m1", "User lives in Lisbon")],
      }),
      prompt: "By the way, I live in Lisbon.",
      stopWhen: isStepCount(5),
    });
    expect(result.steps).toHaveLength(1);
    expect(result.text).toBe("I already know that: User lives in Lisbon.");
  });

  it("answers questions about the user's facts from search", async () => {
    const model = new OfflineLanguageModel();
    const { tools } = fakeMemoryTools();
    const run = (prompt: string) => generateText({ model, tools, prompt, stopWhen: isStepCount(5) });
    await run("I work as a nurse. I live in Lisbon.");
    expect((await run("what's my job?")).text).toBe("Here is what I remember:\n- User works as a nurse");
    expect((await run("Where do I live?")).text).toBe("Here is what I remember:\n- User lives in Lisbon");
    const general = await run("What do you know about me?");
    expect(general.steps[0]!.toolCalls.map((call) => call.input)).toEqual([
      { query: "What do you know about me", limit: 5 },
    ]);
  });

  it("saves a fact and answers the question asked with it", async () => {
    const { saved, tools } = fakeMemoryTools();
    const result = await generateText({
      model: new OfflineLanguageModel(),
      tools,
      prompt: "I moved to Lisbon. Where do I live?",
      stopWhen: isStepCount(5),
    });
    expect(saved.map((memory) => memory.text)).toEqual(["User lives in Lisbon"]);
    expect(result.steps.map((step) => step.toolCalls.map((call) => call.toolName))).toEqual([
      ["manage_memory"],
      ["search_memory"],
      [],
    ]);
    expect(result.text).toBe(
      "Got it. I'll remember: User lives in Lisbon.\n\nHere is what I remember:\n- User lives in Lisbon",
    );
  });

  it("forgets, then saves what the same message states instead", async () => {
    const { saved, tools } = fakeMemoryTools();
    saved.push({ id: "m1", text: "User lives in Lisbon" });
    const result = await generateText({
      model: new OfflineLanguageModel(),
      tools,
      instructions: buildInstructions({
        recalled: [recalledMemory("m1", "User lives in Lisbon")],
      }),
      prompt: "Forget that I live in Lisbon. I live in Porto.",
      stopWhen: isStepCount(5),
    });
    expect(saved.map((memory) => memory.text)).toEqual(["User lives in Porto"]);
    expect(result.text).toBe(
      "Done. I've forgotten: User lives in Lisbon.\n\nGot it. I'll remember: User lives in Porto.",
    );
  });

  it.each(["Hi!", "I think so", "Thanks, that's helpful."])("calls no tool for small talk: %j", async (prompt) => {
    const { saved, tools } = fakeMemoryTools();
    const result = await generateText({ model: new OfflineLanguageModel(), tools, prompt, stopWhen: isStepCount(5) });
    expect(result.steps).toHaveLength(1);
    expect(result.text).toMatch(/^I'm the offline model/);
    expect(saved).toEqual([]);
  });

  it("never saves what the assistant said", async () => {
    const { saved, tools } = fakeMemoryTools();
    await generateText({
      model: new OfflineLanguageModel(),
      tools,
      messages: [
        { role: "user", content: "Hello" },
        { role: "assistant", content: "I live in Lisbon and my name is Bot." },
        { role: "user", content: "Thanks!" },
      ],
      stopWhen: isStepCount(5),
    });
    expect(saved).toEqual([]);
  });

  it("is reachable through the provider registry as `offline`", () => {
    const model = languageModel(createModelRegistry(parseConfig({})), "offline");
    expect(model.provider).toBe("offline");
  });
});

describe("offline reading of chatty sentences, part by part (lib/ai/offline/parts.ts)", () => {
  it.each([
    ["job switch too, I'm a teacher now.", ["User is a teacher"]],
    ["New role too — I'm now a teacher at a hospital group.", ["User is a teacher at a hospital group"]],
    ["I'm a nurse, been doing it about eight years.", ["User is a nurse"]],
    ["Quick context: I live in Lisbon.", ["User lives in Lisbon"]],
    [
      "Leaving Lisbon was harder than I expected, but I moved to Porto at the start of the month.",
      ["User lives in Porto"],
    ],
    [
      "news from me: moved to Porto last month and started a new role as a teacher.",
      ["User lives in Porto", "User started a new role as a teacher"],
    ],
    // A clause held true inside a part, and an "I" of its own after a part that names someone else.
    ["Anyway, the reason I'm writing is that I live in Porto, and I need a gift idea.", ["User lives in Porto"]],
    ["Now that I'm based in Seville, I finally have Saturdays free.", ["User is based in Seville"]],
    ["Since we relocated to Madrid for my partner's work, it's been busy.", ["User lives in Madrid"]],
    ["my shifts change a lot, and I live in Madrid, about twenty minutes from work.", ["User lives in Madrid"]],
    [
      "Quick intro before my question: I'm an editor and I live in Bologna.",
      ["User is an editor", "User lives in Bologna"],
    ],
  ])("reads %j as %j", (message, facts) => {
    const read = readMessage(message).facts;
    expect(read.map((fact) => fact.content)).toEqual(facts);
    for (const fact of read) expect(message).toContain(fact.quote);
  });

  it.each([
    "Traffic was awful, my sister says hi.",
    "Based in Lisbon, I've lived here since college.",
    "Got a cold, so staying in.",
    "Left my keys at home, ugh.",
    "quit the old one, zero regrets.",
    "I'm in Porto now, moved a few weeks back.",
    "signed up for pottery, so excited.",
    // Someone else's change, someone else's words, a supposition, a story, a stay, a mood.
    "my parents retired, moved to Florida",
    "my boss said: I'm the team lead now",
    "if I got the job, moved to London",
    "in the game, I'm a level 40 wizard",
    "news from me: moved to Paris for the semester",
    "tbh, I'm exhausted",
    "Ha, I'm a pilot in my dreams.",
    // A clause not held true: denied, a joke, a purpose, a plan, someone else's belief; a person named before a colon.
    "it's not that I live in Paris, it's just that I love it",
    "the joke is that I'm a pilot",
    "so that I live closer to work",
    "the plan is that I move to Berlin next year",
    "people assume that I'm a pilot",
    "my brother: I'm a doctor",
    "My sister just texted me: I'm a doctor now!",
    "Hey, it's my husband here, I'm a teacher.",
    "As soon as I move to Berlin, I'll call you.",
    "The thing is that I'm a nurse in a simulation game.",
    "I love my job, I'm a nurse — well, I was until they laid me off.",
    "my sister’s text: I'm a doctor now.",
    "my bestie sent this: I'm a nurse.",
    "So long as I live in Paris, I'll be happy.",
    "Tom's wife: I'm a nurse.",
    "In my novel: I live in Paris.",
    "As I'm a nurse in the story, I wear scrubs.",
    "The reason is that I'm a pilot, allegedly.",
  ])("keeps nothing of %j: no home or job of the user's own, now and for good", (message) => {
    expect(readMessage(message).facts).toEqual([]);
  });
});

describe("offline reading of long messages", () => {
  it("finds the words two memories of the longest kind share in one pass (lib/ai/offline/restatement.ts)", () => {
    // 28,000 characters each, near the memory text limit: searching every pair of starting words for the run they
    // share took minutes on two memories this alike (70 s at 3,000 words), past this file's test timeout.
    const sea = "sea ".repeat(7_000).trim();
    const likes = (word: string) => word === "loves" || word === "enjoys";
    expect(restates(`User loves ${sea}`, `User enjoys ${sea}`, likes)).toBe(true);
  });

  // The chat takes 20,000 characters a message part, and runs of blanks around "and" and ";" kept the old clause
  // splitter busy for 36 s on this one. tests/security/redos.test.ts keeps every pattern linear; this bounds the text.
  const blanks = " ".repeat(4_000);
  const message = `I live in Lisbon. I like tea${blanks}and;${blanks}so${blanks}plus${blanks}; and${blanks}I work as a nurse.`;

  it("reads at most MAX_READ_CHARS of a message, cut before a blank, in the chat and in the memory manager", async () => {
    expect(message.length).toBeGreaterThan(20_000);
    const part = readablePart(message);
    expect(part.length).toBeLessThanOrEqual(MAX_READ_CHARS);
    expect(message.startsWith(part) && /\s/.test(message.charAt(part.length))).toBe(true);
    expect(readMessage(message)).toEqual(readMessage(part));

    const { saved, tools } = fakeMemoryTools();
    await generateText({ model: new OfflineLanguageModel(), tools, prompt: message, stopWhen: isStepCount(5) });
    expect(saved.map((memory) => memory.text)).toEqual(["User lives in Lisbon", "User likes tea"]);
    const ops = plannedOps({ ...memoryKinds, existing: [], messages: said(message) });
    expect(ops).toMatchObject([
      { op: "insert", content: { content: "User lives in Lisbon" } },
      { op: "insert", content: { content: "User likes tea" } },
    ]);
  });
});
