/**
 * The tune half's wordings of the hygiene suite (bench/suites/hygiene.ts): what a person says each month and the
 * memories a hosted manager would write from it. The finder's thresholds and the offline rules were worked on these;
 * the report half's wordings are kept apart from them.
 */

import { BLIND_WORDINGS } from "./hygiene-wordings-blind";
import { BLIND_WORDINGS_2 } from "./hygiene-wordings-blind-2";
import { BLIND_WORDINGS_3 } from "./hygiene-wordings-blind-3";
import { BLIND_WORDINGS_4 } from "./hygiene-wordings-blind-4";

export interface Planted {
  /** The message the person sends, and the memories a hosted manager would write from it, each with its words. */
  message: string;
  inserts: Array<{ text: string; quote: string }>;
}

export interface Facts {
  hobby: string;
  city: (offset: number) => string;
  job: (offset: number) => string;
  destination: string;
  past: string;
  future: string;
}

/** The first wording the finder's thresholds were set on. */
function firstTuneMonths({ hobby, city, job, destination, past, future }: Facts): Planted[] {
  return [
    {
      message: `I love ${hobby}. I live in ${city(0)}. I work as a ${job(0)}. I'm flying to ${destination} on ${past}.`,
      inserts: [
        { text: `User loves ${hobby}`, quote: `I love ${hobby}` },
        { text: `User lives in ${city(0)}`, quote: `I live in ${city(0)}` },
        { text: `User works as a ${job(0)}`, quote: `I work as a ${job(0)}` },
        { text: `User is flying to ${destination} on ${past}`, quote: `I'm flying to ${destination} on ${past}` },
      ],
    },
    {
      message: `I really love ${hobby}. I live in ${city(1)} now. These days I work as a ${job(1)}.`,
      inserts: [
        { text: `The user really loves ${hobby}.`, quote: `I really love ${hobby}` },
        { text: `User lives in ${city(1)}`, quote: `I live in ${city(1)} now` },
        { text: `User works as a ${job(1)}`, quote: `I work as a ${job(1)}` },
      ],
    },
    {
      message: `I'm going to a conference in ${city(2)} on ${future}.`,
      inserts: [
        {
          text: `User is going to a conference in ${city(2)} on ${future}`,
          quote: `I'm going to a conference in ${city(2)} on ${future}`,
        },
      ],
    },
  ];
}

/** The second wording of the tune half (the report half of the first hygiene figures, 2026-12-04-05-39-00). */
function secondTuneMonths({ hobby, city, job, destination, past, future }: Facts): Planted[] {
  return [
    {
      message: `I enjoy ${hobby}. My home is in ${city(0)}. My job is ${job(0)}. I have a flight to ${destination} on ${past}.`,
      inserts: [
        { text: `The user enjoys ${hobby}.`, quote: `I enjoy ${hobby}` },
        { text: `The user's home is in ${city(0)}.`, quote: `My home is in ${city(0)}` },
        { text: `The user's job is ${job(0)}.`, quote: `My job is ${job(0)}` },
        {
          text: `The user has a flight to ${destination} on ${past}.`,
          quote: `I have a flight to ${destination} on ${past}`,
        },
      ],
    },
    {
      message: `${hobby} is still what I enjoy most. I moved to ${city(1)}. I now work as a ${job(1)}.`,
      inserts: [
        { text: `User enjoys ${hobby} most of all`, quote: `${hobby} is still what I enjoy most` },
        { text: `User moved to ${city(1)}`, quote: `I moved to ${city(1)}` },
        { text: `User now works as a ${job(1)}`, quote: `I now work as a ${job(1)}` },
      ],
    },
    {
      message: `On ${future} I will attend a conference in ${city(2)}.`,
      inserts: [
        {
          text: `User will attend a conference in ${city(2)} on ${future}`,
          quote: `On ${future} I will attend a conference in ${city(2)}`,
        },
      ],
    },
  ];
}

/** The third wording of the tune half (the report half of the figures up to 2026-12-04-06-03-00). */
function thirdTuneMonths({ hobby, city, job, destination, past, future }: Facts): Planted[] {
  return [
    {
      message: `Most weekends you'll find me ${hobby}. I'm based in ${city(0)}. I'm a ${job(0)} by trade. My flight to ${destination} leaves on ${past}.`,
      inserts: [
        { text: `User spends most weekends ${hobby}`, quote: `Most weekends you'll find me ${hobby}` },
        { text: `User is based in ${city(0)}`, quote: `I'm based in ${city(0)}` },
        { text: `User is a ${job(0)} by trade`, quote: `I'm a ${job(0)} by trade` },
        {
          text: `User's flight to ${destination} leaves on ${past}`,
          quote: `My flight to ${destination} leaves on ${past}`,
        },
      ],
    },
    {
      message: `Honestly, ${hobby} is my favourite thing. I've relocated to ${city(1)}. I started a new job as a ${job(1)}.`,
      inserts: [
        { text: `User's favourite thing is ${hobby}`, quote: `${hobby} is my favourite thing` },
        { text: `User relocated to ${city(1)}`, quote: `I've relocated to ${city(1)}` },
        { text: `User started a new job as a ${job(1)}`, quote: `I started a new job as a ${job(1)}` },
      ],
    },
    {
      message: `There's a conference in ${city(2)} on ${future} that I'm attending.`,
      inserts: [
        {
          text: `User is attending a conference in ${city(2)} on ${future}`,
          quote: `There's a conference in ${city(2)} on ${future} that I'm attending`,
        },
      ],
    },
  ];
}

/** A fourth wording, written for the tune half alongside the rules that read the third. */
function fourthTuneMonths({ hobby, city, job, destination, past, future }: Facts): Planted[] {
  return [
    {
      message: `I spend my free time ${hobby}. I'm living in ${city(0)} at the moment. I became a ${job(0)} after college. I'm travelling to ${destination} on ${past}.`,
      inserts: [
        { text: `User spends their free time ${hobby}`, quote: `I spend my free time ${hobby}` },
        { text: `User is living in ${city(0)}`, quote: `I'm living in ${city(0)} at the moment` },
        { text: `User became a ${job(0)} after college`, quote: `I became a ${job(0)} after college` },
        {
          text: `User is travelling to ${destination} on ${past}`,
          quote: `I'm travelling to ${destination} on ${past}`,
        },
      ],
    },
    {
      message: `${capitalized(hobby)} is still my main hobby. We settled in ${city(1)} last spring. I got a job as a ${job(1)}.`,
      inserts: [
        { text: `User's main hobby is ${hobby}`, quote: `${capitalized(hobby)} is still my main hobby` },
        { text: `User settled in ${city(1)}`, quote: `We settled in ${city(1)} last spring` },
        { text: `User got a job as a ${job(1)}`, quote: `I got a job as a ${job(1)}` },
      ],
    },
    {
      message: `I'll be at a conference in ${city(2)} on ${future}.`,
      inserts: [
        {
          text: `User will be at a conference in ${city(2)} on ${future}`,
          quote: `I'll be at a conference in ${city(2)} on ${future}`,
        },
      ],
    },
  ];
}

/** A fifth wording, written for the tune half alongside the fourth. */
function fifthTuneMonths({ hobby, city, job, destination, past, future }: Facts): Planted[] {
  return [
    {
      message: `I'm passionate about ${hobby}. I reside in ${city(0)}. I'm employed as a ${job(0)}. My flight to ${destination} departs on ${past}.`,
      inserts: [
        { text: `User is passionate about ${hobby}`, quote: `I'm passionate about ${hobby}` },
        { text: `User resides in ${city(0)}`, quote: `I reside in ${city(0)}` },
        { text: `User is employed as a ${job(0)}`, quote: `I'm employed as a ${job(0)}` },
        {
          text: `User's flight to ${destination} departs on ${past}`,
          quote: `My flight to ${destination} departs on ${past}`,
        },
      ],
    },
    {
      message: `Nothing beats ${hobby}, I love it. I moved over to ${city(1)}. I'm now a ${job(1)}.`,
      inserts: [
        { text: `User loves ${hobby}`, quote: `Nothing beats ${hobby}, I love it` },
        { text: `User moved to ${city(1)}`, quote: `I moved over to ${city(1)}` },
        { text: `User is now a ${job(1)}`, quote: `I'm now a ${job(1)}` },
      ],
    },
    {
      message: `On ${future} I'm heading to a conference in ${city(2)}.`,
      inserts: [
        {
          text: `User is heading to a conference in ${city(2)} on ${future}`,
          quote: `On ${future} I'm heading to a conference in ${city(2)}`,
        },
      ],
    },
  ];
}

/**
 * A sixth wording, written for the tune half as the rules below were made to read wordings by kind rather than by
 * the phrases of the five above: a liking said as a feeling ("a real fondness for") and as a habit ("spends weekends"),
 * a home called so and moved to with its object ("calls … home", "moved house to"), a job earned or trained for
 * ("earns a living as", "retrained as"), and a plan held by its tickets.
 */
function sixthTuneMonths({ hobby, city, job, destination, past, future }: Facts): Planted[] {
  return [
    {
      message: `I have a real fondness for ${hobby}. I call ${city(0)} home. I earn a living as a ${job(0)}. I have tickets for a concert in ${destination} on ${past}.`,
      inserts: [
        { text: `User has a real fondness for ${hobby}`, quote: `I have a real fondness for ${hobby}` },
        { text: `User calls ${city(0)} home`, quote: `I call ${city(0)} home` },
        { text: `User earns a living as a ${job(0)}`, quote: `I earn a living as a ${job(0)}` },
        {
          text: `User has tickets for a concert in ${destination} on ${past}`,
          quote: `I have tickets for a concert in ${destination} on ${past}`,
        },
      ],
    },
    {
      message: `I spend weekends ${hobby}. I moved house to ${city(1)}. I retrained as a ${job(1)}.`,
      inserts: [
        { text: `User spends weekends ${hobby}`, quote: `I spend weekends ${hobby}` },
        { text: `User moved house to ${city(1)}`, quote: `I moved house to ${city(1)}` },
        { text: `User retrained as a ${job(1)}`, quote: `I retrained as a ${job(1)}` },
      ],
    },
    {
      message: `I have tickets for a conference in ${city(2)} on ${future}.`,
      inserts: [
        {
          text: `User has tickets for a conference in ${city(2)} on ${future}`,
          quote: `I have tickets for a conference in ${city(2)} on ${future}`,
        },
      ],
    },
  ];
}

/**
 * A seventh wording, written before any rule was worked on it, as people ramble in chat rather than state facts: long
 * turns with hedges and asides, other people in them (a partner, a sister, a brother, a manager), and each fact said
 * by a sentence of its own shape (a lease signed for a home, notice handed in for a job, weekends "for" a liking). It
 * stands in for held-out wording: what the rules do with a style they were not built on.
 */
function seventhTuneMonths({ hobby, city, job, destination, past, future }: Facts): Planted[] {
  return [
    {
      message: `ok so quick context before I ask anything: honestly ${hobby} is kind of my whole personality at this point, my partner teases me about it constantly. I've been renting a tiny place in ${city(0)} for about three years, the neighbours are loud but whatever. My sister lives over in Coimbra so I see her a lot. Day job wise I'm a ${job(0)}, which pays the bills I guess. Oh and I still need to pack because the flight to ${destination} is on ${past}, my brother is picking me up at the airport.`,
      inserts: [
        {
          text: `User is very into ${hobby}; their partner teases them about it`,
          quote: `honestly ${hobby} is kind of my whole personality at this point`,
        },
        {
          text: `User has been renting a small place in ${city(0)} for about three years`,
          quote: `I've been renting a tiny place in ${city(0)} for about three years`,
        },
        { text: `User's sister lives in Coimbra`, quote: `My sister lives over in Coimbra` },
        { text: `User's day job is being a ${job(0)}`, quote: `Day job wise I'm a ${job(0)}` },
        {
          text: `User's flight to ${destination} is on ${past}; their brother will pick them up at the airport`,
          quote: `the flight to ${destination} is on ${past}, my brother is picking me up at the airport`,
        },
      ],
    },
    {
      message: `ugh, finally signed the lease on the ${city(1)} flat, ${city(0)} is officially behind me. also, big news, I handed in my notice and I'm starting as a ${job(1)} next week, my mum thinks I'm mad lol. anyway weekends are still for ${hobby}, that'll never change`,
      inserts: [
        {
          text: `User signed the lease on a flat in ${city(1)}`,
          quote: `finally signed the lease on the ${city(1)} flat`,
        },
        {
          text: `User handed in their notice and is starting as a ${job(1)}`,
          quote: `I handed in my notice and I'm starting as a ${job(1)} next week`,
        },
        { text: `User's weekends are for ${hobby}`, quote: `weekends are still for ${hobby}` },
      ],
    },
    {
      message: `not sure this matters but my manager is sending me and a colleague to a conference in ${city(2)} on ${future}, first work trip in ages, kind of nervous tbh`,
      inserts: [
        {
          text: `User's manager is sending them to a conference in ${city(2)} on ${future}`,
          quote: `my manager is sending me and a colleague to a conference in ${city(2)} on ${future}`,
        },
      ],
    },
  ];
}

/**
 * An eighth wording, written after the rules for the seventh and before any rule looked at it: facts said in passing
 * while asking for something, the liking put first ("… is how I spend"), a home by its apartment, a career switched,
 * and a manager's memories worded as hosted models word them ("User's new apartment is in …", "For the user, … is how").
 */
function eighthTuneMonths({ hobby, city, job, destination, past, future }: Facts): Planted[] {
  return [
    {
      message: `can you suggest some gear? ${hobby} is basically how I spend every free weekend. for context my apartment is near the river in ${city(0)}, and work is nights, I'm a ${job(0)} on the night shift. also booked a train to ${destination} for ${past}, need a packing list`,
      inserts: [
        {
          // Not at the start: the suite finds a restatement by the hobby's words as written, lower case.
          text: `For the user, ${hobby} is how every free weekend is spent`,
          quote: `${hobby} is basically how I spend every free weekend`,
        },
        {
          text: `User's apartment is near the river in ${city(0)}`,
          quote: `my apartment is near the river in ${city(0)}`,
        },
        { text: `User is a ${job(0)} working night shifts`, quote: `I'm a ${job(0)} on the night shift` },
        {
          text: `User booked a train to ${destination} for ${past}`,
          quote: `booked a train to ${destination} for ${past}`,
        },
      ],
    },
    {
      message: `update: the move happened!! new apartment in ${city(1)}, new neighbourhood. and I switched careers, I'm a ${job(1)} at a primary school now. still out ${hobby} whenever I can`,
      inserts: [
        { text: `User's new apartment is in ${city(1)}`, quote: `new apartment in ${city(1)}` },
        {
          text: `User switched careers and is now a ${job(1)} at a primary school`,
          quote: `I switched careers, I'm a ${job(1)} at a primary school now`,
        },
        { text: `User goes ${hobby} whenever they can`, quote: `still out ${hobby} whenever I can` },
      ],
    },
    {
      message: `the team offsite this year is a conference in ${city(2)} on ${future}, and I'm presenting, any tips for nerves?`,
      inserts: [
        {
          text: `User is presenting at a conference in ${city(2)} on ${future}`,
          quote: `a conference in ${city(2)} on ${future}, and I'm presenting`,
        },
      ],
    },
  ];
}

/**
 * A ninth wording, written before any rule looked at it: a manager that reports what the person said ("User
 * mentioned that…", "User shared that…", "User noted…"), as hosted models often word memories, and a liking said by
 * what it does for the person ("to unwind", "their favourite way to relax").
 */
function ninthTuneMonths({ hobby, city, job, destination, past, future }: Facts): Planted[] {
  return [
    {
      message: `quick one: I go ${hobby} pretty much every chance I get, it's how I unwind. been in ${city(0)} a few years now, working as a ${job(0)}. oh and I fly out to ${destination} on ${past}`,
      inserts: [
        {
          text: `User mentioned that they go ${hobby} to unwind`,
          quote: `I go ${hobby} pretty much every chance I get`,
        },
        { text: `User mentioned living in ${city(0)} for a few years`, quote: `been in ${city(0)} a few years now` },
        { text: `User mentioned working as a ${job(0)}`, quote: `working as a ${job(0)}` },
        {
          text: `User noted that they fly out to ${destination} on ${past}`,
          quote: `I fly out to ${destination} on ${past}`,
        },
      ],
    },
    {
      message: `news from me: moved to ${city(1)} last month and started a new role as a ${job(1)}. still ${hobby} on weekends, honestly my favourite way to relax`,
      inserts: [
        { text: `User shared that they recently moved to ${city(1)}`, quote: `moved to ${city(1)} last month` },
        { text: `User started a new role as a ${job(1)}`, quote: `started a new role as a ${job(1)}` },
        {
          text: `User said that ${hobby} on weekends is their favourite way to relax`,
          quote: `still ${hobby} on weekends, honestly my favourite way to relax`,
        },
      ],
    },
    {
      message: `there's a conference in ${city(2)} on ${future} that I'm speaking at`,
      inserts: [
        {
          text: `User mentioned speaking at a conference in ${city(2)} on ${future}`,
          quote: `a conference in ${city(2)} on ${future} that I'm speaking at`,
        },
      ],
    },
  ];
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export const TUNE_WORDINGS = [
  firstTuneMonths,
  secondTuneMonths,
  thirdTuneMonths,
  fourthTuneMonths,
  fifthTuneMonths,
  sixthTuneMonths,
  seventhTuneMonths,
  eighthTuneMonths,
  ninthTuneMonths,
  ...BLIND_WORDINGS,
  ...BLIND_WORDINGS_2,
  ...BLIND_WORDINGS_3,
  ...BLIND_WORDINGS_4,
];
