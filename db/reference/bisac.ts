// A subset of the BISAC Subject Headings (Book Industry Study Group) used to seed the category
// tree. Codes are the real ones; titles are the BISAC literals with the "/ General" suffix
// dropped, because in a browsable tree the "General" heading *is* the branch. Where BISAC
// renamed a heading over the years (e.g. POL040000 "Government" became "American Government")
// the newer literal is used.
//
// BISAC itself is flat: a code does not reliably encode its parent (HIS047000 sits under
// HISTORY / Africa). The nesting below follows the literals, which is what shoppers browse by.

import { BISAC_TITLES_FR_CA } from './bisac-fr-ca.ts';

export type BisacNode = {
  code: string;
  title: string;
  /** The title in French (Canada), bisac-fr-ca.ts. */
  titleFrCa: string;
  /** Kebab-case, unique across the whole tree, prefixed by the parent's slug. */
  slug: string;
  children: BisacNode[];
};

type Spec = readonly [code: string, title: string, children?: readonly Spec[]];

const SPEC: readonly Spec[] = [
  [
    'MAT000000',
    'Mathematics',
    [
      [
        'MAT002000',
        'Algebra',
        [
          ['MAT002010', 'Abstract'],
          ['MAT002030', 'Elementary'],
          ['MAT002040', 'Intermediate'],
          ['MAT002050', 'Linear'],
        ],
      ],
      ['MAT005000', 'Calculus'],
      ['MAT007000', 'Differential Equations'],
      ['MAT008000', 'Discrete Mathematics'],
      [
        'MAT012000',
        'Geometry',
        [
          ['MAT012020', 'Analytic'],
          ['MAT012030', 'Differential'],
          ['MAT012040', 'Non-Euclidean'],
        ],
      ],
      ['MAT023000', 'Pre-Calculus'],
      [
        'MAT029000',
        'Probability & Statistics',
        [
          ['MAT029010', 'Bayesian Analysis'],
          ['MAT029020', 'Multivariate Analysis'],
          ['MAT029030', 'Regression Analysis'],
        ],
      ],
      ['MAT032000', 'Trigonometry'],
    ],
  ],
  [
    'SCI000000',
    'Science',
    [
      [
        'SCI013000',
        'Chemistry',
        [
          ['SCI013010', 'Analytic'],
          ['SCI013030', 'Inorganic'],
          ['SCI013040', 'Organic'],
          ['SCI013050', 'Physical & Theoretical'],
        ],
      ],
      [
        'SCI055000',
        'Physics',
        [
          ['SCI051000', 'Nuclear'],
          ['SCI057000', 'Quantum Theory'],
          ['SCI061000', 'Relativity'],
        ],
      ],
      [
        'SCI086000',
        'Life Sciences',
        [
          ['SCI007000', 'Biochemistry'],
          ['SCI008000', 'Biology'],
          ['SCI020000', 'Ecology'],
          ['SCI027000', 'Evolution'],
          ['SCI029000', 'Genetics & Genomics'],
          ['SCI045000', 'Microbiology'],
        ],
      ],
      [
        'SCI019000',
        'Earth Sciences',
        [
          ['SCI031000', 'Geology'],
          ['SCI042000', 'Meteorology & Climatology'],
          ['SCI052000', 'Oceanography'],
        ],
      ],
      ['SCI004000', 'Astronomy'],
      ['SCI026000', 'Environmental Science'],
      ['SCI043000', 'Research & Methodology'],
    ],
  ],
  [
    'COM000000',
    'Computers',
    [
      [
        'COM051000',
        'Programming',
        [
          ['COM051300', 'Algorithms'],
          ['COM051210', 'Object Oriented'],
          ['COM051220', 'Parallel'],
        ],
      ],
      [
        'COM051010',
        'Programming Languages',
        [
          ['COM051070', 'C++'],
          ['COM051280', 'Java'],
          ['COM051260', 'JavaScript'],
          ['COM051360', 'Python'],
          ['COM051170', 'SQL'],
        ],
      ],
      ['COM014000', 'Computer Science'],
      [
        'COM021000',
        'Database Management',
        [
          ['COM021030', 'Data Mining'],
          ['COM021040', 'Data Warehousing'],
        ],
      ],
      [
        'COM004000',
        'Artificial Intelligence',
        [
          ['COM016000', 'Computer Vision & Pattern Recognition'],
          ['COM042000', 'Natural Language Processing'],
          ['COM044000', 'Neural Networks'],
        ],
      ],
      [
        'COM043000',
        'Networking',
        [
          ['COM043040', 'Network Protocols'],
          ['COM043050', 'Security'],
        ],
      ],
      ['COM053000', 'Security', [['COM083000', 'Cryptography']]],
      [
        'COM051230',
        'Software Development & Engineering',
        [
          ['COM051430', 'Project Management'],
          ['COM051330', 'Quality Assurance & Testing'],
          ['COM051240', 'Systems Analysis & Design'],
        ],
      ],
    ],
  ],
  [
    'BUS000000',
    'Business & Economics',
    [
      [
        'BUS001000',
        'Accounting',
        [
          ['BUS001010', 'Financial'],
          ['BUS001040', 'Managerial'],
          ['BUS001050', 'Standards'],
        ],
      ],
      [
        'BUS069000',
        'Economics',
        [
          ['BUS069010', 'Comparative'],
          ['BUS039000', 'Macroeconomics'],
          ['BUS044000', 'Microeconomics'],
          ['BUS069030', 'Theory'],
        ],
      ],
      ['BUS021000', 'Econometrics'],
      ['BUS025000', 'Entrepreneurship'],
      ['BUS027000', 'Finance'],
      ['BUS041000', 'Management'],
      [
        'BUS043000',
        'Marketing',
        [
          ['BUS043010', 'Direct'],
          ['BUS043060', 'Research'],
        ],
      ],
      ['BUS049000', 'Operations Research'],
    ],
  ],
  [
    'POL000000',
    'Political Science',
    [
      [
        'POL040000',
        'American Government',
        [
          ['POL040010', 'Executive Branch'],
          ['POL040030', 'Judicial Branch'],
          ['POL006000', 'Legislative Branch'],
          ['POL020000', 'State'],
        ],
      ],
      ['POL009000', 'Comparative Politics'],
      ['POL010000', 'History & Theory'],
      [
        'POL011000',
        'International Relations',
        [
          ['POL001000', 'Arms Control'],
          ['POL011010', 'Diplomacy'],
          ['POL011020', 'Trade & Tariffs'],
          ['POL021000', 'Treaties'],
        ],
      ],
      [
        'POL042000',
        'Political Ideologies',
        [
          ['POL042020', 'Conservatism & Liberalism'],
          ['POL007000', 'Democracy'],
          ['POL031000', 'Nationalism'],
        ],
      ],
      [
        'POL016000',
        'Political Process',
        [
          ['POL008000', 'Elections'],
          ['POL015000', 'Political Parties'],
        ],
      ],
      ['POL017000', 'Public Affairs & Administration'],
      [
        'POL028000',
        'Public Policy',
        [
          ['POL024000', 'Economic Policy'],
          ['POL044000', 'Environmental Policy'],
          ['POL029000', 'Social Policy'],
        ],
      ],
    ],
  ],
  [
    'SOC000000',
    'Social Science',
    [
      ['SOC002000', 'Anthropology', [['SOC002010', 'Cultural & Social']]],
      ['SOC003000', 'Archaeology'],
      ['SOC004000', 'Criminology'],
      ['SOC006000', 'Demography'],
      ['SOC019000', 'Methodology'],
      ['SOC024000', 'Research'],
      [
        'SOC026000',
        'Sociology',
        [
          ['SOC026010', 'Marriage & Family'],
          ['SOC026020', 'Rural'],
          ['SOC026030', 'Urban'],
        ],
      ],
      ['SOC027000', 'Statistics'],
    ],
  ],
  [
    'FIC000000',
    'Fiction',
    [
      ['FIC003000', 'Anthologies'],
      ['FIC004000', 'Classics'],
      [
        'FIC009000',
        'Fantasy',
        [
          ['FIC009010', 'Contemporary'],
          ['FIC009020', 'Epic'],
          ['FIC009030', 'Historical'],
        ],
      ],
      ['FIC014000', 'Historical'],
      ['FIC019000', 'Literary'],
      [
        'FIC022000',
        'Mystery & Detective',
        [
          ['FIC022010', 'Hard-Boiled'],
          ['FIC022020', 'Police Procedural'],
          ['FIC022030', 'Traditional British'],
        ],
      ],
      [
        'FIC028000',
        'Science Fiction',
        [
          ['FIC028010', 'Adventure'],
          ['FIC028050', 'Military'],
          ['FIC028030', 'Space Opera'],
        ],
      ],
      ['FIC029000', 'Short Stories'],
    ],
  ],
  [
    'HIS000000',
    'History',
    [
      ['HIS001000', 'Africa'],
      [
        'HIS002000',
        'Ancient',
        [
          ['HIS002030', 'Egypt'],
          ['HIS002010', 'Greece'],
          ['HIS002020', 'Rome'],
        ],
      ],
      [
        'HIS003000',
        'Asia',
        [
          ['HIS008000', 'China'],
          ['HIS017000', 'India & South Asia'],
          ['HIS021000', 'Japan'],
        ],
      ],
      [
        'HIS010000',
        'Europe',
        [
          ['HIS013000', 'France'],
          ['HIS014000', 'Germany'],
          ['HIS015000', 'Great Britain'],
        ],
      ],
      ['HIS024000', 'Latin America'],
      ['HIS037010', 'Medieval'],
      [
        'HIS037030',
        'Modern',
        [
          ['HIS037060', '19th Century'],
          ['HIS037070', '20th Century'],
        ],
      ],
      [
        'HIS036000',
        'United States',
        [
          ['HIS036020', 'Colonial Period (1600-1775)'],
          ['HIS036050', 'Civil War Period (1850-1877)'],
          ['HIS036060', '20th Century'],
        ],
      ],
    ],
  ],
  [
    'PSY000000',
    'Psychology',
    [
      ['PSY007000', 'Clinical Psychology'],
      ['PSY008000', 'Cognitive Psychology'],
      [
        'PSY039000',
        'Developmental',
        [
          ['PSY002000', 'Adolescent'],
          ['PSY043000', 'Adulthood & Aging'],
          ['PSY004000', 'Child'],
          ['PSY044000', 'Lifespan Development'],
        ],
      ],
      ['PSY021000', 'Industrial & Organizational Psychology'],
      ['PSY020000', 'Neuropsychology'],
      ['PSY023000', 'Personality'],
      ['PSY030000', 'Research & Methodology'],
      ['PSY031000', 'Social Psychology'],
    ],
  ],
  [
    'JUV000000',
    'Juvenile Fiction',
    [
      [
        'JUV001000',
        'Action & Adventure',
        [
          ['JUV001020', 'Pirates'],
          ['JUV001010', 'Survival Stories'],
        ],
      ],
      ['JUV002000', 'Animals'],
      ['JUV007000', 'Classics'],
      ['JUV037000', 'Fantasy & Magic'],
      ['JUV016000', 'Historical'],
      ['JUV028000', 'Mysteries & Detective Stories'],
      ['JUV053000', 'Science Fiction'],
      [
        'JUV039000',
        'Social Issues',
        [
          ['JUV039230', 'Bullying'],
          ['JUV039060', 'Friendship'],
          ['JUV039140', 'Self-Esteem & Self-Reliance'],
        ],
      ],
    ],
  ],
  [
    'STU000000',
    'Study Aids',
    [
      ['STU001000', 'ACT'],
      ['STU002000', 'Advanced Placement'],
      ['STU004000', 'Book Notes'],
      ['STU009000', 'College Entrance'],
      ['STU016000', 'GRE'],
      ['STU017000', 'LSAT'],
      ['STU032000', 'MCAT'],
      ['STU024000', 'SAT'],
    ],
  ],
  [
    'LAN000000',
    'Language Arts & Disciplines',
    [
      ['LAN004000', 'Communication Studies'],
      ['LAN005000', 'Composition & Creative Writing'],
      ['LAN022000', 'Editing & Proofreading'],
      ['LAN006000', 'Grammar & Punctuation'],
      ['LAN008000', 'Journalism'],
      [
        'LAN025000',
        'Library & Information Science',
        [
          ['LAN025020', 'Archives & Special Libraries'],
          ['LAN025030', 'Cataloging & Classification'],
        ],
      ],
      [
        'LAN009000',
        'Linguistics',
        [
          ['LAN009010', 'Historical & Comparative'],
          ['LAN009020', 'Morphology'],
          ['LAN011000', 'Phonetics & Phonology'],
          ['LAN016000', 'Semantics'],
          ['LAN009050', 'Sociolinguistics'],
          ['LAN009060', 'Syntax'],
        ],
      ],
      ['LAN026000', 'Public Speaking'],
    ],
  ],
  [
    'MED000000',
    'Medical',
    [
      ['MED005000', 'Anatomy'],
      ['MED028000', 'Epidemiology'],
      ['MED044000', 'Immunology'],
      [
        'MED058000',
        'Nursing',
        [
          ['MED058020', 'Assessment & Diagnosis'],
          ['MED058050', 'Fundamentals & Skills'],
          ['MED058220', 'Medical & Surgical'],
          ['MED058080', 'Pediatric & Neonatal'],
          ['MED058170', 'Pharmacology'],
        ],
      ],
      ['MED071000', 'Pharmacology'],
      ['MED075000', 'Physiology'],
      ['MED078000', 'Public Health'],
      ['MED085000', 'Surgery'],
    ],
  ],
  [
    'EDU000000',
    'Education',
    [
      ['EDU001000', 'Administration'],
      ['EDU009000', 'Educational Psychology'],
      ['EDU015000', 'Higher'],
      ['EDU040000', 'Philosophy & Social Aspects'],
      ['EDU037000', 'Research'],
      [
        'EDU026000',
        'Special Education',
        [
          ['EDU026060', 'Gifted'],
          ['EDU026020', 'Learning Disabilities'],
        ],
      ],
      [
        'EDU029000',
        'Teaching Methods & Materials',
        [
          ['EDU029010', 'Mathematics'],
          ['EDU029020', 'Reading & Phonics'],
          ['EDU029030', 'Science & Technology'],
          ['EDU029040', 'Social Science'],
        ],
      ],
      ['EDU030000', 'Testing & Measurement'],
    ],
  ],
];

export function slugifyBisacTitle(title: string): string {
  return title
    .toLowerCase()
    .replace(/\+/g, ' plus ')
    .replace(/&/g, ' ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

function build(spec: Spec, parentSlug: string | null): BisacNode {
  const [code, title, children = []] = spec;
  const own = slugifyBisacTitle(title);
  const slug = parentSlug ? `${parentSlug}-${own}` : own;
  const titleFrCa = BISAC_TITLES_FR_CA[code];
  if (!titleFrCa) throw new Error(`BISAC ${code} has no French title (bisac-fr-ca.ts)`);
  return { code, title, titleFrCa, slug, children: children.map((child) => build(child, slug)) };
}

export const bisacTree: BisacNode[] = SPEC.map((spec) => build(spec, null));

export type FlatBisacNode = {
  node: BisacNode;
  parent: BisacNode | null;
  /** 0 for the top-level subjects. */
  depth: number;
};

/** Depth-first, parents before children, so rows can be inserted in order with parent ids. */
export function flattenBisac(tree: readonly BisacNode[] = bisacTree): FlatBisacNode[] {
  const out: FlatBisacNode[] = [];
  const visit = (node: BisacNode, parent: BisacNode | null, depth: number): void => {
    out.push({ node, parent, depth });
    for (const child of node.children) visit(child, node, depth + 1);
  };
  for (const node of tree) visit(node, null, 0);
  return out;
}
