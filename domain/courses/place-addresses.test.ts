import { describe, expect, it } from 'vitest';
import { isPlaceAddress, parsePlaceAddresses, sortPlaceAddresses } from './place-addresses.ts';

describe('parsePlaceAddresses (issue 20: the bookstore adds students by e-mail)', () => {
  it('issue 20: one a line, or separated by commas, semicolons or spaces, trimmed', () => {
    const outcome = parsePlaceAddresses(
      '  ana@campus.edu\r\nben@campus.edu, cleo@campus.edu;dev@campus.edu\tevan@campus.edu  ',
    );
    expect(outcome).toEqual({
      ok: true,
      addresses: ['ana', 'ben', 'cleo', 'dev', 'evan'].map((name) => ({
        address: `${name}@campus.edu`,
        key: `${name}@campus.edu`,
      })),
      repeated: 0,
    });
  });

  it('issue 20: compared without case, each address once, as first written', () => {
    expect(parsePlaceAddresses('Ana.Lee@Campus.edu\nana.lee@campus.EDU; ben@campus.edu')).toEqual({
      ok: true,
      addresses: [
        { address: 'Ana.Lee@Campus.edu', key: 'ana.lee@campus.edu' },
        { address: 'ben@campus.edu', key: 'ben@campus.edu' },
      ],
      repeated: 1,
    });
  });

  it('issue 20: nothing but separators is refused as empty', () => {
    expect(parsePlaceAddresses(' ,;\n\n ')).toEqual({ ok: false, problem: 'empty' });
  });

  it('issue 20: every address that is not one is named, once', () => {
    expect(
      parsePlaceAddresses('ana@campus.edu\nben@campus\nnot-an-address\nben@campus\n@campus.edu'),
    ).toEqual({
      ok: false,
      problem: 'invalid',
      invalid: ['ben@campus', 'not-an-address', '@campus.edu'],
    });
  });

  it('issue 20: more than the cap is refused whole, with the count', () => {
    const many = Array.from({ length: 501 }, (_, i) => `student${i}@campus.edu`).join('\n');
    expect(parsePlaceAddresses(many)).toEqual({
      ok: false,
      problem: 'tooMany',
      count: 501,
      max: 500,
    });
    const five = Array.from({ length: 500 }, (_, i) => `student${i}@campus.edu`).join('\n');
    expect(parsePlaceAddresses(five).ok).toBe(true);
    // Repeats do not count against the cap.
    expect(parsePlaceAddresses(`${five}\nstudent0@campus.edu`).ok).toBe(true);
  });
});

describe('isPlaceAddress (issue 20)', () => {
  it.each([
    'ana@campus.edu',
    "o'neil+books@mail.campus.edu",
    'first.last@sub-domain.example.ca',
  ])('issue 20: %s is an address', (value) => {
    expect(isPlaceAddress(value)).toBe(true);
  });

  it.each([
    'ana',
    'ana@',
    'ana@campus',
    'ana@@campus.edu',
    '.ana@campus.edu',
    'ana..lee@campus.edu',
    'ana@-campus.edu',
    'ana@campus..edu',
    '<ana@campus.edu>',
    `${'a'.repeat(65)}@campus.edu`,
    `ana@${'a'.repeat(250)}.edu`,
  ])('issue 20: %s is not an address', (value) => {
    expect(isPlaceAddress(value)).toBe(false);
  });
});

describe('sortPlaceAddresses (issue 20: a verified address is how a new account finds its sections)', () => {
  const ana = { address: 'Ana@Campus.edu', key: 'ana@campus.edu' };
  const ben = { address: 'ben@campus.edu', key: 'ben@campus.edu' };
  const cleo = { address: 'cleo@campus.edu', key: 'cleo@campus.edu' };

  it('issue 20: an account that proved its address joins now; no account, or one not proved, gets a kept place', () => {
    expect(
      sortPlaceAddresses(
        [ana, ben, cleo],
        [
          { userId: 1, key: 'ANA@campus.edu', verified: true },
          { userId: 2, key: 'ben@campus.edu', verified: false },
        ],
      ),
    ).toEqual({ members: [{ userId: 1, key: 'ana@campus.edu' }], places: [ben, cleo] });
  });
});
