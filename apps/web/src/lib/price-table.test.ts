import { afterEach, describe, expect, it } from 'vitest';
import { R3_PRICE_TABLE, quote } from '@dealerpass/domain/prices';
import { PRICE_TABLE_ELEMENT_ID, priceTable, setPriceTableForTests } from './price-table.ts';

describe('the page price table (R11, docs/decisions/025)', () => {
  afterEach(() => {
    document.getElementById(PRICE_TABLE_ELEMENT_ID)?.remove();
    setPriceTableForTests(R3_PRICE_TABLE);
  });

  function servedWith(text: string) {
    const element = document.createElement('script');
    element.type = 'application/json';
    element.id = PRICE_TABLE_ELEMENT_ID;
    element.textContent = text;
    document.head.append(element);
    setPriceTableForTests(null);
  }

  it('reads the table the server put in the page, once', () => {
    const table = [
      ...R3_PRICE_TABLE,
      { item: 'KBB', from: '2027-01-01T05:00:00.000Z', cents: 9900 },
    ];
    servedWith(JSON.stringify(table).replaceAll('<', '\\u003c'));
    const read = priceTable();
    expect(quote(['KBB'], new Date('2027-02-01T00:00:00Z'), read).totalCents).toBe(10_200);
    document.getElementById(PRICE_TABLE_ELEMENT_ID)!.textContent = '[]';
    expect(priceTable()).toBe(read);
  });

  it('a page without a readable table has no prices (nothing made up)', () => {
    servedWith('{not json');
    expect(priceTable()).toEqual([]);
    setPriceTableForTests(null);
    document.getElementById(PRICE_TABLE_ELEMENT_ID)!.remove();
    expect(priceTable()).toEqual([]);
  });
});
