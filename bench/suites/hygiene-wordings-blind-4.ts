/**
 * Eight more wordings of the tune half, written by a helper that read neither the offline rules nor the report half.
 * Where the earlier blind sets vary the managers' styles, these vary how the users themselves tell their values and
 * their changes: terse texting, long rambling sentences, changes told only in passing ("the commute from my new place
 * in …"), non-native English, questions, "we" and "my husband and I", lists, and emoji and slang (the last one also
 * names the old city again after the move, a hard case). Measured before the rules were worked on them (eight
 * people, one a wording): the offline extractor found an answer to 4 of 32 questions (recall@10 0.125) and left 2
 * conflicts; with the scripted manager's memories a run took restatements from 10.5% to 6.8% and conflicts from 17
 * to 5.
 */
import type { Facts, Planted } from "./hygiene-wordings";
import { withArticle as a } from "./hygiene-wordings-blind-2";

/** A terse texter: lowercase, next to no punctuation; the manager writes bare fragments. */
export function twentySecondTuneMonths({ hobby, city, job, destination, past, future }: Facts): Planted[] {
  return [
    {
      message: `hey quick q i live in ${city(0)} work as ${a(job(0))} and my weekends r all about ${hobby} lol. flying to ${destination} on ${past} what do i pack`,
      inserts: [
        { text: `Lives in ${city(0)}`, quote: `i live in ${city(0)}` },
        { text: `Works as ${a(job(0))}`, quote: `work as ${a(job(0))}` },
        { text: `Spends weekends ${hobby}`, quote: `my weekends r all about ${hobby}` },
        { text: `Flying to ${destination} on ${past}`, quote: `flying to ${destination} on ${past}` },
      ],
    },
    {
      message: `lol my cat knocked my phone in the sink again its fine now. whats a good rice cooker under 50`,
      inserts: [
        { text: "Has a cat", quote: "my cat knocked my phone in the sink" },
        { text: "Shopping for a rice cooker, budget under 50", quote: "whats a good rice cooker under 50" },
      ],
    },
    {
      message: `update moved to ${city(1)} last month new job too im ${a(job(1))} now still getting used to it. still doing ${hobby} every chance i get tho thats not changing`,
      inserts: [
        { text: `Moved to ${city(1)} last month`, quote: `moved to ${city(1)} last month` },
        { text: `New job: ${job(1)}`, quote: `new job too im ${a(job(1))} now` },
        { text: `Still does ${hobby} every chance they get`, quote: `still doing ${hobby} every chance i get` },
      ],
    },
    {
      message: `work conf in ${city(2)} on ${future} any cheap hotels near the center`,
      inserts: [
        {
          text: `Work conference in ${city(2)} on ${future}; looking for a cheap central hotel`,
          quote: `work conf in ${city(2)} on ${future}`,
        },
      ],
    },
  ];
}

/** A rambling storyteller: the facts, the move and the new job sit inside long sentences with subordinate clauses. */
export function twentyThirdTuneMonths({ hobby, city, job, destination, past, future }: Facts): Planted[] {
  return [
    {
      message: `So this is a long story but bear with me. I've been ${a(job(0))} for about six years now, which, if you've ever met anyone who does that, you'll know leaves you pretty drained by Friday, and the way I cope, ever since a friend dragged me along one rainy Saturday, is ${hobby}, which I genuinely think saved my sanity. Anyway, the reason I'm writing is that I live in ${city(0)}, and I'm flying to ${destination} on ${past} to see my grandmother, who turns ninety that week, and I wanted to ask what kind of gift travels well.`,
      inserts: [
        {
          text: `The user has worked as ${a(job(0))} for about six years and finds the job draining by the end of the week.`,
          quote: `I've been ${a(job(0))} for about six years now`,
        },
        {
          text: `The user copes with stress through ${hobby}, which a friend introduced them to and which they feel saved their sanity.`,
          quote: `the way I cope, ever since a friend dragged me along one rainy Saturday, is ${hobby}`,
        },
        { text: `The user lives in ${city(0)}.`, quote: `I live in ${city(0)}` },
        {
          text: `The user is flying to ${destination} on ${past} to visit their grandmother, who is turning ninety, and is looking for a gift that travels well.`,
          quote: `I'm flying to ${destination} on ${past} to see my grandmother, who turns ninety that week`,
        },
      ],
    },
    {
      message: `Since we relocated to ${city(1)} for my partner's work, I've been trying to figure out, among a hundred other things, how a person is supposed to make friends in a new city at this age, and the one thing that has helped, though I didn't expect it to, is that I picked ${hobby} back up with a local group that meets on Sunday mornings, so at least there's that. The other big change, which I still haven't quite wrapped my head around, is that I'm working as ${a(job(1))} now, after a friend of a friend mentioned an opening and I decided, somewhat on a whim, to apply.`,
      inserts: [
        {
          text: `The user has relocated to ${city(1)} with their partner because of the partner's job.`,
          quote: `we relocated to ${city(1)} for my partner's work`,
        },
        {
          text: `The user has picked ${hobby} back up with a local group that meets on Sunday mornings, which is helping them make friends.`,
          quote: `I picked ${hobby} back up with a local group that meets on Sunday mornings`,
        },
        {
          text: `The user now works as ${a(job(1))}, having applied on a whim after hearing about an opening.`,
          quote: `I'm working as ${a(job(1))} now`,
        },
        {
          text: "The user is finding it hard to make friends as an adult in a new city.",
          quote: "how a person is supposed to make friends in a new city at this age",
        },
      ],
    },
    {
      message: `Oh, and before I forget, I'll be in ${city(2)} on ${future} for a three-day conference, which I'm dreading a little because the last one I went to was, to put it kindly, a lot of standing around holding lukewarm coffee, so if you have any tips for surviving those, I'm all ears.`,
      inserts: [
        {
          text: `The user will attend a three-day conference in ${city(2)} starting ${future} and is somewhat dreading it.`,
          quote: `I'll be in ${city(2)} on ${future} for a three-day conference`,
        },
      ],
    },
  ];
}

/** An indirect teller: the move and the new job come out in passing ("my new place in …", "my first week at …"). */
export function twentyFourthTuneMonths({ hobby, city, job, destination, past, future }: Facts): Planted[] {
  return [
    {
      message: `Could you help me plan my week? Context: I work as ${a(job(0))}, my shifts change a lot, and I live in ${city(0)}, about twenty minutes from work by bike. I want to fit in ${hobby} at least twice. Also I'm flying to ${destination} on ${past}, so that day is out.`,
      inserts: [
        {
          text: `User works as ${a(job(0))} with a shifting schedule.`,
          quote: `I work as ${a(job(0))}, my shifts change a lot`,
        },
        {
          text: `User lives in ${city(0)}, about twenty minutes from work by bike.`,
          quote: `I live in ${city(0)}, about twenty minutes from work by bike`,
        },
        {
          text: `User wants to fit ${hobby} into the week at least twice.`,
          quote: `I want to fit in ${hobby} at least twice`,
        },
        { text: `User is flying to ${destination} on ${past}.`, quote: `I'm flying to ${destination} on ${past}` },
      ],
    },
    {
      message: `The commute from my new place in ${city(1)} is brutal, almost an hour each way, and my first week at the new job as ${a(job(1))} wiped me out. Any ideas for using train time well? Podcasts only get me so far.`,
      inserts: [
        {
          text: `User has a new home in ${city(1)}; the commute is almost an hour each way by train.`,
          quote: `The commute from my new place in ${city(1)} is brutal, almost an hour each way`,
        },
        {
          text: `User has started a new job as ${a(job(1))} and found the first week exhausting.`,
          quote: `my first week at the new job as ${a(job(1))} wiped me out`,
        },
      ],
    },
    {
      message: `Now that I'm based in ${city(1)}, I finally have Saturdays free for ${hobby}, which is still what I care about most outside work. Heads up for planning: there's a conference in ${city(2)} on ${future} my new team wants me at. Train or plane?`,
      inserts: [
        { text: `User is based in ${city(1)}.`, quote: `Now that I'm based in ${city(1)}` },
        {
          text: `User's main interest outside work remains ${hobby}; now has Saturdays free for it.`,
          quote: `I finally have Saturdays free for ${hobby}, which is still what I care about most outside work`,
        },
        {
          text: `User's new team wants them at a conference in ${city(2)} on ${future}.`,
          quote: `there's a conference in ${city(2)} on ${future} my new team wants me at`,
        },
      ],
    },
  ];
}

/** A non-native English speaker; the manager keeps key/value lines. */
export function twentyFifthTuneMonths({ hobby, city, job, destination, past, future }: Facts): Planted[] {
  return [
    {
      message: `Hello, I am ${a(job(0))} and I live in ${city(0)} since five years. My big passion is ${hobby}, I do it every weekend with my brother. Please can you help me, I fly to ${destination} at ${past} and I need to know if I need visa.`,
      inserts: [
        { text: `Occupation: ${job(0)}`, quote: `I am ${a(job(0))}` },
        { text: `Location: ${city(0)} (5 years)`, quote: `I live in ${city(0)} since five years` },
        {
          text: `Hobby: ${hobby} (every weekend, with brother)`,
          quote: `My big passion is ${hobby}, I do it every weekend with my brother`,
        },
        { text: `Trip: ${destination}, ${past} (asked about visa)`, quote: `I fly to ${destination} at ${past}` },
      ],
    },
    {
      message: `Thank you for the help before. Now is many changes: we make the moving to ${city(1)} last month, now we live there. Also I change my work, now I am working like ${a(job(1))}, is more money but more hours.`,
      inserts: [
        {
          text: `Location: ${city(1)} (moved last month)`,
          quote: `we make the moving to ${city(1)} last month, now we live there`,
        },
        {
          text: `Occupation: ${job(1)} (more pay, more hours)`,
          quote: `now I am working like ${a(job(1))}, is more money but more hours`,
        },
      ],
    },
    {
      message: `Still I love very much ${hobby}, here is even better for this than before. My English is not so good, please correct my mistakes when I write.`,
      inserts: [
        { text: `Hobby: ${hobby} (still loves it very much)`, quote: `Still I love very much ${hobby}` },
        { text: "Preference: wants English mistakes corrected", quote: "please correct my mistakes when I write" },
      ],
    },
    {
      message: `On ${future} I must go to ${city(2)} for a conference of my company, three days. What is good to see there?`,
      inserts: [
        {
          text: `Event: company conference, ${city(2)}, ${future} (3 days)`,
          quote: `On ${future} I must go to ${city(2)} for a conference of my company`,
        },
      ],
    },
  ];
}

/** A question asker: most facts arrive inside questions ("any tips for someone who just started as …?"). */
export function twentySixthTuneMonths({ hobby, city, job, destination, past, future }: Facts): Planted[] {
  return [
    {
      message: `What's the best way to get into ${hobby} more seriously? I've been doing it casually for a year. Also, as ${a(job(0))} living in ${city(0)}, is it normal to work this many weekends? And I'm flying to ${destination} on ${past}, what should I expect weather-wise?`,
      inserts: [
        {
          text: `Has been ${hobby} casually for a year and wants to get more serious about it`,
          quote: `What's the best way to get into ${hobby} more seriously? I've been doing it casually for a year`,
        },
        { text: `Works as ${a(job(0))}, often on weekends`, quote: `as ${a(job(0))} living in ${city(0)}` },
        { text: `Lives in ${city(0)}`, quote: `living in ${city(0)}` },
        { text: `Flying to ${destination} on ${past}`, quote: `I'm flying to ${destination} on ${past}` },
      ],
    },
    {
      message: `Any tips for someone who just started as ${a(job(1))} in ${city(1)}? I moved here three weeks ago and don't know anyone yet. Where do people usually meet?`,
      inserts: [
        { text: `Just started working as ${a(job(1))}`, quote: `someone who just started as ${a(job(1))}` },
        {
          text: `Moved to ${city(1)} about three weeks ago; doesn't know anyone there yet`,
          quote: `just started as ${a(job(1))} in ${city(1)}? I moved here three weeks ago`,
        },
      ],
    },
    {
      message: `Do you know if there are clubs for ${hobby} around here? It's what I've missed most since the move and I'd love to keep it up. Also, how do I get my cat to stop scratching the new sofa?`,
      inserts: [
        {
          text: `Looking for a club for ${hobby} nearby; wants to keep it up after the move`,
          quote: `Do you know if there are clubs for ${hobby} around here?`,
        },
        { text: "Has a cat that scratches the sofa", quote: "how do I get my cat to stop scratching the new sofa" },
      ],
    },
    {
      message: `Should I bring business cards to a conference? I'm going to one in ${city(2)} on ${future}, my first since changing jobs.`,
      inserts: [
        {
          text: `Going to a conference in ${city(2)} on ${future}`,
          quote: `I'm going to one in ${city(2)} on ${future}`,
        },
      ],
    },
  ];
}

/** A "we" teller: "my husband and I", "we finally made the move"; the manager dates its memories. */
export function twentySeventhTuneMonths({ hobby, city, job, destination, past, future }: Facts): Planted[] {
  return [
    {
      message: `My husband and I live in ${city(0)} with our two kids, and between my job (I'm ${a(job(0))}) and school runs, our only real family time is ${hobby} on Sundays. We're flying to ${destination} on ${past} for his sister's birthday, any tips for flying with a toddler?`,
      inserts: [
        {
          text: `Lives in ${city(0)} with husband and two kids.`,
          quote: `My husband and I live in ${city(0)} with our two kids`,
        },
        { text: `Works as ${a(job(0))}.`, quote: `I'm ${a(job(0))}` },
        {
          text: `The family spends Sundays ${hobby}; it is their main family time.`,
          quote: `our only real family time is ${hobby} on Sundays`,
        },
        {
          text: `Flying to ${destination} on ${past} with the family for the husband's sister's birthday; has a toddler.`,
          quote: `We're flying to ${destination} on ${past} for his sister's birthday`,
        },
      ],
    },
    {
      message: `Big news: we finally made the move to ${city(1)}! It took forever to sell the old flat. And I left my job as ${a(job(0))} and became ${a(job(1))}, which I've wanted to do for years.`,
      inserts: [
        {
          text: `As of this month, lives in ${city(1)} with the family (finally moved).`,
          quote: `we finally made the move to ${city(1)}`,
        },
        {
          text: `As of this month, works as ${a(job(1))}, having left the previous job as ${a(job(0))}.`,
          quote: `I left my job as ${a(job(0))} and became ${a(job(1))}`,
        },
        { text: "Sold the family's old flat.", quote: "It took forever to sell the old flat" },
      ],
    },
    {
      message: `The kids love the new house. We've kept our Sunday tradition going here: ${hobby}, all four of us, even the little one joins in.`,
      inserts: [
        {
          text: `As of this month, the family still spends Sundays ${hobby}, all four of them.`,
          quote: `We've kept our Sunday tradition going here: ${hobby}, all four of us`,
        },
        { text: "The kids love the new house.", quote: "The kids love the new house" },
      ],
    },
    {
      message: `We're all going to ${city(2)} on ${future}, my husband has a conference there and the kids and I are tagging along. Is it a family-friendly city?`,
      inserts: [
        {
          text: `Family trip to ${city(2)} on ${future}; husband is attending a conference there.`,
          quote: `We're all going to ${city(2)} on ${future}, my husband has a conference there`,
        },
      ],
    },
  ];
}

/** A list maker: bullet-ish messages; the manager writes short labelled memories. */
export function twentyEighthTuneMonths({ hobby, city, job, destination, past, future }: Facts): Planted[] {
  return [
    {
      message: `About me, for context:\n- ${job(0)} by profession\n- live in ${city(0)}\n- free time: ${hobby}\n- next trip: flying to ${destination} on ${past}\nKeep answers short please.`,
      inserts: [
        { text: `Profession: ${job(0)}`, quote: `${job(0)} by profession` },
        { text: `Lives in ${city(0)}`, quote: `live in ${city(0)}` },
        { text: `Free time: ${hobby}`, quote: `free time: ${hobby}` },
        { text: `Flying to ${destination} on ${past}`, quote: `flying to ${destination} on ${past}` },
        { text: "Prefers short answers", quote: "Keep answers short please" },
      ],
    },
    {
      message: `Updated context (a lot changed):\n- new city: ${city(1)} (moved last month)\n- new job: ${job(1)}, started two weeks ago\n- hobby: same as before, ${hobby} is still my main thing\n- also got a dog, Miso`,
      inserts: [
        { text: `Current city: ${city(1)} (moved last month)`, quote: `new city: ${city(1)} (moved last month)` },
        { text: `Current job: ${job(1)} (started two weeks ago)`, quote: `new job: ${job(1)}, started two weeks ago` },
        { text: `Main hobby is still ${hobby}`, quote: `${hobby} is still my main thing` },
        { text: "Has a dog named Miso", quote: "got a dog, Miso" },
      ],
    },
    {
      message: `Todo for next month:\n1. book hotel in ${city(2)} for the conference on ${future}\n2. renew passport\n3. find a vet for Miso`,
      inserts: [
        {
          text: `Attending a conference in ${city(2)} on ${future}; needs a hotel`,
          quote: `book hotel in ${city(2)} for the conference on ${future}`,
        },
        { text: "Needs to renew passport", quote: "renew passport" },
      ],
    },
  ];
}

/**
 * Emoji and slang ("rn", "ngl", "fr"); the change told as "I'm no longer …, I'm …". The hard case: after the move
 * the person names the old city again ("I miss the food in …"), and the manager keeps that as a memory of its own.
 */
export function twentyNinthTuneMonths({ hobby, city, job, destination, past, future }: Facts): Planted[] {
  return [
    {
      message: `yo 👋 living in ${city(0)} rn, ${job(0)} by day, ${hobby} every chance I get 🙌 lowkey obsessed ngl. flying to ${destination} on ${past}!! ✈️ what's the vibe there`,
      inserts: [
        { text: `User lives in ${city(0)}.`, quote: `living in ${city(0)} rn` },
        { text: `User works as ${a(job(0))} (day job).`, quote: `${job(0)} by day` },
        { text: `User is obsessed with ${hobby} and does it whenever possible.`, quote: `${hobby} every chance I get` },
        { text: `User is flying to ${destination} on ${past}.`, quote: `flying to ${destination} on ${past}` },
      ],
    },
    {
      message: `ok huge update 🚚📦 officially moved to ${city(1)}!!! and I'm no longer ${a(job(0))}, I'm ${a(job(1))} now 😤 new era fr`,
      inserts: [
        { text: `User moved to ${city(1)}.`, quote: `officially moved to ${city(1)}` },
        {
          text: `User now works as ${a(job(1))}, no longer ${a(job(0))}.`,
          quote: `I'm no longer ${a(job(0))}, I'm ${a(job(1))} now`,
        },
      ],
    },
    {
      message: `ngl I miss the food in ${city(0)} so bad 😭 nothing here compares. but ${hobby} hits different out here, been doing it like 3x a week 🔥`,
      inserts: [
        { text: `User misses the food in ${city(0)}.`, quote: `I miss the food in ${city(0)} so bad` },
        {
          text: `User does ${hobby} about three times a week and enjoys it even more since moving.`,
          quote: `${hobby} hits different out here, been doing it like 3x a week`,
        },
      ],
    },
    {
      message: `heading to ${city(2)} for a conference on ${future} 🎤 drop ur best late night food spots pls`,
      inserts: [
        {
          text: `User is heading to ${city(2)} for a conference on ${future}.`,
          quote: `heading to ${city(2)} for a conference on ${future}`,
        },
      ],
    },
  ];
}

export const BLIND_WORDINGS_4 = [
  twentySecondTuneMonths,
  twentyThirdTuneMonths,
  twentyFourthTuneMonths,
  twentyFifthTuneMonths,
  twentySixthTuneMonths,
  twentySeventhTuneMonths,
  twentyEighthTuneMonths,
  twentyNinthTuneMonths,
];
