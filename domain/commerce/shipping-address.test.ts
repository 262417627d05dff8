import { describe, expect, it } from 'vitest';
import { parseShippingAddress, shippingAddressLines } from './shipping-address.ts';

const address = {
  name: ' Ada Lovelace ',
  line1: '12 Analytical Way',
  city: 'Burlington',
  region: 'VT',
  postalCode: '05401',
  country: 'US',
};

// Issue 4, Checkout: a US or Canadian address for physical and print items.
describe('shipping addresses', () => {
  it('a complete US or Canadian address is accepted, trimmed, with an empty second line', () => {
    expect(parseShippingAddress(address)).toEqual({
      ok: true,
      address: { ...address, name: 'Ada Lovelace', line2: '' },
    });
    const canadian = { ...address, region: 'QC', postalCode: 'H2X 1Y4', country: 'CA' };
    expect(parseShippingAddress(canadian).ok).toBe(true);
    expect(parseShippingAddress({ ...address, postalCode: '05401-1234' }).ok).toBe(true);
  });

  it('names every field to fix, in form order', () => {
    expect(
      parseShippingAddress({ ...address, name: '  ', line2: 'x'.repeat(201), city: 7 }),
    ).toEqual({ ok: false, fields: ['name', 'line2', 'city'] });
    expect(parseShippingAddress({ ...address, country: 'FR' })).toEqual({
      ok: false,
      fields: ['country'],
    });
  });

  it('each field takes up to its longest length, not one character more', () => {
    const at = (field: string, length: number) =>
      parseShippingAddress({ ...address, [field]: 'x'.repeat(length) });
    expect(at('name', 100)).toMatchObject({ ok: true });
    expect(at('name', 101)).toEqual({ ok: false, fields: ['name'] });
    expect(at('line2', 200)).toMatchObject({ ok: true });
    expect(at('line2', 201)).toEqual({ ok: false, fields: ['line2'] });
  });

  it('the postal code must fit the country', () => {
    expect(parseShippingAddress({ ...address, postalCode: 'H2X 1Y4' })).toEqual({
      ok: false,
      fields: ['postalCode'],
    });
    expect(parseShippingAddress({ ...address, country: 'CA' })).toEqual({
      ok: false,
      fields: ['postalCode'],
    });
  });

  it('fields the form does not have are left out', () => {
    const parsed = parseShippingAddress({ ...address, admin: 'yes' });
    expect(parsed.ok && Object.keys(parsed.address)).toEqual([
      'name',
      'line1',
      'line2',
      'city',
      'region',
      'postalCode',
      'country',
    ]);
  });
});

describe('where an order was posted, as its receipt says it (issue 38)', () => {
  it('the name, the street lines, city, region and postal code, and the country code', () => {
    expect(
      shippingAddressLines({
        name: 'Alex Morgan',
        line1: '12 College Road',
        line2: 'Apt 4',
        city: 'Northfield',
        region: 'MN',
        postalCode: '55057',
        country: 'US',
      }),
    ).toEqual({
      lines: ['Alex Morgan', '12 College Road', 'Apt 4', 'Northfield, MN 55057'],
      country: 'US',
    });
    expect(
      shippingAddressLines({
        name: 'Léa Tremblay',
        line1: '1 rue Principale',
        line2: '',
        city: 'Montréal',
        region: 'QC',
        postalCode: 'H2X 1Y4',
        country: 'CA',
      })?.lines,
    ).toEqual(['Léa Tremblay', '1 rue Principale', 'Montréal, QC H2X 1Y4']);
  });
  it('nothing posted, or no address kept whole, says nothing', () => {
    expect(shippingAddressLines(null)).toBeNull();
    expect(shippingAddressLines({ name: 'A' })).toBeNull();
  });
});
