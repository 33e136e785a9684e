/**
 * What the conversational dataset is written from. Facts are things one speaker tells the other once, in everyday
 * words (the evidence turn), between a prompt and a reaction from the other speaker; questions ask about them the way
 * a benchmark's annotators do: in other words ("job" for "started as a nurse"), sharing one rare word, naming a
 * date, or spanning an update made sessions later. Chit-chat is the bulk of every session and is deliberately full
 * of the everyday words questions also use (kids, weekend, work, love, favorite, first time, best part), so a
 * ranking that counts matched words prefers chatter to the turn with the one rare word; it also holds the real words
 * (rewarding, speaking, castle, biking, desert, bank, collage, fountain) one letter-shuffle away from words that
 * only questions use (according, speech, cattle, hiking, dessert, band, college, mountain), which a typo
 * corrector would wrongly swap in. Slot names in braces are filled per user; `{name}` is the speaker a question
 * asks about, `{other}` the other speaker.
 */

export type QuestionCategory = "rare-word" | "paraphrase" | "temporal" | "multi-evidence" | "near-miss";

export const QUESTION_CATEGORIES: readonly QuestionCategory[] = [
  "rare-word",
  "paraphrase",
  "temporal",
  "multi-evidence",
  "near-miss",
];

export interface FactQuestion {
  category: QuestionCategory;
  text: string;
  /** Indexes of the fact's evidence steps that answer it (all of them when absent). */
  evidence?: readonly number[];
}

export interface FactType {
  id: string;
  values: ReadonlyArray<Readonly<Record<string, string>>>;
  /** One list of phrasings per evidence step; a second step is an update told in a later session. */
  evidence: ReadonlyArray<readonly string[]>;
  /** Said by the other speaker just before the first evidence turn. */
  leadIns: readonly string[];
  /** Said by the other speaker just after an evidence turn (it may repeat the rare word: not evidence). */
  reactions: readonly string[];
  /** Later turns by the same speaker that mention the fact again without stating it (not evidence). */
  echoes?: readonly string[];
  questions: readonly FactQuestion[];
}

export const speakerNames = [
  "Caroline",
  "Melanie",
  "Jon",
  "Gina",
  "Nate",
  "Joanna",
  "Tim",
  "Maria",
  "Audrey",
  "Andrew",
  "Evan",
  "Deborah",
  "Jolene",
  "Calvin",
  "Dave",
  "Priya",
  "Omar",
  "Lena",
  "Hector",
  "Yuki",
];

export const facts: readonly FactType[] = [
  {
    id: "job",
    values: [
      { role: "nurse", where: "the children's hospital" },
      { role: "paralegal", where: "a small law firm downtown" },
      { role: "pastry chef", where: "a French bakery" },
      { role: "park ranger", where: "Redwood State Park" },
      { role: "dental hygienist", where: "a clinic near the station" },
    ],
    evidence: [
      [
        "Guess what, I finally started as a {role} at {where} last month!",
        "Things have been hectic since I became a {role} at {where}, but I love it.",
      ],
    ],
    leadIns: ["So what's new with you lately?", "How have things been on your end?"],
    reactions: ["Wow, a {role}! That must be so rewarding.", "That's amazing, you're going to be great at it."],
    echoes: ["Long shift today, my feet are killing me.", "Another early morning at {where}, coffee please."],
    questions: [
      { category: "paraphrase", text: "What does {name} do for a living?" },
      { category: "paraphrase", text: "What is {name}'s job these days?" },
      { category: "rare-word", text: "How does {name} feel about working at {where}?" },
      { category: "temporal", text: "When did {name} start working as a {role}?" },
    ],
  },
  {
    id: "moved",
    values: [
      { first: "Lisbon", second: "Porto" },
      { first: "Denver", second: "Boulder" },
      { first: "Austin", second: "San Antonio" },
      { first: "Toronto", second: "Montreal" },
      { first: "Edinburgh", second: "Glasgow" },
    ],
    evidence: [
      [
        "We finally moved into a little apartment in {first}, boxes everywhere!",
        "Big change: we packed up and moved to {first} a couple of weeks ago.",
      ],
      [
        "Update on our end: we left {first} for {second} in September, the rent was just too much.",
        "So we ended up leaving {first}, we're in {second} now and it feels right.",
      ],
    ],
    leadIns: ["How's the house hunt going?", "Are you still thinking about moving?"],
    reactions: ["A fresh start, I love that for you!", "Send me pictures of the new place!"],
    echoes: ["Still unpacking, I can't find half my kitchen stuff.", "The neighbors here are so friendly."],
    questions: [
      { category: "multi-evidence", text: "Where has {name} lived since moving to {first}?" },
      { category: "multi-evidence", text: "Which cities has {name} called home this year?" },
      { category: "paraphrase", text: "Where does {name} live now?", evidence: [1] },
      { category: "rare-word", text: "Why did {name} leave {first}?", evidence: [1] },
    ],
  },
  {
    id: "pet",
    values: [
      { breed: "golden retriever", animal: "puppy", pet: "Rex" },
      { breed: "tabby", animal: "kitten", pet: "Mochi" },
      { breed: "lop-eared", animal: "bunny", pet: "Clover" },
      { breed: "border collie", animal: "puppy", pet: "Biscuit" },
    ],
    evidence: [
      [
        "We brought home a little {breed} {animal} on Saturday, we named him {pet}!",
        "Meet the newest member of the family: a {breed} {animal} called {pet}.",
      ],
    ],
    leadIns: ["Anything fun happen this week?", "How are the kids doing?"],
    reactions: ["Oh my gosh, I need pictures right now!", "That's adorable, the kids must be over the moon."],
    echoes: ["{pet} chewed up my favorite shoes again.", "{pet} has decided the couch belongs to him now."],
    questions: [
      { category: "paraphrase", text: "What kind of pet does {name} have?" },
      { category: "rare-word", text: "What is the name of {name}'s {animal}?" },
      { category: "temporal", text: "When did {name} bring {pet} home?" },
    ],
  },
  {
    id: "class",
    values: [
      { hobby: "pottery", made: "a lopsided bowl" },
      { hobby: "watercolor", made: "a lighthouse at dusk" },
      { hobby: "woodworking", made: "a birdhouse" },
      { hobby: "stained glass", made: "a sun catcher" },
    ],
    evidence: [
      [
        "I signed up for a {hobby} class at the community center, my first project was {made}.",
        "Tuesday nights are {hobby} nights now, I made {made} and I'm weirdly proud of it.",
      ],
    ],
    leadIns: ["Have you picked up anything new lately?", "What have you been doing to relax?"],
    reactions: ["That sounds like so much fun, show me next time!", "I love that you're making time for yourself."],
    echoes: ["My {hobby} teacher said I'm improving, finally.", "Got clay under my nails again, totally worth it."],
    questions: [
      { category: "rare-word", text: "What did {name} make in the {hobby} class?" },
      { category: "paraphrase", text: "What creative hobby did {name} take up?" },
      { category: "temporal", text: "When did {name} start taking {hobby} lessons?" },
    ],
  },
  {
    id: "race",
    values: [
      { race: "half marathon", cause: "the animal shelter" },
      { race: "charity 5K", cause: "cancer research" },
      { race: "triathlon", cause: "a youth soccer league" },
      { race: "trail ultramarathon", cause: "wildfire relief" },
    ],
    evidence: [
      [
        "I ran a {race} last Sunday to raise money for {cause}, my legs are still sore!",
        "Crossed the finish line of my first {race}! We raised money for {cause}.",
      ],
    ],
    leadIns: ["How was your weekend?", "You sounded tired yesterday, everything okay?"],
    reactions: ["You're an inspiration, seriously.", "That's incredible, I could never run that far."],
    echoes: ["Still limping a little after the {race}, ha.", "Ice baths are my new best friend."],
    questions: [
      { category: "temporal", text: "When did {name} run the {race}?" },
      { category: "rare-word", text: "What cause did {name} raise money for?" },
      { category: "paraphrase", text: "What race did {name} finish recently?" },
    ],
  },
  {
    id: "trip",
    values: [
      { place: "Iceland", sight: "the northern lights" },
      { place: "Peru", sight: "Machu Picchu" },
      { place: "Japan", sight: "the cherry blossoms in Kyoto" },
      { place: "Morocco", sight: "the souks in Marrakesh" },
    ],
    evidence: [
      [
        "Just got back from {place}! Seeing {sight} in person was unreal.",
        "We spent ten days in {place} and {sight} was the highlight.",
      ],
    ],
    leadIns: ["You've been quiet, where have you been hiding?", "How was the time off?"],
    reactions: ["I'm so jealous, that's on my bucket list!", "Did you take lots of pictures?"],
    echoes: ["Still jet lagged from {place}, send help.", "I keep looking at my photos from {place}."],
    questions: [
      { category: "rare-word", text: "What did {name} see in {place}?" },
      { category: "temporal", text: "When did {name} get back from {place}?" },
      { category: "paraphrase", text: "Where did {name} go on vacation?" },
    ],
  },
  {
    id: "instrument",
    values: [
      { instrument: "violin", month: "March" },
      { instrument: "cello", month: "January" },
      { instrument: "ukulele", month: "June" },
      { instrument: "saxophone", month: "October" },
    ],
    evidence: [
      [
        "I've been taking {instrument} lessons since {month}, my fingers hurt but it's worth it.",
        "I finally bought a {instrument} in {month} and I practice every night after dinner.",
      ],
    ],
    leadIns: ["What keeps you busy in the evenings?", "Are you still doing that online course?"],
    reactions: ["You'll have to play something for me!", "That takes a lot of patience, good for you."],
    echoes: ["Practiced scales for an hour tonight.", "The neighbors haven't complained yet, so that's good."],
    questions: [
      { category: "paraphrase", text: "What instrument is {name} learning to play?" },
      { category: "temporal", text: "When did {name} start learning the {instrument}?" },
    ],
  },
  {
    id: "book",
    values: [
      { title: "The Salt Orchard", author: "Mara Quill" },
      { title: "A Map of Lanterns", author: "Theo Brandt" },
      { title: "Nine Quiet Rivers", author: "Ada Okafor" },
      { title: "The Glass Almanac", author: "Rui Santos" },
    ],
    evidence: [
      [
        "I just finished {title} by {author}, I couldn't put it down.",
        "Stayed up way too late finishing {title}, {author} is brilliant.",
      ],
    ],
    leadIns: ["Read anything good lately?", "What are you up to tonight?"],
    reactions: ["Ooh, add it to my list!", "You always have the best recommendations."],
    echoes: ["I keep thinking about the ending of {title}.", "Lent my copy of {title} to my sister."],
    questions: [
      { category: "rare-word", text: "What did {name} think of {title}?" },
      { category: "paraphrase", text: "Which novel did {name} recently finish?" },
      { category: "paraphrase", text: "Which author does {name} recommend?" },
    ],
  },
  {
    id: "wedding",
    values: [
      { relative: "sister", who: "Tanya", venue: "a vineyard in Napa" },
      { relative: "brother", who: "Luis", venue: "a lighthouse on the coast" },
      { relative: "cousin", who: "Beth", venue: "an old barn upstate" },
    ],
    evidence: [
      [
        "My {relative} {who} got married at {venue} over the weekend, I cried the whole time.",
        "{who} tied the knot at {venue}! Being there for my {relative} meant everything.",
      ],
    ],
    leadIns: ["How was the big family weekend?", "Did you survive the weekend?"],
    reactions: ["That sounds beautiful, congrats to them!", "I bet you were a mess, in the best way."],
    echoes: ["Going through the photos from {who}'s big day.", "Still have glitter in my hair from Saturday."],
    questions: [
      { category: "rare-word", text: "Where did {name}'s {relative} get married?" },
      { category: "paraphrase", text: "Whose wedding did {name} attend?" },
    ],
  },
  {
    id: "allergy",
    values: [
      { allergen: "shellfish", dish: "shrimp tacos" },
      { allergen: "peanuts", dish: "pad thai" },
      { allergen: "sesame", dish: "sushi rolls" },
    ],
    evidence: [
      [
        "Turns out I'm allergic to {allergen}, so no more {dish} for me.",
        "The doctor confirmed a {allergen} allergy, which explains a lot about {dish} night.",
      ],
    ],
    leadIns: ["How did the doctor's appointment go?", "Are you feeling better?"],
    reactions: ["Oh no, that must be tough, you love {dish}!", "At least now you know, that's scary."],
    questions: [
      { category: "paraphrase", text: "What food does {name} have to avoid?" },
      { category: "rare-word", text: "Why did {name} stop eating {dish}?" },
    ],
  },
  {
    id: "car",
    values: [{ car: "hybrid Prius" }, { car: "used Subaru wagon" }, { car: "electric Kia" }, { car: "Jeep Wrangler" }],
    evidence: [
      [
        "We traded in the old minivan for a {car}, it's so quiet.",
        "Said goodbye to the minivan, we're a {car} family now.",
      ],
    ],
    leadIns: ["Did you ever sort out the car situation?", "How's the commute?"],
    reactions: ["Nice upgrade! Road trip?", "The kids must love it."],
    questions: [
      { category: "paraphrase", text: "What vehicle does {name} drive now?" },
      { category: "rare-word", text: "What did {name} trade the minivan for?" },
    ],
  },
  {
    id: "volunteer",
    values: [{ org: "the animal shelter" }, { org: "the soup kitchen" }, { org: "the literacy center" }],
    evidence: [
      [
        "Volunteering at {org} on Saturdays has become the best part of my week.",
        "I started volunteering at {org}, honestly it's the best part of my week.",
      ],
    ],
    leadIns: ["How do you fill your Saturdays these days?", "Still keeping busy?"],
    reactions: ["That's so rewarding, they're lucky to have you.", "I should join you one Saturday!"],
    echoes: ["Saturday shift again, see you after.", "Someone at {org} brought donuts today."],
    questions: [
      { category: "near-miss", text: "According to {name}, what is the best part of the week?" },
      { category: "rare-word", text: "Where does {name} volunteer on Saturdays?" },
    ],
  },
  {
    id: "toast",
    values: [
      { relative: "dad", occasion: "retirement party" },
      { relative: "grandma", occasion: "ninetieth birthday" },
      { relative: "best friend", occasion: "engagement dinner" },
    ],
    evidence: [
      [
        "I gave a toast at my {relative}'s {occasion} and somehow didn't forget a single line.",
        "Stood up at my {relative}'s {occasion} and gave a little toast, hands shaking the whole time.",
      ],
    ],
    leadIns: ["How did the party go?", "Were you nervous about tonight?"],
    reactions: ["I bet you nailed it!", "Public speaking is the worst, proud of you."],
    questions: [
      { category: "near-miss", text: "What was {name}'s speech at the {occasion} like?" },
      { category: "rare-word", text: "Who did {name} give a toast for?" },
    ],
  },
  {
    id: "ranch",
    values: [{ state: "Montana" }, { state: "Wyoming" }, { state: "Nebraska" }],
    evidence: [
      [
        "My uncle's ranch in {state} has about forty cows now, the kids love feeding them.",
        "Spent a few days on my uncle's ranch in {state}, the cows follow you around like dogs.",
      ],
    ],
    leadIns: ["Where did you disappear to last week?", "How was the trip with the kids?"],
    reactions: ["City kids on a farm, I love it!", "That sounds like the perfect break."],
    questions: [
      { category: "near-miss", text: "How many cattle are on {name}'s uncle's ranch?" },
      { category: "paraphrase", text: "Where does {name}'s uncle farm?" },
    ],
  },
  {
    id: "trail",
    values: [{ trail: "Ridgeback" }, { trail: "Eagle Falls" }, { trail: "Blue Mesa" }],
    evidence: [
      [
        "We did the {trail} trail last weekend, the view from the top was unreal.",
        "Conquered the {trail} trail last weekend, six miles and my calves are on fire.",
      ],
    ],
    leadIns: ["Get outside at all last weekend?", "Any plans for the nice weather?"],
    reactions: ["Add me to the next one!", "Those views, wow."],
    questions: [
      { category: "near-miss", text: "Which hiking trail did {name} do last weekend?" },
      { category: "rare-word", text: "How long is the {trail} trail?" },
    ],
  },
  {
    id: "dessert",
    values: [{ sweet: "peach cobbler" }, { sweet: "tiramisu" }, { sweet: "key lime pie" }, { sweet: "baklava" }],
    evidence: [
      [
        "Nothing beats my grandma's {sweet}, I made it for the potluck and it vanished.",
        "I brought {sweet} to the potluck, grandma's recipe, people asked for seconds.",
      ],
    ],
    leadIns: ["What did you bring to the potluck?", "How was the neighborhood get-together?"],
    reactions: ["Save me a piece next time!", "Grandma recipes are the best recipes."],
    questions: [
      { category: "near-miss", text: "What is {name}'s favorite dessert?" },
      { category: "rare-word", text: "What did {name} bring to the potluck?" },
    ],
  },
  {
    id: "concert",
    values: [
      { artist: "The Lumineers", venue: "Red Rocks" },
      { artist: "Fleet Foxes", venue: "the Greek Theatre" },
      { artist: "Vampire Weekend", venue: "the Hollywood Bowl" },
    ],
    evidence: [
      [
        "We saw {artist} at {venue} and I lost my voice singing along.",
        "{artist} at {venue} was everything, I'm still humming the encore.",
      ],
    ],
    leadIns: ["How was your Friday night?", "Did you end up going out?"],
    reactions: ["Jealous! They're so good.", "You must be exhausted, in the best way."],
    questions: [
      { category: "near-miss", text: "Which band did {name} see in concert?" },
      { category: "rare-word", text: "Where did {name} see {artist}?" },
    ],
  },
  {
    id: "college",
    values: [
      { school: "Oberlin", major: "marine biology" },
      { school: "Tulane", major: "architecture" },
      { school: "Purdue", major: "aerospace engineering" },
    ],
    evidence: [
      [
        "My daughter picked {school} in the end, she wants to study {major}.",
        "Decision made: my daughter is going to {school} for {major}!",
      ],
    ],
    leadIns: ["Has your daughter decided yet?", "How's the application stress at home?"],
    reactions: ["That's huge, tell her congrats!", "You must be so proud."],
    questions: [
      { category: "near-miss", text: "Which college did {name}'s daughter choose?" },
      { category: "rare-word", text: "What does {name}'s daughter want to study?" },
    ],
  },
  {
    id: "summit",
    values: [{ peak: "Mount Rainier" }, { peak: "Pikes Peak" }, { peak: "Mount Washington" }],
    evidence: [
      [
        "We made it to the summit of {peak} at sunrise, best feeling ever.",
        "Reached the top of {peak} right as the sun came up, I almost cried.",
      ],
    ],
    leadIns: ["How did the big climb go?", "Back in one piece?"],
    reactions: ["You're braver than me!", "What a way to start the day."],
    questions: [
      { category: "near-miss", text: "Which mountain did {name} climb?" },
      { category: "temporal", text: "When did {name} reach the summit of {peak}?" },
    ],
  },
  {
    id: "garden",
    values: [{ crop: "tomatoes" }, { crop: "zucchini" }, { crop: "strawberries" }],
    evidence: [
      [
        "The {crop} in my garden finally came in, I have more than I know what to do with.",
        "My garden went wild this year, {crop} everywhere, come take some.",
      ],
    ],
    leadIns: ["How's the backyard project coming along?", "What have you been up to outside?"],
    reactions: ["Save some for me!", "Homegrown always tastes better."],
    questions: [
      { category: "rare-word", text: "What is growing in {name}'s garden?" },
      { category: "paraphrase", text: "What vegetables or fruit does {name} grow at home?" },
    ],
  },
  {
    id: "scratch",
    values: [{ dish: "ramen" }, { dish: "sourdough bread" }, { dish: "paella" }, { dish: "dumplings" }],
    evidence: [
      [
        "I tried making {dish} from scratch for the first time and it turned out great.",
        "Spent all Sunday making {dish} from scratch, the kitchen is a disaster but worth it.",
      ],
    ],
    leadIns: ["What's for dinner tonight?", "Cooked anything fun lately?"],
    reactions: ["Recipe please!", "Look at you, chef!"],
    questions: [
      { category: "rare-word", text: "What did {name} cook from scratch?" },
      { category: "paraphrase", text: "What dish did {name} make for the first time?" },
    ],
  },
  {
    id: "work-change",
    values: [
      { old: "the insurance company", next: "a startup that builds solar panels" },
      { old: "the bank branch", next: "the city planning office" },
      { old: "the call center", next: "a nonprofit for refugees" },
    ],
    evidence: [
      ["I handed in my notice at {old} today, it was time.", "It's official, I quit {old}, no more Monday dread."],
      [
        "First week at {next} done, everyone there actually cares.",
        "Started at {next} on Monday and I already feel at home.",
      ],
    ],
    leadIns: ["You seemed stressed about work last time, any news?", "How's the office drama?"],
    reactions: ["Good for you, that takes guts.", "So happy for you!"],
    questions: [
      { category: "multi-evidence", text: "Where has {name} worked this year?" },
      { category: "rare-word", text: "Why did {name} leave {old}?", evidence: [0] },
      { category: "paraphrase", text: "What is {name}'s new employer?", evidence: [1] },
    ],
  },
  {
    id: "kid-sport",
    values: [
      { kid: "Mia", sport: "gymnastics", result: "a silver medal" },
      { kid: "Leo", sport: "swim team", result: "a new personal best" },
      { kid: "Ava", sport: "chess club", result: "the regional trophy" },
    ],
    evidence: [
      [
        "{kid} won {result} at the {sport} meet, I screamed so loud.",
        "So proud, {kid} brought home {result} from {sport} this weekend!",
      ],
    ],
    leadIns: ["How did the kids' weekend go?", "Big weekend for the family?"],
    reactions: ["Tell {kid} I said congrats!", "Future champion right there."],
    echoes: ["{kid} wants to practice every day now.", "{kid} has practice again tonight."],
    questions: [
      { category: "rare-word", text: "What did {kid} win at {sport}?" },
      { category: "paraphrase", text: "What did {name}'s kid achieve this weekend?" },
    ],
  },
];

/** The everyday turns around the facts: the same words again and again, as in real chat. */
export const chitchat: readonly string[] = [
  "Hey {other}! It's been a while, how have you been?",
  "Same old, just trying to keep up with the kids and work.",
  "That's great to hear! I've been so busy lately.",
  "Speaking of which, did you ever try that {food} place downtown?",
  "Honestly it was so rewarding to see everyone together again.",
  "We took the kids to the bouncy castle at the fair, they loved it.",
  "We went biking along the river with the family on Sunday.",
  "My {family} and I watched a movie and ordered {food}, a perfect lazy night.",
  "I had to run to the bank before work, the line was ridiculous.",
  "The kids made a collage of family photos for their grandma.",
  "We drove through the desert on the way back, so hot.",
  "The kids splashed in the fountain at the {place} for hours.",
  "I can't speak for everyone, but I think the week went really well.",
  "Work has been crazy this week, I barely see the kids.",
  "I love that! What made you think of it?",
  "Haha, that's so you.",
  "The weekend flew by, I feel like I need another one.",
  "We had a family dinner at my {family}'s place, way too much food.",
  "My favorite part of the weekend is the slow Sunday morning.",
  "I think the best part of the week is Friday night pizza with the kids.",
  "Really? I had no idea, tell me more.",
  "That sounds like so much fun, I'm happy for you.",
  "Ugh, Mondays. I need more coffee.",
  "Thanks, {other}, that means a lot.",
  "I'm so tired, the kids were up all night.",
  "We finally got the kids to sleep, time for a show.",
  "Do you have any plans for the weekend?",
  "Not really, maybe the {place} if the weather holds.",
  "I started a new show last night and I'm already hooked.",
  "The first time I tried it I was terrible, but it gets easier.",
  "My {family} keeps asking when we're visiting again.",
  "I feel like time moves faster every year.",
  "We spent the afternoon at the {place} with the kids.",
  "I made {food} for dinner and the kids actually ate it.",
  "Work was long today, but I got through it.",
  "How are you feeling about everything?",
  "Honestly, pretty good! A bit tired but good.",
  "I love weekends like this, nothing to do and nowhere to be.",
  "We're thinking about a trip this summer, somewhere with a beach.",
  "The kids start school again next week, I can't believe it.",
  "I should really get back into a routine.",
  "My {family} said hi, by the way.",
  "That's awesome, {other}! You deserve it.",
  "We went to the {place} again, the kids never get tired of it.",
  "I think I'm finally getting the hang of this work schedule.",
  "Any good movie recommendations? We need something for family night.",
  "We watched that new animated movie, the kids loved it.",
  "I feel like I haven't had a real weekend in months.",
  "Let's get together soon, it's been too long.",
  "For sure! Let me know what works for you.",
  "My favorite thing lately is a long walk after dinner.",
  "I'm trying to get more sleep, it's not going great.",
  "The kids have been fighting all day, send snacks.",
  "We finally cleaned out the garage, it took the whole weekend.",
  "I think it's going to rain all weekend, so movie marathon it is.",
  "I got a new phone and I have no idea how to use it.",
  "Work threw a surprise party for my boss, it was actually fun.",
  "I love how the kids get so excited about the little things.",
  "Last weekend was a blur, I don't even remember Saturday.",
  "We started a new family tradition: pancakes every Sunday morning.",
  "I'm thinking about taking some time off work soon.",
  "My {family} came over and we played board games all night.",
  "I feel lucky to have friends like you.",
  "The kids built a fort in the living room, total chaos.",
  "That sounds so relaxing, I need a day like that.",
  "Busy week, but the good kind of busy.",
  "I've been meaning to call you all week!",
  "We grilled {food} in the backyard and stayed out until dark.",
  "What a week, I'm so ready for the weekend.",
  "Let me know how it goes, I want to hear everything.",
  "I think I need a vacation from my vacation.",
  "The kids want a pet so badly, they ask every day.",
  "I bet the kids had a blast.",
  "My favorite {food} place closed down, I'm heartbroken.",
  "We got lost on the way to the {place}, classic us.",
  "The best part of my day is getting home to the family.",
  "I finally read the first chapter of that book you lent me.",
  "Work is work, you know? Same every day.",
  "I've been feeling really good about things lately.",
  "We had friends over for dinner and talked until midnight.",
  "The weather was perfect for a day at the {place}.",
  "I started going to bed earlier, it really helps.",
  "I love that you always know what to say.",
  "My {family} sent me the funniest video today.",
  "The kids put on a little show for us after dinner.",
  "Honestly I just want a quiet weekend at home.",
  "I bought new running shoes, we'll see if I actually use them.",
  "Time for bed, talk tomorrow?",
  "We took the long way home and saw the sunset, so pretty.",
  "Work finally calmed down, I can breathe again.",
  "I think the kids are growing up way too fast.",
  "My {family} made the best {food} last night.",
  "It was my first time at that {place}, really nice.",
  "I'm starting to feel like myself again.",
  "We spent the whole weekend at home and it was perfect.",
  "That's such a good idea, why didn't I think of that?",
  "Can't wait to hear how the week goes for you.",
  "I feel like every weekend is busier than the last.",
  "The kids tried a new {food} recipe and made a huge mess.",
  "I got my hair cut, finally, it was getting out of hand.",
  "My {family} is visiting next weekend, the house is a mess.",
  "I'm so glad we talked, I feel better already.",
  "Love you, {other}, you always make my day.",
  "The kids learned to ride bikes at the {place}, no training wheels.",
  "Work offered me more hours, still thinking about it.",
  "We tried the new {food} truck by the {place}, pretty good.",
  "I think I'll take the kids to the library this weekend.",
  "My phone died halfway through the day, it was oddly freeing.",
  "The kids are obsessed with the new movie, we've seen it four times.",
  "It's been a long week, but a good one.",
  "Did you see the game last night? What a finish.",
  "I finally organized my closet, I feel like a new person.",
  "We walked to the {place} for ice cream after dinner.",
  "I love lazy Sunday mornings with the family.",
  "That reminds me, I need to call my {family} back.",
  "I'm so proud of you, {other}, really.",
  "The first week back at work is always rough.",
  "We found a great new spot by the {place} for picnics.",
  "The kids want to go camping this summer, wish me luck.",
  "I've been cooking more at home, trying to save money.",
  "It was so good to see the whole family together.",
  "I feel like I say this every week, but I'm exhausted.",
];

/**
 * Questions nothing in any conversation answers: topics no fact or chatter mentions, someone who is not in the
 * conversation (`{stranger}`), general words with many narrower ones, and gibberish. A search should find nothing it
 * is confident of for them.
 */
export const unanswerable: readonly string[] = [
  "What is {name}'s blood type?",
  "Which programming language does {name} use most?",
  "What did {name} name the sailboat?",
  "How many siblings does {name} have?",
  "Where did {name} get the tattoo?",
  "Which cryptocurrency is {name} investing in?",
  "Where did {name} go scuba diving?",
  "Which opera did {name} see in Vienna?",
  "What did {name} think of the solar eclipse?",
  "What podcast does {name} listen to on the commute?",
  "When does {name}'s passport expire?",
  "How often does {name} play poker?",
  "What is {stranger}'s hobby?",
  "Where does {stranger} work?",
  "content kind",
  "the general sort of stuff",
  "xqzv blorf wemp",
  "plimber snoz quaddle",
];

export const openers: readonly string[] = [
  "Hey {other}! Long time no talk, how's everything?",
  "Hi {other}, got a minute to catch up?",
  "Morning {other}! How was your week?",
  "Hey! I was just thinking about you, how are things?",
];

export const closers: readonly string[] = [
  "Talk soon, {other}! Give everyone a hug for me.",
  "Gotta run, dinner time. Talk later!",
  "Okay, bedtime for me. Night, {other}!",
  "So good catching up, let's not wait so long next time.",
];

/** Chatter is varied the way people type: an interjection before it, a tag after it (most turns have neither). */
export const interjections: readonly string[] = ["Honestly, ", "Oh, ", "Ha, ", "So, ", "Yeah, ", "Okay, ", "Anyway, "];
export const tags: readonly string[] = [" Anyway.", " Crazy, right?", " Haha.", " You know how it is.", " Ugh."];

export const slots: Readonly<Record<string, readonly string[]>> = {
  family: ["mom", "dad", "sister", "brother", "husband", "wife", "cousin", "in-laws"],
  food: ["pizza", "tacos", "burgers", "pasta", "curry", "noodles"],
  place: ["park", "beach", "lake", "mall", "zoo", "pool"],
};
