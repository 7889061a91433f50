import { describe, expect, it } from 'vitest';
import { payloadHash } from '../../../../src/mcp/guards/payload-hash.js';
import {
  charsPerToken,
  estimateTokens,
  largestArrayField,
  sliceToBudget,
  type Envelope,
} from '../../../../src/mcp/guards/response-size.js';

const record = (id: number) => ({ id, name: `record ${id}`, text: 'x'.repeat(100) });

describe('estimateTokens', () => {
  it.each([
    ['', 0],
    ['abc', 1],
    ['abcd', 1],
    ['abcde', 2],
    ['x'.repeat(4000), 1000],
  ])('counts %j as about a token a %i characters', (json, tokens) => {
    expect(estimateTokens(json)).toBe(tokens);
    expect(charsPerToken).toBe(4);
  });
});

describe('largestArrayField', () => {
  it('picks the array holding most of the answer', () => {
    expect(largestArrayField({ data: [record(1), record(2)], tags: ['a', 'b', 'c'], total: 2 })).toBe('data');
    expect(largestArrayField({ small: [1], pageResults: [record(1)] })).toBe('pageResults');
  });

  it.each([null, undefined, 'text', 3, [record(1)], {}, { total: 0, data: [] }])('finds none in %j', (output) => {
    expect(largestArrayField(output)).toBeNull();
  });
});

describe('sliceToBudget', () => {
  const answer: Envelope = {
    output: { total: 50, data: Array.from({ length: 50 }, (_, i) => record(i)) },
    chargeInfo: { method: 'free' },
  };

  it('shows whole records that fit, says where the rest starts, and keeps the other fields', () => {
    const slice = sliceToBudget(answer, 'data', 0, 1000, 0);
    expect(slice.shown).toBeGreaterThan(0);
    expect(slice.shown).toBeLessThan(50);
    expect(slice.nextOffset).toBe(slice.shown);
    expect(slice.total).toBe(50);
    expect(JSON.stringify(slice.answer).length).toBeLessThanOrEqual(1000 * charsPerToken);
    expect((slice.answer.output as { total: number }).total).toBe(50);
    expect(slice.answer.chargeInfo).toEqual({ method: 'free' });
    expect((slice.answer.output as { data: unknown[] }).data[0]).toEqual(record(0));
  });

  it('goes on from an offset, and ends with no next offset', () => {
    const first = sliceToBudget(answer, 'data', 0, 1000, 0);
    const second = sliceToBudget(answer, 'data', first.nextOffset as number, 1000, 0);
    expect((second.answer.output as { data: { id: number }[] }).data[0]?.id).toBe(first.shown);
    const last = sliceToBudget(answer, 'data', 45, 100_000, 0);
    expect(last.shown).toBe(5);
    expect(last.nextOffset).toBeNull();
  });

  it('shows at least one record, whatever the budget, so reading always advances', () => {
    const slice = sliceToBudget(answer, 'data', 10, 1);
    expect(slice.shown).toBe(1);
    expect(slice.nextOffset).toBe(11);
  });

  it('leaves room for the gateway notes it is told to reserve', () => {
    const roomy = sliceToBudget(answer, 'data', 0, 2000, 0).shown;
    const reserved = sliceToBudget(answer, 'data', 0, 2000, 4000).shown;
    expect(reserved).toBeLessThan(roomy);
  });

  it('shows everything that fits at once', () => {
    const slice = sliceToBudget(answer, 'data', 0, 1_000_000);
    expect(slice).toMatchObject({ shown: 50, offset: 0, nextOffset: null, field: 'data' });
  });
});

describe('payloadHash', () => {
  it('is one for one call whatever the order of its keys', () => {
    expect(payloadHash('companySearch', { a: 1, b: [1, 2] })).toBe(payloadHash('companySearch', { b: [1, 2], a: 1 }));
  });

  it('differs by operation and by any value', () => {
    const base = payloadHash('companySearch', { a: 1 });
    expect(payloadHash('peopleSearch', { a: 1 })).not.toBe(base);
    expect(payloadHash('companySearch', { a: 2 })).not.toBe(base);
    expect(payloadHash('companySearch', {})).not.toBe(base);
  });
});
