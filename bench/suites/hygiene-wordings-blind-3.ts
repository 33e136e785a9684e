/**
 * Four more wordings of the tune half, written by a helper that read neither the offline rules nor the report half,
 * in four more managers' styles. Measured before the rules were worked on them (eight people): none of the
 * restatements merged and none of the 16 changed values was resolved.
 */
import type { Facts, Planted } from "./hygiene-wordings";
import { withArticle as a } from "./hygiene-wordings-blind-2";

/** Zep/Graphiti-style: edge-like fact sentences, some of them dated. */
export function eighteenthTuneMonths({ hobby, city, job, destination, past, future }: Facts): Planted[] {
  return [
    {
      message: `Quick intro before my question: I'm ${a(job(0))} and I live in ${city(0)}, and on weekends you'll usually find me ${hobby}. Also, I'm going to ${destination} on ${past} for a friend's wedding, so I could use some packing tips.`,
      inserts: [
        { text: `User is employed as ${a(job(0))}.`, quote: `I'm ${a(job(0))}` },
        { text: `User's home city is ${city(0)}.`, quote: `I live in ${city(0)}` },
        {
          text: `User's pastime: ${hobby}, usually on weekends.`,
          quote: `on weekends you'll usually find me ${hobby}`,
        },
        {
          text: `User has a trip to ${destination} planned for ${past} (a friend's wedding).`,
          quote: `I'm going to ${destination} on ${past} for a friend's wedding`,
        },
      ],
    },
    {
      message: `Our dog Biscuit has started refusing his kibble, he'll only eat it if I mix in some plain rice. Is that okay long term? I'm also trying to cut down on coffee, down to two cups a day.`,
      inserts: [
        {
          text: `User owns a dog named Biscuit, who has become a picky eater.`,
          quote: `Our dog Biscuit has started refusing his kibble`,
        },
        {
          text: `User is cutting down on coffee, aiming for two cups a day.`,
          quote: `I'm also trying to cut down on coffee, down to two cups a day`,
        },
      ],
    },
    {
      message: `Big few weeks over here. The boxes are finally unpacked and I live in ${city(1)} now. I also switched jobs, I've been working as ${a(job(1))} since last Monday and so far I love it.`,
      inserts: [
        { text: `As of this month, user's home city is ${city(1)}.`, quote: `I live in ${city(1)} now` },
        {
          text: `As of this month, user is employed as ${a(job(1))} (started last Monday).`,
          quote: `I've been working as ${a(job(1))} since last Monday`,
        },
      ],
    },
    {
      message: `Work is sending me to a conference in ${city(2)} on ${future}, what's the best way to get around there? Unrelated, but I'm still ${hobby} every Saturday morning, and my sister has started coming along.`,
      inserts: [
        {
          text: `User is scheduled to attend a conference in ${city(2)} on ${future}.`,
          quote: `a conference in ${city(2)} on ${future}`,
        },
        {
          text: `User continues ${hobby} on Saturday mornings; user's sister now joins.`,
          quote: `I'm still ${hobby} every Saturday morning, and my sister has started coming along`,
        },
      ],
    },
  ];
}

/** Letta/MemGPT-style core memory: persona-block lines about "the human". */
export function nineteenthTuneMonths({ hobby, city, job, destination, past, future }: Facts): Planted[] {
  return [
    {
      message: `hey! so I've been ${hobby} pretty much every free evening lately, it's the only thing that gets me off my phone lol. work is fine, being ${a(job(0))} keeps me busy, and honestly ${city(0)} is lovely this time of year. oh and I booked flights, I'm off to ${destination} on ${past}!`,
      inserts: [
        {
          text: `The human has been ${hobby} nearly every free evening; says it is the one thing that gets them off their phone.`,
          quote: `I've been ${hobby} pretty much every free evening lately`,
        },
        {
          text: `Human: works as ${a(job(0))}; the job keeps them busy but is going fine.`,
          quote: `being ${a(job(0))} keeps me busy`,
        },
        {
          text: `Human: lives in ${city(0)}; finds it lovely this time of year.`,
          quote: `${city(0)} is lovely this time of year`,
        },
        {
          text: `The human is flying to ${destination} on ${past}; flights are already booked.`,
          quote: `I booked flights, I'm off to ${destination} on ${past}`,
        },
      ],
    },
    {
      message: `ok life update: the move is done, I live in ${city(1)} now and the new flat finally has a balcony. also I switched careers, I got hired as ${a(job(1))} a couple weeks ago, still learning the ropes. my cat Pepper hated the car ride btw.`,
      inserts: [
        {
          text: `Human: now calls ${city(1)} home; the new flat has a balcony.`,
          quote: `I live in ${city(1)} now and the new flat finally has a balcony`,
        },
        {
          text: `Human: has been hired as ${a(job(1))} (a couple of weeks ago); still learning the ropes.`,
          quote: `I got hired as ${a(job(1))} a couple weeks ago, still learning the ropes`,
        },
        {
          text: `The human has a cat named Pepper, who dislikes car rides.`,
          quote: `my cat Pepper hated the car ride`,
        },
      ],
    },
    {
      message: `I'm presenting a poster at a conference in ${city(2)} on ${future}, kind of nervous. Good news is I've kept up ${hobby} with a little group from my building, it's how I unwind after long weeks. Also I've gone fully vegetarian, any easy dinner ideas?`,
      inserts: [
        {
          text: `The human will present a poster at a conference in ${city(2)} on ${future}; feels nervous about it.`,
          quote: `I'm presenting a poster at a conference in ${city(2)} on ${future}`,
        },
        {
          text: `The human has kept up ${hobby}, now with a small group from their building; it is how they unwind after long weeks.`,
          quote: `I've kept up ${hobby} with a little group from my building, it's how I unwind after long weeks`,
        },
        {
          text: `Human: follows a vegetarian diet; wants easy dinner ideas.`,
          quote: `I've gone fully vegetarian, any easy dinner ideas?`,
        },
      ],
    },
  ];
}

/** Gemini/Llama-style: hedged observations with reasons attached. */
export function twentiethTuneMonths({ hobby, city, job, destination, past, future }: Facts): Planted[] {
  return [
    {
      message: `Rent in ${city(0)} keeps going up, and on what I make as ${a(job(0))} things are tight. The one thing that keeps me sane is ${hobby}, it costs almost nothing. Can you help me budget for my trip? I fly to ${destination} on ${past} and want to stay under 800 euros.`,
      inserts: [
        {
          text: `User appears to live in ${city(0)} and is worried about rising rent.`,
          quote: `Rent in ${city(0)} keeps going up`,
        },
        {
          text: `User mentioned working as ${a(job(0))} and seems to find money tight.`,
          quote: `on what I make as ${a(job(0))} things are tight`,
        },
        {
          text: `User seems to really value ${hobby}, describing it as the thing that keeps them sane.`,
          quote: `The one thing that keeps me sane is ${hobby}`,
        },
        {
          text: `User is planning to fly to ${destination} on ${past} and would like to keep the trip under 800 euros.`,
          quote: `I fly to ${destination} on ${past} and want to stay under 800 euros`,
        },
      ],
    },
    {
      message: `My doctor says my iron is low, so I'm supposed to eat more leafy greens and lentils. I hate spinach though. Any recipes that hide it well?`,
      inserts: [
        {
          text: `User appears to have low iron and has been advised to eat more leafy greens and lentils.`,
          quote: `My doctor says my iron is low, so I'm supposed to eat more leafy greens and lentils`,
        },
        { text: `User mentioned disliking spinach.`, quote: `I hate spinach though` },
      ],
    },
    {
      message: `So I finally did it: I'm settled in ${city(1)} now and I've started working as ${a(job(1))}. It's a lot of change at once, but I think it was the right call.`,
      inserts: [
        { text: `User seems to be settled in ${city(1)} now.`, quote: `I'm settled in ${city(1)} now` },
        {
          text: `User mentioned that they recently became ${a(job(1))} and appears to feel it was the right call.`,
          quote: `I've started working as ${a(job(1))}`,
        },
      ],
    },
    {
      message: `My company is sending me to a conference in ${city(2)} on ${future}. Should I bring anything special? On a lighter note, I'm still ${hobby} every chance I get, I even got my partner into it last month.`,
      inserts: [
        {
          text: `User is expected to attend a conference in ${city(2)} on ${future}, apparently on behalf of their employer.`,
          quote: `My company is sending me to a conference in ${city(2)} on ${future}`,
        },
        {
          text: `User appears to still be ${hobby} every chance they get, and recently got their partner into it too.`,
          quote: `I'm still ${hobby} every chance I get, I even got my partner into it last month`,
        },
      ],
    },
  ];
}

/** Terse key/value and bullet style. */
export function twentyFirstTuneMonths({ hobby, city, job, destination, past, future }: Facts): Planted[] {
  return [
    {
      message: `Hi! Setting up my profile: ${job(0)} by trade, based in ${city(0)}, and I spend most Sunday afternoons ${hobby}. Trip coming up too, I'm going to ${destination} on ${past}. And please always give me short answers, I skim.`,
      inserts: [
        { text: `job -> ${job(0)}`, quote: `${job(0)} by trade` },
        { text: `home_city=${city(0)}`, quote: `based in ${city(0)}` },
        { text: `- hobby: ${hobby} (most Sunday afternoons)`, quote: `I spend most Sunday afternoons ${hobby}` },
        { text: `- plans: trip to ${destination} on ${past}`, quote: `I'm going to ${destination} on ${past}` },
        { text: `- prefers short answers`, quote: `please always give me short answers` },
      ],
    },
    {
      message: `Moved last month, I'm in ${city(1)} for good now. New job too, I work as ${a(job(1))} these days, way better hours. Still drinking way too much oat milk lol.`,
      inserts: [
        { text: `home_city=${city(1)} (moved last month)`, quote: `I'm in ${city(1)} for good now` },
        { text: `job -> ${job(1)} (better hours)`, quote: `I work as ${a(job(1))} these days, way better hours` },
        { text: `- drinks a lot of oat milk`, quote: `Still drinking way too much oat milk` },
      ],
    },
    {
      message: `Registered for a conference in ${city(2)} on ${future}! Also joined a club for ${hobby}, we meet twice a month, still my favourite thing to do. My knee's been bothering me after runs, should I see someone?`,
      inserts: [
        {
          text: `event: conference, ${city(2)}, ${future}`,
          quote: `Registered for a conference in ${city(2)} on ${future}`,
        },
        {
          text: `- hobby (ongoing): ${hobby}; joined a club, meets twice a month, still a favourite`,
          quote: `joined a club for ${hobby}, we meet twice a month, still my favourite thing to do`,
        },
        { text: `- health: knee pain after running`, quote: `My knee's been bothering me after runs` },
      ],
    },
  ];
}

export const BLIND_WORDINGS_3 = [
  eighteenthTuneMonths,
  nineteenthTuneMonths,
  twentiethTuneMonths,
  twentyFirstTuneMonths,
];
