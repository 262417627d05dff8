import { describe, expect, it } from 'vitest';
import { encodeForm } from './stripe-form.ts';

// Issue 4, Stripe gateway: bodies as Stripe's API reads them (form-encoded, nested keys).
describe('the Stripe form encoder', () => {
  it('writes nested objects and arrays with bracketed keys, as a PaymentIntent create sends them', () => {
    expect(
      encodeForm({
        amount: 2500,
        currency: 'usd',
        metadata: { order_id: '7d1f3c2a-5b8e-4f6a-9c0d-2e4b6a8c0f13' },
        automatic_payment_methods: { enabled: true },
        expand: ['latest_charge', 'payment_method'],
      }),
    ).toBe(
      'amount=2500&currency=usd&metadata[order_id]=7d1f3c2a-5b8e-4f6a-9c0d-2e4b6a8c0f13' +
        '&automatic_payment_methods[enabled]=true&expand[0]=latest_charge&expand[1]=payment_method',
    );
  });

  it('percent-encodes values and each key segment, so a bracket in a key opens no level', () => {
    const body = encodeForm({ description: 'Café & co = 100%', metadata: { 'a[b]': 'x y' } });
    expect(body).toBe('description=Caf%C3%A9%20%26%20co%20%3D%20100%25&metadata[a%5Bb%5D]=x%20y');
    expect(new URLSearchParams(body).get('description')).toBe('Café & co = 100%');
  });

  it('leaves out undefined and null, keeps an empty string (Stripe reads it as "unset")', () => {
    expect(encodeForm({ a: undefined, b: null, c: '', d: false, e: 0, f: {}, g: [] })).toBe(
      'c=&d=false&e=0',
    );
  });

  it('refuses a number that is not finite rather than sending "NaN"', () => {
    expect(() => encodeForm({ amount: Number.NaN })).toThrow(TypeError);
    expect(() => encodeForm({ nested: { amount: Number.POSITIVE_INFINITY } })).toThrow(TypeError);
  });
});
