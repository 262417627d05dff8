import type { AccessibilityStatementId } from './accessibility-metadata.ts';

// What the W3C display guide's ONIX and EPUB techniques share (issue 15): the groups its
// statements are shown in, and the hazards field, whose logic is the same for both sources.

export const DISPLAY_GROUP = {
  ways: 'Ways of Reading',
  conformance: 'Conformance',
  navigation: 'Navigation',
  rich: 'Rich Content',
  hazards: 'Hazards',
  summary: 'Accessibility Summary',
  legal: 'Legal Considerations',
  more: 'Additional Accessibility Information',
} as const;

/** What a source says of each hazard (ONIX list 143 / schema:accessibilityHazard). */
export type HazardFacts = {
  none: boolean;
  unknown: boolean;
  flashing: boolean;
  motion: boolean;
  sound: boolean;
  noFlashing: boolean;
  noMotion: boolean;
  noSound: boolean;
  unknownFlashing: boolean;
  unknownMotion: boolean;
  unknownSound: boolean;
};

/** The guide's Hazards field, in its order. */
export function hazardStatements(h: HazardFacts): AccessibilityStatementId[] {
  if (h.none || (h.noFlashing && h.noMotion && h.noSound)) return ['hazards-none'];
  if (h.unknown || (h.unknownFlashing && h.unknownMotion && h.unknownSound)) {
    return ['hazards-unknown'];
  }
  const said: [boolean, AccessibilityStatementId][] = [
    [h.flashing, 'hazards-flashing'],
    [h.motion, 'hazards-motion'],
    [h.sound, 'hazards-sound'],
    [h.unknownFlashing, 'hazards-flashing-unknown'],
    [h.unknownMotion, 'hazards-motion-unknown'],
    [h.unknownSound, 'hazards-sound-unknown'],
    [h.noFlashing, 'hazards-flashing-none'],
    [h.noMotion, 'hazards-motion-none'],
    [h.noSound, 'hazards-sound-none'],
  ];
  const shown = said.filter(([yes]) => yes).map(([, id]) => id);
  return shown.length > 0 ? shown : ['hazards-no-metadata'];
}
