import { describe, expect, it } from 'vitest';
import { containsPattern, notInExclusionLists, SqlConditions } from '../../../../src/core/search/sql.js';

describe('SqlConditions', () => {
  it('binds each value to the next placeholder and keeps the values apart from the text', () => {
    const sql = new SqlConditions();
    expect(sql.bind("x'; DROP TABLE people; --")).toBe('$1');
    expect(sql.bind(42)).toBe('$2');
    expect(sql.params).toEqual(["x'; DROP TABLE people; --", 42]);
  });

  it('joins its conditions with AND under one WHERE, and says nothing without any', () => {
    const sql = new SqlConditions();
    expect(sql.where()).toBe('');
    sql.add('a = $1');
    expect(sql.where()).toBe('WHERE a = $1');
    sql.add('b = $2');
    expect(sql.where()).toBe('WHERE a = $1\n  AND b = $2');
  });
});

describe('containsPattern', () => {
  it.each([
    ['acme', '%acme%'],
    ['100%', '%100\\%%'],
    ['a_b', '%a\\_b%'],
    ['back\\slash', '%back\\\\slash%'],
    ['', '%%'],
  ])('matches %j anywhere, with LIKE wildcards taken literally', (text, pattern) => {
    expect(containsPattern(text)).toBe(pattern);
  });
});

describe('notInExclusionLists', () => {
  it('binds the account and the lists, and tests the column against their items', () => {
    const sql = new SqlConditions();
    sql.bind('before');
    const clause = notInExclusionLists(sql, 'p.id', 9, [4, 5]);
    expect(clause).toMatch(/^p\.id NOT IN \(SELECT x\.item_id FROM exclusion_list_items x/);
    expect(clause).toContain('x.account_id = $2');
    expect(clause).toContain('x.list_id = ANY($3::bigint[])');
    expect(sql.params).toEqual(['before', 9, [4, 5]]);
  });
});
