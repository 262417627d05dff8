import type { Locale } from '#domain/accounts/language.ts';

// The page about inclusive access and the course fee (issue 38), in each language. Long text
// that only this page shows lives with the page rather than in the message catalogs, which
// every page's browser downloads whole after its first press (web/i18n/catalog.ts): the
// loader sends the visitor's language only. It says the rule of domain/courses/fee-covers.ts
// in words.

export type InclusiveAccessContent = {
  intro: string;
  parts: { id: string; heading: string; body: string }[];
};

const CONTENT: Record<Locale, InclusiveAccessContent> = {
  en: {
    intro:
      'With inclusive access, your campus puts the digital materials of a course into one course fee, billed to your student account, and you get them here from the first day of class. You do not need to buy them separately.',
    parts: [
      {
        id: 'covers',
        heading: 'What the course fee covers',
        body: 'The course fee covers the digital materials your section lists: eBooks, courseware and online classrooms, required and optional alike. It never covers a printed copy or an item such as lab goggles: you buy those yourself. On your course page, each material the fee covers is marked “Included in your course fee”.',
      },
      {
        id: 'billing',
        heading: 'How the course fee is billed',
        body: 'Your campus bills the course fee to your student account, not to a card, once the course’s opting deadline has passed. If you are opted in at the deadline, the fee is billed; if you opted out before it, it is not.',
      },
      {
        id: 'opting',
        heading: 'Opting out and back in',
        body: 'On your course page, choose Opt Out and confirm. The course’s materials leave your shelf at once, and we send you an e-mail saying so. Until the deadline you can opt back in the same way, and the materials come back.',
      },
      {
        id: 'deadline',
        heading: 'The opting deadline',
        body: 'Each course has its own deadline, usually its add/drop date. Your course page shows it with its date, time and the course’s time zone. After it, your choice can no longer change.',
      },
      {
        id: 'optedOut',
        heading: 'If you opt out',
        body: 'You can buy or rent each material yourself: the course page shows how, beside each material that closed. Your campus bookstore can help too.',
      },
    ],
  },
  'fr-CA': {
    intro:
      'Avec l’accès inclusif, votre établissement réunit le matériel numérique d’un cours en des frais de cours uniques, facturés à votre compte étudiant, et vous l’obtenez ici dès le premier jour du cours. Vous n’avez pas à l’acheter séparément.',
    parts: [
      {
        id: 'covers',
        heading: 'Ce que couvrent les frais de cours',
        body: 'Les frais de cours couvrent le matériel numérique indiqué par votre section : livres numériques, didacticiels et classes en ligne, obligatoires comme facultatifs. Ils ne couvrent jamais une copie imprimée ni un article comme des lunettes de laboratoire : vous les achetez vous-même. Sur la page de votre cours, chaque matériel couvert par les frais porte la mention « Inclus dans vos frais de cours ».',
      },
      {
        id: 'billing',
        heading: 'La facturation des frais de cours',
        body: 'Votre établissement facture les frais de cours à votre compte étudiant, et non à une carte, une fois passée la date limite de désinscription du cours. Si vous êtes inscrit à cette date, les frais sont facturés; si vous vous êtes désinscrit avant, ils ne le sont pas.',
      },
      {
        id: 'opting',
        heading: 'Se désinscrire et se réinscrire',
        body: 'Sur la page de votre cours, choisissez Se désinscrire et confirmez. Le matériel du cours quitte aussitôt votre étagère, et nous vous l’écrivons par courriel. Jusqu’à la date limite, vous pouvez vous réinscrire de la même façon, et le matériel revient.',
      },
      {
        id: 'deadline',
        heading: 'La date limite de désinscription',
        body: 'Chaque cours a sa propre date limite, d’ordinaire sa date limite d’ajout et d’abandon. La page de votre cours l’indique avec la date, l’heure et le fuseau horaire du cours. Après celle-ci, votre choix ne peut plus changer.',
      },
      {
        id: 'optedOut',
        heading: 'Si vous vous désinscrivez',
        body: 'Vous pouvez acheter ou louer chaque matériel vous-même : la page du cours indique comment, à côté de chaque matériel fermé. La librairie de votre établissement peut aussi vous aider.',
      },
    ],
  },
};

/** The page's text in the visitor's language. */
export function inclusiveAccessContent(locale: Locale): InclusiveAccessContent {
  return CONTENT[locale];
}
