import { describe, expect, it } from 'vitest';
import { isMessageWording, type Wording } from '#domain/shared/wording.ts';
import { en } from '#i18n/messages/en.ts';
import { frCA } from '#i18n/messages/fr-CA.ts';
import { translate } from '#i18n/translate.ts';
import {
  ACCESSIBILITY_GROUPS,
  ACCESSIBILITY_STATEMENTS,
  type AccessibilityStatementId,
  accessibilityGroups,
  statementMessage,
} from './accessibility-metadata.ts';

const row = (
  subcategory: string | null,
  name: string,
  detail: string | null,
  code: string | null = null,
  url: string | null = null,
) => ({ category: 'accessibility', subcategory, code, name, detail, url });

const shown = (wording: Wording, locale: 'en' | 'fr-CA') =>
  isMessageWording(wording) ? translate(locale, wording.message, wording.values) : wording.text;

const statement = (id: AccessibilityStatementId, locale: 'en' | 'fr-CA') =>
  translate(locale, statementMessage(id), { name: 'Open Reading Review' });

// The W3C "Accessibility Metadata Display Guide for Digital Publications" 2.x (guidelines §3,
// compact statements) and its Canadian French localization (issue 38: the fr-CA vocabulary of
// w3c/publ-a11y-display-guide-localizations, VitalSource's translation of the canonical one).
describe('accessibility metadata (spec 1 §2; W3C display guide)', () => {
  it('always lists every group in the guide order, empty ones too', () => {
    const groups = accessibilityGroups([]);
    expect(groups.map((g) => g.name)).toEqual([...ACCESSIBILITY_GROUPS]);
    expect(groups.every((g) => g.items.length === 0)).toBe(true);
  });

  it('has every statement of the guide in English and French', () => {
    const ids = Object.keys(ACCESSIBILITY_STATEMENTS) as AccessibilityStatementId[];
    for (const id of ids) {
      expect(Object.hasOwn(en, statementMessage(id)), id).toBe(true);
      expect(Object.hasOwn(frCA, statementMessage(id)), id).toBe(true);
    }
    expect(ids).toHaveLength(71);
  });

  it('words the statements as the guide does, in English and in French', () => {
    const cases: [AccessibilityStatementId, string, string][] = [
      [
        'ways-of-reading-visual-adjustments-modifiable',
        'Appearance can be modified',
        'L’apparence peut être modifiée',
      ],
      [
        'ways-of-reading-nonvisual-reading-readable',
        'Readable in read aloud or dynamic braille',
        'Lisible en lecture à haute voix ou en braille dynamique',
      ],
      [
        'ways-of-reading-nonvisual-reading-alt-text',
        'Has alternative text',
        'Possède un texte alternatif',
      ],
      [
        'conformance-aa',
        'This publication meets accepted accessibility standards',
        'Cette publication respecte les normes d’accessibilité acceptées',
      ],
      [
        'conformance-a',
        'This publication meets minimum accessibility standards',
        'Cette publication respecte les normes minimales d’accessibilité',
      ],
      ['navigation-toc', 'Table of contents', 'Table des matières'],
      ['navigation-structural', 'Headings', 'Rubriques'],
      ['navigation-page-navigation', 'Go to page', 'Aller à la page'],
      [
        'rich-content-accessible-math-as-mathml',
        'Math as MathML',
        'Mathématiques en tant que MathML',
      ],
      ['hazards-flashing', 'Flashing content', 'Contenu clignotant'],
      [
        'hazards-unknown',
        'The presence of hazards is unknown',
        'La présence de dangers est inconnue',
      ],
      [
        'legal-considerations-exempt',
        'Claims an accessibility exemption in some jurisdictions',
        'Prétend une exemption d’accessibilité dans certaines juridictions',
      ],
      [
        'additional-accessibility-information-page-breaks',
        'Page breaks included',
        'Sauts de page inclus',
      ],
      [
        'ways-of-reading-visual-adjustments-unmodifiable',
        'Appearance cannot be modified',
        'L’apparence ne peut pas être modifiée',
      ],
      [
        'ways-of-reading-visual-adjustments-unknown',
        'No information about appearance modifiability is available',
        'Aucune information sur la possibilité de modifier l’apparence n’est disponible',
      ],
      ['additional-accessibility-information-aria', 'ARIA roles included', 'Rôles ARIA inclus'],
      [
        'conformance-certifier',
        'The publication was certified by Open Reading Review',
        'La publication a été certifiée par Open Reading Review',
      ],
    ];
    for (const [id, english, french] of cases) {
      expect(statement(id, 'en')).toBe(english);
      expect(statement(id, 'fr-CA')).toBe(french);
    }
  });

  it('puts a statement in the guide’s group and words it in the page’s language', () => {
    const groups = accessibilityGroups([
      row('Navigation', 'Index', 'Index with links', 'navigation-index'),
      // The code decides the group, whatever the source called it.
      row('Other', 'Hazards', 'No hazards', 'hazards-none'),
    ]);
    const navigation = groups.find((g) => g.name === 'Navigation')!;
    const hazards = groups.find((g) => g.name === 'Hazards')!;
    expect(navigation.items.map((i) => shown(i.wording, 'fr-CA'))).toEqual(['Index']);
    expect(hazards.items.map((i) => shown(i.wording, 'fr-CA'))).toEqual(['Aucun risque']);
    expect(hazards.items.map((i) => shown(i.wording, 'en'))).toEqual(['No hazards']);
  });

  it('words the conformance claim from EPUB Accessibility’s conformsTo value', () => {
    const groups = accessibilityGroups([
      row(
        'Conformance',
        'Standard',
        'EPUB Accessibility 1.1 - WCAG 2.1 Level AA',
        'conformance-details-claim',
      ),
      row('Conformance', 'Standard', 'ISO 14289-1', 'conformance-details-claim'),
    ]);
    const [claim, other] = groups.find((g) => g.name === 'Conformance')!.items;
    expect(shown(claim!.wording, 'en')).toBe(
      'This publication claims to meet EPUB Accessibility 1.1 WCAG 2.1 Level AA',
    );
    expect(shown(claim!.wording, 'fr-CA')).toBe(
      'Cette publication prétend satisfaire Accessibilité EPUB 1.1 WCAG 2.1 Niveau AA',
    );
    // A value the guide cannot word is shown as given.
    expect(other!.wording).toEqual({ text: 'ISO 14289-1' });
  });

  it('marks the detail equal to the certifier for the logo and link', () => {
    const groups = accessibilityGroups([
      row(
        'Conformance',
        'Certifier',
        'Open Reading Review',
        'conformance-certifier',
        'https://cert.example',
      ),
      row(
        'Conformance',
        'Standard',
        'EPUB Accessibility 1.1 - WCAG 2.1 Level AA',
        'conformance-details-claim',
      ),
    ]);
    const conformance = groups.find((g) => g.name === 'Conformance')!;
    expect(conformance.items.map((i) => i.isCertifier)).toEqual([true, false]);
    expect(shown(conformance.items[0]!.wording, 'fr-CA')).toBe(
      'La publication a été certifiée par Open Reading Review',
    );
  });

  it('shows a source’s own text as given, in its group or else last', () => {
    const groups = accessibilityGroups([
      {
        category: 'ebook',
        subcategory: null,
        code: 'search',
        name: 'Search',
        detail: 'x',
        url: null,
      },
      row('Accessibility Summary', 'Summary', 'This publication has a table of contents.'),
      row('Something Else', 'Note', 'Kept'),
      // A code the guide does not have is a source's text too.
      row('Hazards', 'Hazards', 'Loud noises', 'hazards-loud'),
    ]);
    expect(groups.find((g) => g.name === 'Accessibility Summary')!.items[0]!.wording).toEqual({
      text: 'This publication has a table of contents.',
    });
    expect(groups.find((g) => g.name === 'Hazards')!.items[0]!.wording).toEqual({
      text: 'Loud noises',
    });
    expect(groups.at(-1)!.items.map((i) => i.wording)).toEqual([{ text: 'Kept' }]);
    expect(groups.flatMap((g) => g.items)).toHaveLength(3);
  });
});
