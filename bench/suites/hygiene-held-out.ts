import type { Facts, Planted } from "./hygiene";

/** A job noun with its article: "a nurse", "an architect". */
function a(job: string): string {
  return /^[aeiou]/i.test(job) ? `an ${job}` : `a ${job}`;
}

/** Casual and friendly, with asides. */
function casualMonths({ hobby, city, job, destination, past, future }: Facts): Planted[] {
  return [
    {
      message: `Hey! Quick intro I guess: I've been really into ${hobby} lately, it's kind of my thing. Been working as ${a(job(0))} for about six years now, and we've got a little flat in ${city(0)}. Oh and heads up, I fly out to ${destination} on ${past}, so I might be slow to reply around then.`,
      inserts: [
        { text: `User has been really into ${hobby} lately`, quote: `I've been really into ${hobby} lately` },
        {
          text: `User has worked as ${a(job(0))} for about six years`,
          quote: `working as ${a(job(0))} for about six years now`,
        },
        { text: `User lives in a small flat in ${city(0)}`, quote: `we've got a little flat in ${city(0)}` },
        { text: `User is flying to ${destination} on ${past}`, quote: `I fly out to ${destination} on ${past}` },
      ],
    },
    {
      message: `ugh, long month. We finally moved out to ${city(1)}, still unpacking boxes lol. Also switched careers, I'm ${a(job(1))} now! Anyway, the one thing keeping me sane is ${hobby}, got a bit of that in yesterday.`,
      inserts: [
        { text: `User moved to ${city(1)}`, quote: `We finally moved out to ${city(1)}` },
        { text: `User switched careers and is now ${a(job(1))}`, quote: `switched careers, I'm ${a(job(1))} now` },
        { text: `User says ${hobby} is what keeps them sane`, quote: `the one thing keeping me sane is ${hobby}` },
      ],
    },
    {
      message: `Can you remind me closer to the date? I'm gonna be in ${city(2)} for a conference on ${future}.`,
      inserts: [
        {
          text: `User will be in ${city(2)} for a conference on ${future}`,
          quote: `I'm gonna be in ${city(2)} for a conference on ${future}`,
        },
      ],
    },
  ];
}

/** Fuller sentences, fronted clauses, the facts told as background. */
function backgroundMonths({ hobby, city, job, destination, past, future }: Facts): Planted[] {
  return [
    {
      message: `So, a bit about me. Outside of work, what I do most is ${hobby}. I'm originally from up north, but I've lived in ${city(0)} for years now. Work-wise, I'm ${a(job(0))}, have been since I finished school. Next thing on the calendar is a trip to ${destination}, flight's on ${past}.`,
      inserts: [
        {
          text: `User spends most of their free time ${hobby}`,
          quote: `Outside of work, what I do most is ${hobby}`,
        },
        { text: `User has lived in ${city(0)} for years`, quote: `I've lived in ${city(0)} for years now` },
        {
          text: `User has been ${a(job(0))} since finishing school`,
          quote: `I'm ${a(job(0))}, have been since I finished school`,
        },
        {
          text: `User has a trip to ${destination} with a flight on ${past}`,
          quote: `a trip to ${destination}, flight's on ${past}`,
        },
      ],
    },
    {
      message: `Update for you: I took a job as ${a(job(1))}, which meant packing up and heading to ${city(1)}. Settling in okay so far. I've actually had more time for ${hobby} since the move, which is nice.`,
      inserts: [
        { text: `User took a job as ${a(job(1))}`, quote: `I took a job as ${a(job(1))}` },
        { text: `User now lives in ${city(1)}`, quote: `packing up and heading to ${city(1)}` },
        {
          text: `User enjoys ${hobby} and has had more time for it since moving`,
          quote: `I've actually had more time for ${hobby} since the move`,
        },
      ],
    },
    {
      message: `Heads up, I'll be away on ${future} since work is sending me to a conference in ${city(2)}.`,
      inserts: [
        {
          text: `User's work is sending them to a conference in ${city(2)} on ${future}`,
          quote: `I'll be away on ${future} since work is sending me to a conference in ${city(2)}`,
        },
      ],
    },
  ];
}

/** Quick texting: lower case, few full stops. */
function textingMonths({ hobby, city, job, destination, past, future }: Facts): Planted[] {
  return [
    {
      message: `hi! i'm ${a(job(0))}, living in ${city(0)} at the moment. big fan of ${hobby}, honestly could do it every day. btw booked flights, heading to ${destination} on ${past}`,
      inserts: [
        { text: `User is ${a(job(0))}`, quote: `i'm ${a(job(0))}` },
        { text: `User currently lives in ${city(0)}`, quote: `living in ${city(0)} at the moment` },
        { text: `User is a big fan of ${hobby}`, quote: `big fan of ${hobby}` },
        { text: `User booked a flight to ${destination} on ${past}`, quote: `heading to ${destination} on ${past}` },
      ],
    },
    {
      message: `ok so news: new city, new job lol. we're in ${city(1)} now and i'm working as ${a(job(1))}. still squeezing in ${hobby} whenever i can tho`,
      inserts: [
        { text: `User now lives in ${city(1)}`, quote: `we're in ${city(1)} now` },
        { text: `User works as ${a(job(1))}`, quote: `i'm working as ${a(job(1))}` },
        {
          text: `User still makes time for ${hobby} whenever possible`,
          quote: `still squeezing in ${hobby} whenever i can`,
        },
      ],
    },
    {
      message: `also ${city(2)} on ${future}, there's a conference i signed up for`,
      inserts: [
        {
          text: `User signed up for a conference in ${city(2)} on ${future}`,
          quote: `${city(2)} on ${future}, there's a conference i signed up for`,
        },
      ],
    },
  ];
}

/** Chatty and personal, the facts wrapped in a story. */
function storyMonths({ hobby, city, job, destination, past, future }: Facts): Planted[] {
  return [
    {
      message: `Figured I'd give you some background so you stop asking, haha. My partner and I rent a place in ${city(0)}. I've been ${a(job(0))} for a while and it's fine, pays the bills. What really gets me out of bed on a Saturday is ${hobby}. Oh, and I'm off to ${destination} on ${past} to see my sister.`,
      inserts: [
        {
          text: `User rents a place in ${city(0)} with their partner`,
          quote: `My partner and I rent a place in ${city(0)}`,
        },
        { text: `User has been ${a(job(0))} for a while`, quote: `I've been ${a(job(0))} for a while` },
        {
          text: `User's favourite Saturday activity is ${hobby}`,
          quote: `What really gets me out of bed on a Saturday is ${hobby}`,
        },
        {
          text: `User is travelling to ${destination} on ${past} to visit their sister`,
          quote: `I'm off to ${destination} on ${past} to see my sister`,
        },
      ],
    },
    {
      message: `Big changes since we last talked. I got hired as ${a(job(1))} (started Monday!) and the job's in ${city(1)}, so we packed up and live there now. Haven't had much time for ${hobby} with all this going on, but I still love it.`,
      inserts: [
        { text: `User recently started working as ${a(job(1))}`, quote: `I got hired as ${a(job(1))}` },
        {
          text: `User now lives in ${city(1)} with their partner`,
          quote: `the job's in ${city(1)}, so we packed up and live there now`,
        },
        {
          text: `User still loves ${hobby}, though they have had little time for it lately`,
          quote: `Haven't had much time for ${hobby} with all this going on, but I still love it`,
        },
      ],
    },
    {
      message: `Random thing, but I'm speaking at a conference in ${city(2)} on ${future} and I'm already nervous about it.`,
      inserts: [
        {
          text: `User is speaking at a conference in ${city(2)} on ${future}`,
          quote: `I'm speaking at a conference in ${city(2)} on ${future}`,
        },
      ],
    },
  ];
}

/** Wordings written without reading the rules they test (docs/performance.md, "Memory hygiene"): the report half's figure. */
export const heldOutWordings: ReadonlyArray<(facts: Facts) => Planted[]> = [
  casualMonths,
  backgroundMonths,
  textingMonths,
  storyMonths,
];
