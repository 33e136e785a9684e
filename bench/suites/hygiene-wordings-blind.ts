import type { Facts, Planted } from "./hygiene-wordings";

/**
 * Four more wordings of the tune half (bench/suites/hygiene.ts), written by a helper that read neither the rules they
 * test nor the report half, in the styles hosted managers write: chatty, labelled ("Location: …"), formal, terse and
 * without a subject. On the rules of 2026-12-05 they merged none of their restatements and resolved 3 of 8 changed
 * values; the rules were then worked on them.
 */
function tenthTuneMonths({ hobby, city, job, destination, past, future }: Facts): Planted[] {
  return [
    {
      message: `Hey! Quick intro so you know me a bit. I live in ${city(0)} with my cat Miso, and I work as a ${job(0)} at a mid-sized firm downtown. Outside of work I love ${hobby}, it's pretty much my whole weekend. Oh, and I'm flying to ${destination} on ${past} for my cousin's wedding, so I'll need help packing light.`,
      inserts: [
        { text: `User lives in ${city(0)}.`, quote: `I live in ${city(0)}` },
        { text: `User has a cat named Miso.`, quote: `with my cat Miso` },
        {
          text: `User works as a ${job(0)} at a mid-sized firm.`,
          quote: `I work as a ${job(0)} at a mid-sized firm downtown`,
        },
        {
          text: `User enjoys ${hobby}; spends most weekends on it.`,
          quote: `I love ${hobby}, it's pretty much my whole weekend`,
        },
        {
          text: `User is flying to ${destination} on ${past} for a cousin's wedding and wants help packing light.`,
          quote: `I'm flying to ${destination} on ${past} for my cousin's wedding`,
        },
      ],
    },
    {
      message: `Lots has changed since we last talked. Leaving ${city(0)} was harder than I expected, but I moved to ${city(1)} at the start of the month — the rent is brutal but the light in the new apartment is amazing. I also started a new job as a ${job(1)}, which is a big shift for me. Miso hated the drive. Anyway, I'm still ${hobby} whenever I get a free Saturday, that hasn't changed one bit.`,
      inserts: [
        {
          text: `User recently moved to ${city(1)}; finds the rent high but loves the apartment's light.`,
          quote: `I moved to ${city(1)} at the start of the month`,
        },
        { text: `User started a new job as a ${job(1)}.`, quote: `started a new job as a ${job(1)}` },
        { text: `User's cat Miso disliked the drive during the move.`, quote: `Miso hated the drive` },
        {
          text: `User is still regularly ${hobby}, usually on free Saturdays.`,
          quote: `I'm still ${hobby} whenever I get a free Saturday`,
        },
      ],
    },
    {
      message: `Can you help me prep something? I'm going to a conference in ${city(2)} on ${future} and I want a short talk outline ready. I think slide decks with more than 20 slides are a crime, so keep it tight.`,
      inserts: [
        {
          text: `User will attend a conference in ${city(2)} on ${future} and wants a short talk outline.`,
          quote: `I'm going to a conference in ${city(2)} on ${future}`,
        },
        {
          text: `User prefers short slide decks (no more than ~20 slides).`,
          quote: `slide decks with more than 20 slides are a crime`,
        },
      ],
    },
  ];
}

function eleventhTuneMonths({ hobby, city, job, destination, past, future }: Facts): Planted[] {
  return [
    {
      message: `Some background for you. Name's Priya. I'm a ${job(0)}, been doing it about eight years. Based in ${city(0)}, I've lived here since college. My main hobby is ${hobby} — I try to fit it in a couple of times a week. Travel-wise, I've booked a trip to ${destination} on ${past}. My sister Anjali might come along.`,
      inserts: [
        { text: `Name: Priya`, quote: `Name's Priya` },
        {
          text: `Occupation: ${job(0)} (approx. 8 years experience)`,
          quote: `I'm a ${job(0)}, been doing it about eight years`,
        },
        { text: `Location: ${city(0)} (since college)`, quote: `Based in ${city(0)}, I've lived here since college` },
        { text: `Hobby: ${hobby} (a couple of times a week)`, quote: `My main hobby is ${hobby}` },
        { text: `Upcoming trip: ${destination}, ${past}`, quote: `I've booked a trip to ${destination} on ${past}` },
        { text: `Sister: Anjali (may join the trip)`, quote: `My sister Anjali might come along` },
      ],
    },
    {
      message: `Update: I relocated to ${city(1)} last month. New role too — I'm now a ${job(1)} at a hospital group. I'm still ${hobby} as much as I can; honestly it's the one constant. Also I've gone vegetarian, fyi.`,
      inserts: [
        { text: `Location: ${city(1)} (relocated last month)`, quote: `I relocated to ${city(1)} last month` },
        { text: `Occupation: ${job(1)} at a hospital group`, quote: `I'm now a ${job(1)} at a hospital group` },
        {
          text: `Interests: still ${hobby} as often as possible; calls it "the one constant"`,
          quote: `I'm still ${hobby} as much as I can`,
        },
        { text: `Diet: vegetarian`, quote: `I've gone vegetarian` },
      ],
    },
    {
      message: `Heads up, I'll be at a conference in ${city(2)} on ${future}. Need a hotel near the venue, budget around 150 a night.`,
      inserts: [
        {
          text: `Event: conference in ${city(2)} on ${future}`,
          quote: `I'll be at a conference in ${city(2)} on ${future}`,
        },
        { text: `Hotel budget: ~150/night, near venue`, quote: `budget around 150 a night` },
      ],
    },
  ];
}

function twelfthTuneMonths({ hobby, city, job, destination, past, future }: Facts): Planted[] {
  return [
    {
      message: `Good afternoon. I would like to set out some context before we begin. I currently reside in ${city(0)}, where I am employed as a ${job(0)}. In my spare time I greatly enjoy ${hobby}; I find it restorative. I should also mention that I am travelling to ${destination} on ${past} and may need assistance with the itinerary. My colleague, Dr. Havel, recommended your service.`,
      inserts: [
        { text: `The user resides in ${city(0)}.`, quote: `I currently reside in ${city(0)}` },
        { text: `The user is employed as a ${job(0)}.`, quote: `I am employed as a ${job(0)}` },
        {
          text: `The user is an avid enthusiast of ${hobby} and finds it restorative.`,
          quote: `In my spare time I greatly enjoy ${hobby}; I find it restorative`,
        },
        {
          text: `The user has a trip planned to ${destination} on ${past} and may want help with the itinerary.`,
          quote: `I am travelling to ${destination} on ${past}`,
        },
        {
          text: `The user was referred by a colleague, Dr. Havel.`,
          quote: `My colleague, Dr. Havel, recommended your service`,
        },
      ],
    },
    {
      message: `Good morning. A few updates to my circumstances. I have since relocated and now live in ${city(1)}. I have also left my post as a ${job(0)} and accepted a position as a ${job(1)}, which I began two weeks ago. I remain very fond of ${hobby} and continue to pursue it whenever time permits. Finally, I have developed a mild allergy to penicillin, which may be relevant later.`,
      inserts: [
        {
          text: `The user has relocated and now lives in ${city(1)}.`,
          quote: `I have since relocated and now live in ${city(1)}`,
        },
        {
          text: `The user began a new position as a ${job(1)} approximately two weeks ago.`,
          quote: `accepted a position as a ${job(1)}, which I began two weeks ago`,
        },
        {
          text: `The user remains very fond of ${hobby} and pursues it whenever time permits.`,
          quote: `I remain very fond of ${hobby}`,
        },
        { text: `The user has a mild penicillin allergy.`, quote: `I have developed a mild allergy to penicillin` },
      ],
    },
    {
      message: `I am scheduled to attend a professional conference in ${city(2)} on ${future}. I would appreciate a reminder one week prior.`,
      inserts: [
        {
          text: `The user is scheduled to attend a professional conference in ${city(2)} on ${future}.`,
          quote: `I am scheduled to attend a professional conference in ${city(2)} on ${future}`,
        },
        {
          text: `The user requested a reminder one week before the conference.`,
          quote: `I would appreciate a reminder one week prior`,
        },
      ],
    },
  ];
}

function thirteenthTuneMonths({ hobby, city, job, destination, past, future }: Facts): Planted[] {
  return [
    {
      message: `ok basics: I live in ${city(0)}, I'm a ${job(0)}, and I've been ${hobby} for like ten years, kind of obsessed tbh. my dog Pepper tags along sometimes. also I'm going to ${destination} on ${past} and still haven't booked a hotel lol. pineapple on pizza is fine, fight me`,
      inserts: [
        { text: `Lives in ${city(0)}.`, quote: `I live in ${city(0)}` },
        { text: `Works as a ${job(0)}.`, quote: `I'm a ${job(0)}` },
        {
          text: `Has been ${hobby} for about ten years; describes themself as obsessed.`,
          quote: `I've been ${hobby} for like ten years`,
        },
        { text: `Has a dog named Pepper.`, quote: `my dog Pepper tags along sometimes` },
        {
          text: `User mentioned a trip to ${destination} on ${past}; hotel not booked yet.`,
          quote: `I'm going to ${destination} on ${past}`,
        },
        { text: `Likes pineapple on pizza.`, quote: `pineapple on pizza is fine` },
      ],
    },
    {
      message: `update — I'm in ${city(1)} now, moved a few weeks back. job switch too, I'm a ${job(1)} now. quit the old one, zero regrets. and yeah I'm still ${hobby} every chance I get. btw my buddy Marco is crashing on my couch this month`,
      inserts: [
        {
          text: `User mentioned they moved to ${city(1)} a few weeks ago.`,
          quote: `I'm in ${city(1)} now, moved a few weeks back`,
        },
        {
          text: `Switched jobs; now works as a ${job(1)} and has no regrets about leaving the previous one.`,
          quote: `I'm a ${job(1)} now`,
        },
        { text: `Still ${hobby} every chance they get.`, quote: `I'm still ${hobby} every chance I get` },
        {
          text: `Friend Marco is staying with the user this month.`,
          quote: `my buddy Marco is crashing on my couch this month`,
        },
      ],
    },
    {
      message: `I'm heading to a conference in ${city(2)} on ${future} to present a poster. remind me to print it the week before pls`,
      inserts: [
        {
          text: `Attending a conference in ${city(2)} on ${future}; presenting a poster.`,
          quote: `I'm heading to a conference in ${city(2)} on ${future}`,
        },
        {
          text: `Wants a reminder to print the poster the week before.`,
          quote: `remind me to print it the week before`,
        },
      ],
    },
  ];
}

export const BLIND_WORDINGS = [tenthTuneMonths, eleventhTuneMonths, twelfthTuneMonths, thirteenthTuneMonths];
