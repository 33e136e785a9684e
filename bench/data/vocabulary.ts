/**
 * The words the generator builds memories and questions from. Topics are the facts questions ask about: each has
 * paraphrased statements (`{v}` is the user's value) and question phrasings that share only some words with them,
 * as real questions do. Filler vocabulary is kept apart from topic keywords so relevance is known by construction.
 */
export type GeneratedKind = "preference" | "memory" | "episode" | "procedure";

export interface Topic {
  name: string;
  kind: GeneratedKind;
  values: readonly string[];
  statements: readonly string[];
  questions: readonly string[];
}

export const topics: readonly Topic[] = [
  {
    name: "editor",
    kind: "preference",
    values: ["Neovim", "VS Code", "Emacs", "Helix", "Zed", "Sublime Text"],
    statements: ["Prefers {v} as their code editor", "Writes code in {v} every day", "Switched to {v} for editing"],
    questions: ["what editor do I use?", "which code editor should you set up for me", "what do I edit code with"],
  },
  {
    name: "theme",
    kind: "preference",
    values: ["dark mode", "light mode", "high contrast", "solarized"],
    statements: ["Likes {v} in every app", "Wants interfaces in {v}", "Always turns on {v} for the screen"],
    questions: ["which display theme do I like?", "do I want dark or light screens", "what colour scheme for my apps"],
  },
  {
    name: "coffee",
    kind: "preference",
    values: ["black coffee", "oat flat white", "double espresso", "cold brew"],
    statements: ["Drinks {v} in the morning", "Orders {v} at the cafe", "Their usual coffee is {v}"],
    questions: ["how do I take my coffee?", "what should you order me at the cafe", "my morning drink?"],
  },
  {
    name: "city",
    kind: "memory",
    values: ["Lisbon", "Porto", "Berlin", "Toronto", "Osaka", "Nairobi"],
    statements: ["Lives in {v}", "Moved to {v} two years ago", "Home is an apartment in {v}"],
    questions: ["where do I live?", "which city is my home", "what town did I move to"],
  },
  {
    name: "employer",
    kind: "memory",
    values: ["Acme Robotics", "Northwind Bank", "Globex Health", "Initech Labs"],
    statements: ["Works at {v} as an engineer", "Their employer is {v}", "Joined {v} last spring"],
    questions: ["where do I work?", "which company employs me", "who is my employer these days"],
  },
  {
    name: "pet",
    kind: "memory",
    values: ["a beagle named Miso", "a tabby cat called Pixel", "two parrots", "a rescue greyhound"],
    statements: ["Has {v} at home", "Their pet is {v}", "Walks {v} every evening"],
    questions: ["what pet do I have?", "tell me about my animal at home", "do I own a dog or a cat"],
  },
  {
    name: "language",
    kind: "preference",
    values: ["TypeScript", "Rust", "Python", "Go", "Kotlin"],
    statements: [
      "Favourite programming language is {v}",
      "Prefers writing {v} over anything else",
      "Codes mostly in {v}",
    ],
    questions: [
      "which programming language do I prefer?",
      "what language should examples be in",
      "my favourite language",
    ],
  },
  {
    name: "diet",
    kind: "preference",
    values: ["vegetarian", "vegan", "pescatarian", "gluten free"],
    statements: ["Eats a {v} diet", "Is {v} and avoids meat dishes", "Restaurant picks must be {v}"],
    questions: ["what are my dietary restrictions?", "can I eat meat", "what food should restaurants serve me"],
  },
  {
    name: "allergy",
    kind: "memory",
    values: ["peanuts", "shellfish", "penicillin", "pollen"],
    statements: ["Is allergic to {v}", "Has a severe allergy to {v}", "Must avoid {v} because of an allergy"],
    questions: ["what am I allergic to?", "any allergies I have", "what should I avoid for health reasons"],
  },
  {
    name: "birthday",
    kind: "memory",
    values: ["March 3", "July 19", "October 27", "January 8"],
    statements: ["Birthday is on {v}", "Celebrates their birthday every {v}", "Was born on {v}"],
    questions: ["when is my birthday?", "what day was I born", "when should you wish me happy birthday"],
  },
  {
    name: "timezone",
    kind: "preference",
    values: ["UTC", "Central European Time", "Pacific Time", "Japan Standard Time"],
    statements: ["Schedules meetings in {v}", "Their calendar timezone is {v}", "Wants times shown in {v}"],
    questions: ["which timezone am I in?", "what time zone for my meetings", "how should you show times to me"],
  },
  {
    name: "answers",
    kind: "procedure",
    values: ["short bullet points", "one paragraph", "step by step lists", "code first"],
    statements: [
      "Answer in {v} when explaining",
      "Responses should use {v}",
      "When the user asks a question, reply with {v}",
    ],
    questions: ["how should you format answers for me?", "what response style do I like", "how do I want replies"],
  },
  {
    name: "deploy",
    kind: "procedure",
    values: ["run the smoke tests", "tag the release", "notify the on-call channel", "check the error budget"],
    statements: ["Before deploying, {v}", "Deploy checklist: {v} first", "Never ship a release without: {v}"],
    questions: ["what do I do before a deploy?", "my release checklist", "steps before shipping to production"],
  },
  {
    name: "sport",
    kind: "memory",
    values: ["bouldering", "trail running", "swimming", "tennis"],
    statements: ["Goes {v} on weekends", "Main hobby is {v}", "Trains for {v} three times a week"],
    questions: ["what sport do I do?", "my weekend hobby", "how do I exercise"],
  },
  {
    name: "travel",
    kind: "episode",
    values: ["Iceland", "Japan", "Peru", "Morocco"],
    statements: [
      "Planned a trip to {v} for the autumn",
      "Booked flights to {v} for the holidays",
      "Is travelling to {v} next month",
    ],
    questions: ["where is my next trip?", "which country am I visiting on holiday", "where did I book flights to"],
  },
  {
    name: "music",
    kind: "preference",
    values: ["jazz", "lo-fi beats", "classical piano", "techno"],
    statements: ["Listens to {v} while working", "Favourite music is {v}", "Plays {v} to focus"],
    questions: ["what music do I like?", "what should you play while I focus", "my favourite genre"],
  },
  {
    name: "partner",
    kind: "memory",
    values: ["Sam", "Alex", "Jordan", "Robin"],
    statements: ["Partner is called {v}", "Is married to {v}", "Lives with their partner {v}"],
    questions: ["who is my partner?", "what's my spouse called", "name of the person I live with"],
  },
  {
    name: "reviews",
    kind: "procedure",
    values: ["ask for tests", "check naming", "request smaller pull requests", "look for missing docs"],
    statements: ["In code reviews, {v}", "Review rule: {v}", "When reviewing pull requests always {v}"],
    questions: ["what do I check in code reviews?", "my pull request review rules", "how do I review code"],
  },
];

export const people = ["Dana", "Mateo", "Priya", "Kenji", "Amara", "Lukas", "Sofia", "Ravi", "Ingrid", "Omar"];
export const places = [
  "the office",
  "a workshop",
  "the library",
  "a client site",
  "the board room",
  "a co-working space",
];
export const subjects = [
  "the quarterly budget",
  "the onboarding flow",
  "hiring plans",
  "the data migration",
  "a vendor contract",
  "the roadmap",
  "incident follow-ups",
  "the marketing launch",
  "customer churn",
  "the annual offsite",
  "invoice backlog",
  "the mobile release",
];
export const weekdays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"];
export const chores = ["renew the passport", "file expenses", "book a dentist visit", "pay the electricity bill"];
export const outcomes = ["agreed on next steps", "postponed the decision", "assigned owners", "asked for more numbers"];
export const habits = ["meetings before noon", "written agendas", "async updates", "quiet Fridays", "shared notes"];
