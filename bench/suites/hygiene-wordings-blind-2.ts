/**
 * Four more wordings of the tune half, written by a helper that read neither the offline rules nor the report half,
 * in four managers' styles. Each told of its trip after the trip's date; the trip was then moved, as the suite plants
 * it, to the first month as a plan (the pass expires a plan, not a trip told as past). Measured before the rules were
 * worked on them (eight people): none of the restatements merged and 6 of 16 changed values were resolved.
 */
import type { Facts, Planted } from "./hygiene-wordings";

/** "a nurse", "an architect": the indefinite article a person would say before a job noun. */
export function withArticle(noun: string): string {
  return /^[aeiou]/i.test(noun) ? `an ${noun}` : `a ${noun}`;
}

/** A verbose GPT-style manager: full sentences, "The user …", extra context on every memory. */
export function fourteenthTuneMonths({ hobby, city, job, destination, past, future }: Facts): Planted[] {
  return [
    {
      message: `Hi! Quick intro so you know me: I'm ${withArticle(job(0))} and I live in ${city(0)} with my partner and our cat, Pepper. Outside of work, ${hobby} is basically my whole personality lol. And we're flying to ${destination} on ${past} for a long weekend, mostly for the food.`,
      inserts: [
        { text: `The user works as ${withArticle(job(0))}.`, quote: `I'm ${withArticle(job(0))}` },
        {
          text: `The user currently lives in ${city(0)} together with their partner.`,
          quote: `I live in ${city(0)} with my partner`,
        },
        { text: "The user has a cat named Pepper, whom they share with their partner.", quote: "our cat, Pepper" },
        {
          text: `The user is very passionate about ${hobby} and describes it as a core part of their identity.`,
          quote: `${hobby} is basically my whole personality`,
        },
        {
          text: `The user is flying to ${destination} on ${past} for a long weekend with their partner.`,
          quote: `we're flying to ${destination} on ${past}`,
        },
      ],
    },
    {
      message: `Big news, we finally did it — we moved to ${city(1)} last week! Boxes everywhere.`,
      inserts: [
        {
          text: `The user has recently relocated to ${city(1)} with their partner and is still unpacking.`,
          quote: `we moved to ${city(1)} last week`,
        },
      ],
    },
    {
      message: `Work update: I handed in my notice and started a new role as ${withArticle(job(1))} at a smaller company closer to home. The hours are way better, so I've been ${hobby} with my old college friends on Sunday mornings again. Also finally caved and bought a standing desk.`,
      inserts: [
        {
          text: `The user has started a new position as ${withArticle(job(1))} at a smaller company closer to home, with better working hours.`,
          quote: `started a new role as ${withArticle(job(1))} at a smaller company closer to home`,
        },
        {
          text: `The user mentioned that they have gone back to ${hobby} with their old college friends on Sunday mornings, which the better hours of their new role have made possible.`,
          quote: `I've been ${hobby} with my old college friends on Sunday mornings again`,
        },
        { text: "The user recently bought a standing desk.", quote: "finally caved and bought a standing desk" },
      ],
    },
    {
      message: `I'm presenting a poster at a conference in ${city(2)} on ${future} — any tips for not freezing up? Also, unrelated, I've switched to oat milk because dairy has been giving me stomach aches.`,
      inserts: [
        {
          text: `The user will be presenting a poster at a conference in ${city(2)} on ${future} and feels nervous about it.`,
          quote: `presenting a poster at a conference in ${city(2)} on ${future}`,
        },
        {
          text: "The user has switched to oat milk because dairy has been causing them stomach aches.",
          quote: "I've switched to oat milk because dairy has been giving me stomach aches",
        },
      ],
    },
  ];
}

/** A Claude-style manager: compact factual memories, some in present perfect, some carrying a reason. */
export function fifteenthTuneMonths({ hobby, city, job, destination, past, future }: Facts): Planted[] {
  return [
    {
      message: `ok so context for future chats: ${job(0)} by day, based in ${city(0)}, and I spend most of my free time ${hobby}. also I'm vegetarian, in case you ever suggest recipes. trip to ${destination} on ${past}, first real holiday in ages.`,
      inserts: [
        { text: `User works as ${withArticle(job(0))}.`, quote: `${job(0)} by day` },
        { text: `User lives in ${city(0)}.`, quote: `based in ${city(0)}` },
        { text: `User spends most of their free time ${hobby}.`, quote: `I spend most of my free time ${hobby}` },
        { text: "User is vegetarian; avoid meat in recipe suggestions.", quote: "I'm vegetarian" },
        { text: `User has a trip to ${destination} planned for ${past}.`, quote: `trip to ${destination} on ${past}` },
      ],
    },
    {
      message: `Big news: I accepted an offer — I'm going to be ${withArticle(job(1))} at a much bigger organisation starting next month, and we're relocating to ${city(1)} for it.`,
      inserts: [
        {
          text: `User has accepted a position as ${withArticle(job(1))} at a larger organisation, starting next month.`,
          quote: `I'm going to be ${withArticle(job(1))} at a much bigger organisation`,
        },
        { text: `User is relocating to ${city(1)} for the new job.`, quote: `we're relocating to ${city(1)} for it` },
      ],
    },
    {
      message: `Settling in fine. Honestly the best part of the week is still ${hobby} — it's how I switch my brain off after work. Booked my ticket for the conference in ${city(2)} on ${future}, my first one in ages. My sister says hi btw, she's visiting in two weeks.`,
      inserts: [
        {
          text: `User still considers ${hobby} the best part of their week; it is how they unwind after work.`,
          quote: `the best part of the week is still ${hobby}`,
        },
        {
          text: `User has booked a ticket for a conference in ${city(2)} on ${future}.`,
          quote: `Booked my ticket for the conference in ${city(2)} on ${future}`,
        },
        { text: "User's sister is visiting in about two weeks.", quote: "she's visiting in two weeks" },
      ],
    },
  ];
}

/** A key-value / profile-style manager: "residence: …", "current_occupation: …", "interests - …". */
export function sixteenthTuneMonths({ hobby, city, job, destination, past, future }: Facts): Planted[] {
  return [
    {
      message: `Hey, setting up this assistant. Some basics: I'm ${withArticle(job(0))}, I live in ${city(0)}, I've got two kids (7 and 10), and my favourite thing to do on weekends is ${hobby}. Next up: a client visit to ${destination}, flying in on ${past}, two nights.`,
      inserts: [
        { text: `occupation: ${job(0)}`, quote: `I'm ${withArticle(job(0))}` },
        { text: `residence: ${city(0)}`, quote: `I live in ${city(0)}` },
        { text: "family: two children, ages 7 and 10", quote: "I've got two kids (7 and 10)" },
        { text: `hobbies: ${hobby} (weekends)`, quote: `my favourite thing to do on weekends is ${hobby}` },
        {
          text: `upcoming_travel: ${destination}, ${past} (client visit, 2 nights)`,
          quote: `a client visit to ${destination}, flying in on ${past}`,
        },
      ],
    },
    {
      message: `Quick admin thing: please remember I prefer everything in metric.`,
      inserts: [{ text: "preferences.units: metric", quote: "I prefer everything in metric" }],
    },
    {
      message: `New chapter! I've been working as ${withArticle(job(1))} for about three weeks now and we've settled in ${city(1)} — the kids love their new school. Still ${hobby} every Saturday, now with my neighbour, which really helps me feel at home here.`,
      inserts: [
        {
          text: `current_occupation: ${job(1)} (started ~3 weeks ago)`,
          quote: `I've been working as ${withArticle(job(1))} for about three weeks now`,
        },
        { text: `current_residence: ${city(1)}`, quote: `we've settled in ${city(1)}` },
        {
          text: `interests - ${hobby}: every Saturday, with neighbour; helps user feel at home`,
          quote: `Still ${hobby} every Saturday, now with my neighbour`,
        },
      ],
    },
    {
      message: `Reminder for me: conference in ${city(2)}, ${future}. Need to book a hotel near the venue. And my dog Biscuit needs his vaccine booster the week before.`,
      inserts: [
        {
          text: `upcoming_events: conference in ${city(2)} on ${future}`,
          quote: `conference in ${city(2)}, ${future}`,
        },
        {
          text: "pets: dog named Biscuit (vaccine booster due soon)",
          quote: "my dog Biscuit needs his vaccine booster",
        },
      ],
    },
  ];
}

/** A mem0-style manager: terse fragments without a subject. */
export function seventeenthTuneMonths({ hobby, city, job, destination, past, future }: Facts): Planted[] {
  return [
    {
      message: `lol my coworkers think I'm crazy but I'm up at 5 most Sundays ${hobby}. being ${withArticle(job(0))} in ${city(0)} is stressful and it clears my head. also I'm really into pour-over coffee lately. flying to ${destination} on ${past} for my cousin's wedding btw`,
      inserts: [
        {
          text: `Loves ${hobby}, does it early on Sundays to clear head`,
          quote: `I'm up at 5 most Sundays ${hobby}`,
        },
        { text: `Is ${withArticle(job(0))}`, quote: `being ${withArticle(job(0))}` },
        { text: `Lives in ${city(0)}`, quote: `in ${city(0)} is stressful` },
        { text: "Into pour-over coffee", quote: "I'm really into pour-over coffee lately" },
        {
          text: `Flying to ${destination} on ${past} for cousin's wedding`,
          quote: `flying to ${destination} on ${past}`,
        },
      ],
    },
    {
      message: `quick one — heads up I'm moving to ${city(1)} next month, already signed the lease`,
      inserts: [
        {
          text: `Moving to ${city(1)} next month, lease signed`,
          quote: `I'm moving to ${city(1)} next month, already signed the lease`,
        },
      ],
    },
    {
      message: `new city, new job: I'm ${withArticle(job(1))} now, started Monday. can't stop ${hobby} either, found a group here that meets on weekends. speaking at a conference in ${city(2)} on ${future} too which is terrifying. btw I'm lactose intolerant so skip dairy in recipes`,
      inserts: [
        {
          text: `Is ${withArticle(job(1))} now, started Monday`,
          quote: `I'm ${withArticle(job(1))} now, started Monday`,
        },
        {
          text: `Can't stop ${hobby}; joined a local group that meets on weekends`,
          quote: `can't stop ${hobby} either, found a group here that meets on weekends`,
        },
        {
          text: `Speaking at conference in ${city(2)} on ${future}, nervous about it`,
          quote: `speaking at a conference in ${city(2)} on ${future}`,
        },
        { text: "Lactose intolerant, no dairy in recipes", quote: "I'm lactose intolerant" },
      ],
    },
  ];
}

export const BLIND_WORDINGS_2 = [fourteenthTuneMonths, fifteenthTuneMonths, sixteenthTuneMonths, seventeenthTuneMonths];
