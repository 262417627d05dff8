// Word lists for believable seed titles, people and blurbs. Everything is invented: publishers
// and imprints must not collide with real trademarks, and author names are combinations that
// are not meant to point at real academics.
import type { Random } from './random.ts';

type SubjectKind = 'textbook' | 'fiction' | 'juvenile' | 'exam-prep';

type SubjectWords = {
  kind: SubjectKind;
  /** Course topics for textbooks, themes for fiction, exam names for study aids. */
  topics: readonly string[];
  /** Blurb sentences; `{topic}`, `{name}` and `{place}` are filled in at generation time. */
  sentences: readonly string[];
};

export const firstNames: readonly string[] = [
  'Aisha',
  'Alejandro',
  'Amina',
  'Andrei',
  'Anjali',
  'Ayodele',
  'Beatriz',
  'Camille',
  'Chiamaka',
  'Daniel',
  'Dmitri',
  'Elena',
  'Emeka',
  'Fatima',
  'Freya',
  'Gabriel',
  'Hana',
  'Hiroshi',
  'Ibrahim',
  'Ingrid',
  'Isabel',
  'Jamal',
  'Javier',
  'Jin',
  'Kateryna',
  'Kwame',
  'Laila',
  'Lucas',
  'Mei',
  'Mohammed',
  'Nadia',
  'Naveen',
  'Nkechi',
  'Olga',
  'Omar',
  'Priya',
  'Rafael',
  'Rania',
  'Rohan',
  'Sakura',
  'Samuel',
  'Sina',
  'Siobhan',
  'Soo-ah',
  'Tariq',
  'Thandiwe',
  'Tomás',
  'Valentina',
  'Wei',
  'Yara',
  'Yusuf',
  'Zanele',
];

export const lastNames: readonly string[] = [
  'Abernathy',
  'Adeyemi',
  'Alvarez',
  'Andersen',
  'Banerjee',
  'Bianchi',
  'Castillo',
  'Chen',
  'Chowdhury',
  'Dubois',
  'Eriksson',
  'Fernández',
  'Fitzgerald',
  'Goldberg',
  'Gupta',
  'Haddad',
  'Hernández',
  'Ito',
  'Jensen',
  'Kaplan',
  'Kowalski',
  'Kuznetsov',
  'Lindqvist',
  'Mensah',
  'Morales',
  'Nakamura',
  'Nguyen',
  'Novak',
  'Okafor',
  "O'Connell",
  'Osei',
  'Park',
  'Patel',
  'Petrov',
  'Quispe',
  'Rahman',
  'Rossi',
  'Sato',
  'Schmidt',
  'Silva',
  'Sokolova',
  'Takahashi',
  'Tran',
  'van der Berg',
  'Whitaker',
  'Yilmaz',
  'Zhang',
  'Zielinski',
];

export const publishers: readonly string[] = [
  'Northfield Academic Press',
  'Harrow & Finch Learning',
  'Oakmere University Press',
  'Copperline Education',
  'Bluestem Scholarly',
  'Tidewell Books',
  'Larkspur Hill Press',
  'Quarry Lane Academic',
  'Windrow Learning',
  'Saltmarsh & Reed',
  'Fernhollow Editions',
  'Greyharbor Courseware',
  'Brightwater College Texts',
  'Juniper Row Publishing',
];

const TEXTBOOK_TITLES: readonly string[] = [
  '{topic}',
  'Introduction to {topic}',
  'Principles of {topic}',
  'Foundations of {topic}',
  'Essentials of {topic}',
  'Fundamentals of {topic}',
  '{topic} in Practice',
  'Understanding {topic}',
  'A First Course in {topic}',
  'Elements of {topic}',
  'Contemporary {topic}',
  'Exploring {topic}',
];

const TEXTBOOK_SUBTITLES: readonly string[] = [
  'A Modern Approach',
  'Concepts and Applications',
  'Theory and Practice',
  'An Integrated Approach',
  'Principles, Methods, and Cases',
  "A Student's Guide",
  'Models, Methods, and Evidence',
  'A Problem-Solving Approach',
  'Core Concepts and Connections',
  'From Foundations to Frontiers',
];

const EXAM_TITLES: readonly string[] = [
  '{topic} Review Guide',
  '{topic} Practice Workbook',
  'Mastering {topic}',
  'Complete {topic} Study Guide',
  '{topic} Strategies and Practice',
  '{topic} Essential Review',
];

const EXAM_SUBTITLES: readonly string[] = [
  'Practice Tests, Review, and Strategies',
  'Targeted Drills with Full Answer Explanations',
  'A Complete Plan for Test Day',
  'Three Full-Length Practice Tests',
];

const FICTION_TITLES: readonly string[] = [
  'The {adjective} {noun}',
  'The {noun} of {place}',
  '{noun} and {noun}',
  'A {noun} for {name}',
  'What the {noun} Knew',
  'The Last {noun}',
  'Beneath the {adjective} {noun}',
];

const FICTION_SUBTITLES: readonly string[] = [
  'A Novel',
  'Stories',
  'A Mystery',
  'A Novel in Parts',
];

const JUVENILE_TITLES: readonly string[] = [
  '{name} and the {adjective} {noun}',
  'The Secret of {place}',
  'The {adjective} {noun} Club',
  '{name} Saves the {noun}',
  'Mystery at {place}',
  'The Great {noun} Adventure',
];

const JUVENILE_SUBTITLES: readonly string[] = [
  'A Middle-Grade Adventure',
  'Book One of the {place} Chronicles',
  'An Illustrated Story',
];

const STORY_ADJECTIVES: readonly string[] = [
  'Silent',
  'Hollow',
  'Distant',
  'Borrowed',
  'Burning',
  'Quiet',
  'Forgotten',
  'Unfinished',
  'Midnight',
  'Northern',
  'Silver',
  'Hidden',
  'Wandering',
  'Invisible',
  'Crooked',
  'Gilded',
];

const STORY_NOUNS: readonly string[] = [
  'Lantern',
  'Orchard',
  'Harbor',
  'Cartographer',
  'Winter',
  'Tide',
  'Lighthouse',
  'Archive',
  'Garden',
  'Bridge',
  'River',
  'Ember',
  'Compass',
  'Island',
  'Mirror',
  'Clockmaker',
  'Weaver',
  'Feather',
  'Signal',
  'Crossing',
];

const STORY_NAMES: readonly string[] = [
  'Amara',
  'Theo',
  'Priya',
  'Mateo',
  'Noor',
  'Kenji',
  'Zadie',
  'Felix',
  'Ines',
  'Tobias',
  'Kofi',
  'Wren',
  'Ravi',
  'Esme',
  'Dara',
  'Lupe',
];

// Invented places, so no fictional blurb ever makes claims about a real town.
const STORY_PLACES: readonly string[] = [
  'Saltmere',
  'Brindle Hollow',
  'Quillon Reach',
  'Varrow',
  'Elsinmoor',
  'Ashcombe Point',
  'Tamsin Cove',
  'Greywater',
  'Hallowfield',
  'Mirelow',
];

const KIND_SENTENCES: Record<SubjectKind, readonly string[]> = {
  textbook: [
    'Each chapter opens with clear learning objectives and closes with a summary of key terms.',
    'Worked examples walk through every step, so students can check their reasoning as they go.',
    'End-of-chapter exercises range from quick concept checks to extended, open-ended problems.',
    'The accessible writing style assumes no prior background in {topic}.',
    'Instructors will find the modular structure easy to adapt to semester or quarter schedules.',
    'Margin notes, chapter summaries, and review questions reinforce the most important ideas.',
    'Case studies drawn from current research show how {topic} is practised today.',
    'This edition has been thoroughly revised to reflect recent developments in the field.',
    'Online courseware with adaptive quizzes and instructor resources accompanies the text.',
    'Every figure and table is described in the text, so no reader misses part of the argument.',
    'A glossary, a full index, and answers to selected problems make the book easy to navigate.',
  ],
  fiction: [
    'Told in spare, luminous prose, the novel moves between past and present.',
    'It is a story about {topic}, and about the quiet choices that shape a life.',
    'Critics have praised its vivid characters and its unhurried, immersive pacing.',
    'This edition includes an introduction, notes on the text, and questions for discussion.',
    'By turns funny and heartbreaking, it lingers long after the final page.',
    'Set in the fading town of {place}, it follows {name} through one unforgettable year.',
    '{name} must decide what to keep and what to leave behind.',
    'Few recent novels have captured {topic} with such honesty and grace.',
  ],
  juvenile: [
    'Short chapters and lively illustrations make it perfect for reading aloud.',
    '{name} and a band of unlikely friends must work together to set things right.',
    'It is a story about {topic}, courage, and finding your place in the world.',
    'Discussion questions at the back make it a natural fit for classrooms and book clubs.',
    'Recommended for readers aged eight to twelve.',
    'When strange lights appear over {place}, only {name} seems to notice.',
    'Warm, funny, and full of surprises, it is a first chapter book to treasure.',
  ],
  'exam-prep': [
    'Full-length practice tests mirror the format, timing, and difficulty of the real exam.',
    'Every practice question comes with a detailed answer explanation.',
    'Targeted review chapters cover the content most likely to appear on test day.',
    'Proven strategies help students manage their time, avoid common traps, and raise scores.',
    'A diagnostic test pinpoints strengths and weaknesses, so study time goes where it matters.',
    'Online flashcards and additional drills extend practice well beyond the printed book.',
    'Study plans for one, three, and six months fit any schedule.',
  ],
};

// Used to land a blurb on an exact word count without cutting a sentence in half.
const CLOSERS: readonly string[] = [
  'Recommended.',
  'Essential.',
  'Highly recommended.',
  'Thoroughly engaging.',
  'A rewarding read.',
  'Clear, engaging, essential.',
  'A genuinely rewarding read.',
  'Readers will return often.',
  'A book worth reading twice.',
  'Readers will return to it often.',
  'A welcome addition to any reading list.',
  'A book that rewards careful, patient, attentive reading.',
  'Readers of all backgrounds will find much to value.',
  'Readers at every level will find something here to value.',
  'It deserves a permanent place on the shelf of every reader.',
  'It belongs on the shelf of every curious reader and every classroom.',
];

export const subjectWords: Readonly<Record<string, SubjectWords>> = {
  mathematics: {
    kind: 'textbook',
    topics: [
      'Calculus',
      'Linear Algebra',
      'Abstract Algebra',
      'Discrete Mathematics',
      'Real Analysis',
      'Differential Equations',
      'Probability',
      'Mathematical Statistics',
      'Number Theory',
      'Geometry',
      'Trigonometry',
      'Precalculus',
      'Combinatorics',
      'Topology',
      'Numerical Analysis',
    ],
    sentences: [
      'Rigorous proofs sit alongside intuitive explanations, so readers see both why and how.',
      'Graphs and geometric pictures build intuition before each formal definition is introduced.',
      'Hundreds of exercises, graded by difficulty, build fluency with {topic}.',
      'Optional computing projects show how the theory behaves on real data.',
      'Students preparing for advanced work in {topic} will find a solid, careful foundation here.',
    ],
  },
  science: {
    kind: 'textbook',
    topics: [
      'General Chemistry',
      'Organic Chemistry',
      'Biochemistry',
      'Physics',
      'Quantum Mechanics',
      'Cell Biology',
      'Genetics',
      'Ecology',
      'Microbiology',
      'Astronomy',
      'Geology',
      'Environmental Science',
      'Thermodynamics',
      'Evolutionary Biology',
    ],
    sentences: [
      'Laboratory activities connect each concept to observations students can make themselves.',
      'The book emphasises the scientific method and the evidence behind every major idea in {topic}.',
      'Full-colour illustrations and annotated diagrams make complex processes easy to follow.',
      'Quantitative reasoning is developed gradually, with reminders of the mathematics needed.',
      'Boxed features explore the history of discovery and the people who made it.',
    ],
  },
  computers: {
    kind: 'textbook',
    topics: [
      'Programming',
      'Data Structures',
      'Algorithms',
      'Computer Architecture',
      'Operating Systems',
      'Database Systems',
      'Computer Networks',
      'Software Engineering',
      'Machine Learning',
      'Artificial Intelligence',
      'Computer Security',
      'Python Programming',
      'Web Development',
      'Computability and Complexity',
    ],
    sentences: [
      'Every example program is complete, tested, and available to download.',
      'Programming exercises move from small functions to substantial, multi-part projects.',
      'The text explains not only how to write code but how to reason about its correctness and cost.',
      'Coverage of {topic} is language-neutral, with examples in pseudocode and Python.',
      'Chapters on testing, debugging, and version control prepare students for real teams.',
    ],
  },
  'business-economics': {
    kind: 'textbook',
    topics: [
      'Microeconomics',
      'Macroeconomics',
      'Financial Accounting',
      'Managerial Accounting',
      'Corporate Finance',
      'Marketing',
      'Management',
      'Econometrics',
      'Business Statistics',
      'Operations Management',
      'Entrepreneurship',
      'International Business',
      'Business Ethics',
    ],
    sentences: [
      'Real company examples and data bring the principles of {topic} to life.',
      'Each chapter ends with a decision-making case drawn from small firms and global businesses.',
      'Spreadsheet exercises teach the analytical tools that employers expect.',
      'Clear graphs and step-by-step calculations make the quantitative material approachable.',
      'Ethical questions are woven through the text rather than confined to a single chapter.',
    ],
  },
  'political-science': {
    kind: 'textbook',
    topics: [
      'American Government',
      'Comparative Politics',
      'International Relations',
      'Political Theory',
      'Public Policy',
      'Public Administration',
      'Political Economy',
      'Constitutional Law',
      'Elections and Voting',
      'Global Governance',
    ],
    sentences: [
      'Balanced coverage presents competing perspectives fairly and invites students to weigh the evidence.',
      'Data-driven features help students read polls, budgets, and election results critically.',
      'Primary-source excerpts let students engage directly with foundational documents.',
      'The text connects {topic} to the questions students see in the news every day.',
      'Civic engagement activities encourage students to apply what they learn in their communities.',
    ],
  },
  'social-science': {
    kind: 'textbook',
    topics: [
      'Sociology',
      'Cultural Anthropology',
      'Archaeology',
      'Criminology',
      'Demography',
      'Research Methods',
      'Social Statistics',
      'Urban Studies',
      'Gender Studies',
      'Social Theory',
    ],
    sentences: [
      'Global examples show how {topic} helps explain everyday life across many cultures.',
      'Research spotlights show how social scientists gather and interpret evidence.',
      'Students are encouraged to apply the sociological imagination to their own experiences.',
      'Maps, charts, and current statistics illustrate patterns of inequality and change.',
      'Each chapter closes with questions that connect the theory to contemporary debates.',
    ],
  },
  fiction: {
    kind: 'fiction',
    topics: [
      'memory',
      'inheritance',
      'exile',
      'first love',
      'grief',
      'ambition',
      'family secrets',
      'friendship',
      'belonging',
      'betrayal',
      'forgiveness',
      'coming of age',
    ],
    sentences: [
      'A sweeping, intimate novel of {topic} across three generations.',
      'When a letter arrives in {place}, {name} is drawn back into a past long buried.',
      'This classroom edition includes a chronology, a map, and a critical essay.',
      'Its portrait of {topic} has made it a favourite in literature courses.',
    ],
  },
  history: {
    kind: 'textbook',
    topics: [
      'World History',
      'United States History',
      'European History',
      'Ancient Rome',
      'Ancient Greece',
      'Medieval Europe',
      'Modern China',
      'Latin American History',
      'African History',
      'Twentieth-Century History',
      'Atlantic History',
      'Historiography',
    ],
    sentences: [
      'A compelling narrative is paired with primary sources that let students do history themselves.',
      'Maps and timelines orient readers in time and place throughout the survey of {topic}.',
      'The book gives voice to ordinary people alongside rulers, armies, and institutions.',
      'Each chapter asks students to weigh the evidence behind competing interpretations.',
      'Recent scholarship on environment, migration, and trade informs every section.',
    ],
  },
  psychology: {
    kind: 'textbook',
    topics: [
      'Psychology',
      'Developmental Psychology',
      'Social Psychology',
      'Cognitive Psychology',
      'Abnormal Psychology',
      'Biological Psychology',
      'Research Methods in Psychology',
      'Personality',
      'Clinical Psychology',
      'Lifespan Development',
      'Health Psychology',
    ],
    sentences: [
      'Classic studies and the latest research are presented side by side, with attention to replication.',
      'Students learn to think like psychologists by evaluating claims about {topic}.',
      'Real-world applications show how findings inform education, health, and the workplace.',
      'Diverse examples reflect the full range of human experience and culture.',
      'Clear explanations of research design prepare students to read journal articles with confidence.',
    ],
  },
  'juvenile-fiction': {
    kind: 'juvenile',
    topics: [
      'friendship',
      'bravery',
      'family',
      'kindness',
      'honesty',
      'teamwork',
      'curiosity',
      'being different',
      'growing up',
      'second chances',
    ],
    sentences: [
      'An adventure about {topic} that young readers will want to share with a friend.',
      'Perfect for classroom read-alouds and independent reading alike.',
      'A teaching guide with vocabulary lists and activities is available for educators.',
    ],
  },
  'study-aids': {
    kind: 'exam-prep',
    topics: [
      'ACT',
      'SAT',
      'GRE',
      'GMAT',
      'LSAT',
      'MCAT',
      'AP Biology',
      'AP Calculus',
      'AP Chemistry',
      'AP U.S. History',
      'AP English Literature',
      'PSAT',
    ],
    sentences: [
      'Completely updated for the current {topic} exam, with the latest question types.',
      'Written by experienced teachers who know exactly where students lose points.',
      'Score-raising techniques are explained clearly and practised immediately.',
    ],
  },
  'language-arts-disciplines': {
    kind: 'textbook',
    topics: [
      'Composition',
      'Academic Writing',
      'Creative Writing',
      'Linguistics',
      'Public Speaking',
      'Communication Studies',
      'Journalism',
      'Grammar and Usage',
      'Rhetoric',
      'Technical Writing',
      'Phonetics and Phonology',
      'Sociolinguistics',
    ],
    sentences: [
      'Annotated student essays model every stage of the writing process.',
      'Practical guidance on research, citation, and revision runs throughout.',
      'Examples from many varieties of English show how language varies and changes.',
      'Short readings and prompts invite students to practise {topic} in every chapter.',
      'Checklists and peer-review guides help students give and use feedback well.',
    ],
  },
  medical: {
    kind: 'textbook',
    topics: [
      'Human Anatomy',
      'Physiology',
      'Anatomy and Physiology',
      'Pharmacology',
      'Pathophysiology',
      'Medical Terminology',
      'Nursing Fundamentals',
      'Medical-Surgical Nursing',
      'Epidemiology',
      'Public Health',
      'Immunology',
      'Clinical Skills',
    ],
    sentences: [
      'Clinical case studies connect the science of {topic} to patient care.',
      'Detailed illustrations and clear tables support both study and quick reference.',
      'Review questions follow the style of licensing and certification exams.',
      'Safety alerts and evidence-based practice boxes highlight what matters at the bedside.',
      'Content reflects current clinical guidelines and the needs of interprofessional teams.',
    ],
  },
  education: {
    kind: 'textbook',
    topics: [
      'Educational Psychology',
      'Classroom Management',
      'Curriculum Design',
      'Special Education',
      'Literacy Instruction',
      'Teaching Mathematics',
      'Assessment and Evaluation',
      'Educational Leadership',
      'Schooling and Society',
      'Inclusive Teaching',
    ],
    sentences: [
      'Vignettes from real classrooms show {topic} in action across grade levels.',
      'Lesson-planning templates and reflection prompts support student teachers in the field.',
      'The text is aligned with widely used professional teaching standards.',
      'Strategies for diverse learners, including multilingual students, appear in every chapter.',
      'Research summaries help future teachers make evidence-informed decisions.',
    ],
  },
};

export const subjectSlugs: readonly string[] = Object.keys(subjectWords);

function subjectFor(subjectSlug: string): SubjectWords {
  const subject = subjectWords[subjectSlug];
  if (!subject) throw new RangeError(`No word list for subject ${JSON.stringify(subjectSlug)}`);
  return subject;
}

function fill(rand: Random, template: string, topic: string): string {
  const filled = template.replace(/\{(topic|name|place|adjective|noun)\}/g, (_, slot: string) => {
    switch (slot) {
      case 'topic':
        return topic;
      case 'name':
        return rand.pick(STORY_NAMES);
      case 'place':
        return rand.pick(STORY_PLACES);
      case 'adjective':
        return rand.pick(STORY_ADJECTIVES);
      default:
        return rand.pick(STORY_NOUNS);
    }
  });
  // Slots can put a vowel after a template's "A" ("A {noun} for {name}" -> "An Orchard ...").
  return filled.replace(/\b([Aa]) (?=[AEIOUaeiou])/g, '$1n ');
}

const TITLE_PATTERNS: Record<SubjectKind, readonly string[]> = {
  textbook: TEXTBOOK_TITLES,
  'exam-prep': EXAM_TITLES,
  fiction: FICTION_TITLES,
  juvenile: JUVENILE_TITLES,
};

const SUBTITLE_PATTERNS: Record<SubjectKind, readonly string[]> = {
  textbook: TEXTBOOK_SUBTITLES,
  'exam-prep': EXAM_SUBTITLES,
  fiction: FICTION_SUBTITLES,
  juvenile: JUVENILE_SUBTITLES,
};

/** A title for a product in the given top-level BISAC subject (see bisac.ts slugs). */
export function makeTitle(rand: Random, subjectSlug: string): string {
  const subject = subjectFor(subjectSlug);
  return fill(rand, rand.pick(TITLE_PATTERNS[subject.kind]), rand.pick(subject.topics));
}

export function makeSubtitle(rand: Random, subjectSlug: string): string {
  const subject = subjectFor(subjectSlug);
  return fill(rand, rand.pick(SUBTITLE_PATTERNS[subject.kind]), rand.pick(subject.topics));
}

export function makeAuthorName(rand: Random): string {
  const first = rand.pick(firstNames);
  const last = rand.pick(lastNames);
  if (!rand.chance(0.25)) return `${first} ${last}`;
  const initial = rand.pick([...'ABCDEFGHJKLMNPRSTW']);
  return `${first} ${initial}. ${last}`;
}

export function makePublisher(rand: Random): string {
  return rand.pick(publishers);
}

const countWords = (text: string): number => text.split(/\s+/).filter(Boolean).length;

const closersByLength = new Map<number, string[]>();
for (const closer of CLOSERS) {
  const n = countWords(closer);
  closersByLength.set(n, [...(closersByLength.get(n) ?? []), closer]);
}
const MAX_CLOSER = Math.max(...closersByLength.keys());

/** Exposed for the test that guards the exact-length guarantee below. */
export const closerLengths: readonly number[] = [...closersByLength.keys()].sort((a, b) => a - b);

/**
 * A blurb of exactly `words` words made of whole sentences. Exact length matters: listing pages
 * truncate descriptions at 30 and 100 words, and seed data should exercise both cut-offs, so
 * callers typically ask for rand.int(40, 180).
 */
export function makeDescription(rand: Random, subjectSlug: string, words: number): string {
  if (!Number.isInteger(words) || words < 1) {
    throw new RangeError(`makeDescription needs a positive integer word count, got ${words}`);
  }
  const subject = subjectFor(subjectSlug);
  const pool = [...subject.sentences, ...KIND_SENTENCES[subject.kind]];
  let queue = rand.shuffle(pool);
  const out: string[] = [];
  let remaining = words;

  while (remaining > MAX_CLOSER) {
    if (queue.length === 0) queue = rand.shuffle(pool);
    const topic = rand.pick(subject.topics);
    const candidates = queue.map((template) => fill(rand, template, topic));
    const index = candidates.findIndex((sentence) => countWords(sentence) <= remaining);
    if (index === -1) {
      out.push(rand.pick(closersByLength.get(MAX_CLOSER) as string[]));
      remaining -= MAX_CLOSER;
      continue;
    }
    const sentence = candidates[index] as string;
    out.push(sentence);
    remaining -= countWords(sentence);
    queue.splice(index, 1);
  }
  if (remaining > 0) {
    const closers = closersByLength.get(remaining);
    // The module test guarantees every length from 1 to MAX_CLOSER has a closer.
    if (!closers) throw new Error(`No closing sentence of ${remaining} words`);
    out.push(rand.pick(closers));
  }
  return out.join(' ');
}
