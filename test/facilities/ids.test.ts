import { describe, expect, it } from 'vitest';
import { assignSpineIds, EMPTY_ID_MAP } from '../../pipeline/facilities/ids.ts';
import type { Component } from '../../pipeline/facilities/link.ts';

const c = (ontario: string[], federal: string[] = []): Component => ({ ontario, federal, evidence: [] });

describe('assignSpineIds', () => {
  it('numbers a first build in component order', () => {
    const a = assignSpineIds([c(['1001'], ['G1']), c(['1002']), c([], ['G9'])]);
    expect(a.ids).toEqual(['ONF-000001', 'ONF-000002', 'ONF-000003']);
    expect(a.map.next).toBe(4);
    expect(a.map.sources['federal:G1']).toBe('ONF-000001');
  });

  it('keeps every id when a facility is removed and one added, and never reuses the removed one', () => {
    const first = assignSpineIds([c(['1001'], ['G1']), c(['1002']), c(['1003'], ['G3'])]);
    // 1002 is gone; 1004 is new.
    const second = assignSpineIds([c(['1001'], ['G1']), c(['1003'], ['G3']), c(['1004'])], first.map);
    expect(second.ids).toEqual(['ONF-000001', 'ONF-000003', 'ONF-000004']);
    expect(second.retired).toEqual(['ONF-000002']);
    expect(second.issued).toEqual(['ONF-000004']);
    // Another new facility later still does not get ONF-000002.
    const third = assignSpineIds([c(['1001'], ['G1']), c(['1003'], ['G3']), c(['1004']), c(['1005'])], second.map);
    expect(third.ids).toEqual(['ONF-000001', 'ONF-000003', 'ONF-000004', 'ONF-000005']);
  });

  it('keeps the id while any one source id survives', () => {
    const first = assignSpineIds([c(['1001'], ['G1'])]);
    const second = assignSpineIds([c([], ['G1'])], first.map);
    expect(second.ids).toEqual(['ONF-000001']);
  });

  it('keeps the lowest id when two facilities merge, and gives a split half a new id', () => {
    const first = assignSpineIds([c(['1001']), c([], ['G1'])]);
    const merged = assignSpineIds([c(['1001'], ['G1'])], first.map);
    expect(merged.ids).toEqual(['ONF-000001']);
    expect(merged.retired).toEqual(['ONF-000002']);
    const split = assignSpineIds([c(['1001']), c([], ['G1'])], merged.map);
    expect(split.ids).toEqual(['ONF-000001', 'ONF-000003']);
  });

  it('gives a returning source id its old spine id back', () => {
    const first = assignSpineIds([c(['1001']), c(['1002'])]);
    const gone = assignSpineIds([c(['1002'])], first.map);
    const back = assignSpineIds([c(['1001']), c(['1002'])], gone.map);
    expect(back.ids).toEqual(['ONF-000001', 'ONF-000002']);
  });

  it('starts from an empty map', () => {
    expect(assignSpineIds([], EMPTY_ID_MAP).ids).toEqual([]);
  });
});
