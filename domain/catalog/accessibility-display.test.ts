import { describe, expect, it } from 'vitest';
import { type HazardFacts, hazardStatements } from './accessibility-display.ts';

// W3C Accessibility Metadata Display Guide 2.1, the Hazards field (ONIX and EPUB techniques,
// issue 15): confirmed none, unknown, or each hazard the source names, in the guide's order.
const nothing: HazardFacts = {
  none: false,
  unknown: false,
  flashing: false,
  motion: false,
  sound: false,
  noFlashing: false,
  noMotion: false,
  noSound: false,
  unknownFlashing: false,
  unknownMotion: false,
  unknownSound: false,
};
const facts = (o: Partial<HazardFacts>) => ({ ...nothing, ...o });

describe('hazards (W3C display guide 2.1)', () => {
  it('says nothing is known when the source says nothing', () => {
    expect(hazardStatements(nothing)).toEqual(['hazards-no-metadata']);
  });
  it('no hazards: confirmed, or each of the three ruled out', () => {
    expect(hazardStatements(facts({ none: true, flashing: true }))).toEqual(['hazards-none']);
    expect(hazardStatements(facts({ noFlashing: true, noMotion: true, noSound: true }))).toEqual([
      'hazards-none',
    ]);
  });
  it('unknown: said so, or each of the three unknown', () => {
    expect(hazardStatements(facts({ unknown: true }))).toEqual(['hazards-unknown']);
    expect(
      hazardStatements(facts({ unknownFlashing: true, unknownMotion: true, unknownSound: true })),
    ).toEqual(['hazards-unknown']);
  });
  it('otherwise each statement the source makes, in the guide’s order', () => {
    expect(
      hazardStatements(
        facts({
          noSound: true,
          noMotion: true,
          unknownSound: true,
          unknownMotion: true,
          unknownFlashing: false,
          sound: true,
          motion: true,
          flashing: true,
        }),
      ),
    ).toEqual([
      'hazards-flashing',
      'hazards-motion',
      'hazards-sound',
      'hazards-motion-unknown',
      'hazards-sound-unknown',
      'hazards-motion-none',
      'hazards-sound-none',
    ]);
    expect(hazardStatements(facts({ unknownFlashing: true, noFlashing: true }))).toEqual([
      'hazards-flashing-unknown',
      'hazards-flashing-none',
    ]);
  });
});
