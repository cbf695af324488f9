/**
 * The operator console's account search and audit export over HTTP (DECISIONS R12,
 * docs/decisions/026): search by every field, wildcards taken literally, at most 50 answers; the
 * audit as CSV with RFC 4180 quoting and spreadsheet formula neutralization. Every role may read;
 * the sweeps (sweep-staff-access) refuse everyone else.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STAFF_ROLES } from '@dealerpass/domain/admin/roles';
import { csvField } from '../../src/lib/csv.ts';
import {
  insertAudit,
  insertPayment,
  staffBrowsers,
  type StaffBrowsers,
} from '../factories/admin-fixtures.ts';
import { buildTestApp, type TestApp } from '../support/helper.ts';
import { createAccount } from '../factories/sign-in.ts';

let t: TestApp;
let staff: StaffBrowsers;

beforeAll(async () => {
  t = await buildTestApp();
  staff = await staffBrowsers(t);
});
afterAll(() => t.close());

const get = (url: string, role: keyof StaffBrowsers = 'support') =>
  staff[role].request({ method: 'GET', url });

/**
 * A minimal RFC 4180 reader: quoted fields, doubled quotes, CRLF records. `separator` is `;` to
 * read as a spreadsheet in a European locale does; a quote opens a quoted field only at a cell's
 * start, as spreadsheets read it (elsewhere it is text).
 */
function parseCsv(text: string, separator: ',' | ';' = ','): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"' && field === '') quoted = true;
    else if (char === separator) {
      record.push(field);
      field = '';
    } else if (char === '\r' || char === '\n') {
      // Outside quotes any line break ends a record, as it does to a spreadsheet.
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      if (char === '\r' && text[i + 1] === '\n') i++;
    } else field += char;
  }
  if (field !== '' || record.length > 0) throw new Error('the CSV does not end with CRLF');
  return records;
}

describe('search (R12)', () => {
  let target: { id: string };
  let paymentId: string;

  beforeAll(async () => {
    const { user } = await createAccount(t, {
      email: 'Zelda.Searchable@example.com',
      altEmail: 'zs.alternate@example.net',
      firstName: 'Zelda',
      lastName: 'Quorthon',
      dealership: 'Vexillum Autos',
      dealerpassUserId: 'DPU-778899',
      cardBrand: 'visa',
      cardLast4: '4242',
    });
    target = user;
    const { payment } = await insertPayment(t, user.id, {
      amountCents: 6800,
      cardLast4: '9876',
      gatewayTransactionId: 'gw-txn-5551234',
    });
    paymentId = payment.id;
    // Noise: an account that must not match the specific searches.
    await createAccount(t, { email: 'other.person@example.com', dealership: 'Plain Motors' });
  });

  const ids = async (q: string) => {
    const response = await get(`/api/admin/accounts?q=${encodeURIComponent(q)}`);
    expect(response.statusCode, q).toBe(200);
    return response.json<{ data: { userId: string }[] }>().data.map((row) => row.userId);
  };

  it.each([
    ['part of the e-mail, any case', 'zelda.SEARCH'],
    ['the alternate e-mail', 'zs.alternate'],
    ['the first name', 'zelda'],
    ['the last name', 'Quorthon'],
    ['the full name', 'Zelda Quorthon'],
    ['the dealership', 'vexillum'],
    ['the DealerPass user id', 'DPU-778899'],
    ['the card on file’s last four', '4242'],
    ['a payment card’s last four', '9876'],
    ['the gateway transaction id', 'gw-txn-5551234'],
  ])('finds the account by %s', async (_what, q) => {
    expect(await ids(q)).toEqual([target.id]);
  });

  it('finds the account by our payment id and by its own id', async () => {
    expect(await ids(paymentId)).toEqual([target.id]);
    expect(await ids(paymentId.toUpperCase())).toEqual([target.id]);
    expect(await ids(target.id)).toEqual([target.id]);
  });

  it('answers the listed fields only, card as brand and last four', async () => {
    const response = await get('/api/admin/accounts?q=Quorthon');
    expect(response.json().data).toEqual([
      {
        userId: target.id,
        dealerpassUserId: 'DPU-778899',
        email: 'Zelda.Searchable@example.com',
        firstName: 'Zelda',
        lastName: 'Quorthon',
        dealership: 'Vexillum Autos',
        accountStatus: 'active',
        accountStatusDetails: null,
        cardBrand: 'visa',
        cardLast4: '4242',
      },
    ]);
  });

  it('takes wildcards literally and a partial transaction id matches nothing', async () => {
    expect(await ids('%%')).toEqual([]);
    expect(await ids('__')).toEqual([]);
    expect(await ids('gw-txn-555')).toEqual([]);
    const { user } = await createAccount(t, {
      email: 'percent@example.com',
      dealership: '100% Cars',
    });
    expect(await ids('0% c')).toEqual([user.id]);
  });

  it('answers at most 50 accounts', async () => {
    for (let i = 0; i < 53; i++) {
      await createAccount(t, {
        email: `fleet${i}@example.com`,
        dealership: 'Fleetwide Fifty',
        withIdentity: false,
      });
    }
    expect(await ids('Fleetwide')).toHaveLength(50);
  });

  it('refuses a search of fewer than 2 or more than 100 characters, or none', async () => {
    for (const q of ['', 'a', ' a ', 'x'.repeat(101)]) {
      const response = await get(`/api/admin/accounts?q=${encodeURIComponent(q)}`);
      expect(response.statusCode, JSON.stringify(q)).toBe(400);
    }
    expect((await get('/api/admin/accounts')).statusCode).toBe(400);
  });

  it('is open to every role', async () => {
    for (const role of STAFF_ROLES) {
      expect((await get('/api/admin/accounts?q=Quorthon', role)).statusCode, role).toBe(200);
    }
  });
});

describe('the audit as CSV (R12)', () => {
  it('quotes as RFC 4180 says and neutralizes what a spreadsheet would run', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('=1+1')).toBe("'=1+1");
    expect(csvField('+1')).toBe("'+1");
    expect(csvField('-1')).toBe("'-1");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('\tx')).toBe('"\'\tx"');
    expect(csvField('\rx')).toBe('"\'\rx"');
    expect(csvField('=HYPERLINK("http://x","y")')).toBe('"\'=HYPERLINK(""http://x"",""y"")"');
    expect(csvField(null)).toBe('');
    expect(csvField(42)).toBe('42');
    expect(csvField({ a: 1 })).toBe('"{""a"":1}"');
  });

  it('quotes a field holding either separator or a tab, and neutralizes every cell start in it (issue 24, item 8)', () => {
    // Unquoted, a spreadsheet that separates by `;` reads `=1+1` as a cell of its own: a formula.
    // Quoted, it still does when the field is not the record's first (a quote inside a record is
    // text to it): the cell after each separator gets the apostrophe as the field's start does.
    expect(csvField('ok;=1+1;x')).toBe('"ok;\'=1+1;x"');
    expect(csvField('a;b')).toBe('"a;b"');
    expect(csvField('a\tb')).toBe('"a\tb"');
    expect(csvField(';=1+1')).toBe('";\'=1+1"');
    expect(csvField('=1;2')).toBe('"\'=1;2"');
    expect(csvField('a, -2')).toBe('"a,\' -2"');
    expect(csvField('a;"=1"')).toBe('"a;\'""=1"""');
    expect(csvField('a\n@x')).toBe('"a\n\'@x"');
    expect(csvField(' =1+1')).toBe("' =1+1");
    expect(csvField('\t\t=1')).toBe("\"'\t'\t'=1\"");
    expect(csvField('no separator, 1-2 = 3')).toBe('"no separator, 1-2 = 3"');
  });

  it('exports every row of an account as an attachment, each cell safe and round-tripping', async () => {
    const { user } = await createAccount(t, { email: 'audit.csv@example.com' });
    const reasons = [
      '=cmd|"/c calc"!A1',
      '+SUM(1)',
      '-2',
      '@x',
      '\tTab',
      'comma, and "quote"',
      'new\nline',
      'ok;=1+1;x',
      'tab\t=1+1',
    ];
    for (const [i, reason] of reasons.entries()) {
      await insertAudit(t, {
        userId: user.id,
        action: 'block',
        reason,
        at: new Date(Date.UTC(2026, 0, 10, 9, i)),
        after: { note: '=1+2' },
      });
    }
    await insertAudit(t, { userId: randomUUID(), reason: 'another account' });
    const response = await get(`/api/admin/audit.csv?userId=${user.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="staff-audit-${user.id}.csv"`,
    );
    const [header, ...rows] = parseCsv(response.body);
    expect(header).toEqual([
      'id',
      'at',
      'staff_email',
      'staff_id',
      'user_id',
      'action',
      'reason',
      'before',
      'after',
      'request_key',
    ]);
    expect(rows).toHaveLength(reasons.length);
    const reasonColumn = rows.map((row) => row[6]);
    expect(reasonColumn).toEqual([
      '\'=cmd|"/c calc"!A1',
      "'+SUM(1)",
      "'-2",
      "'@x",
      "'\tTab",
      'comma, and "quote"',
      'new\nline',
      "ok;'=1+1;x",
      "tab\t'=1+1",
    ]);
    // No cell a spreadsheet reads as a formula, whichever separator it splits by (issue 24,
    // item 8): a `;` reader takes our quotes inside a record as text and splits at every `;`.
    for (const separator of [',', ';'] as const) {
      for (const row of parseCsv(response.body, separator)) {
        for (const cell of row) expect(cell, separator).not.toMatch(/^[=+\-@\t\r]/);
      }
    }
    expect(rows.every((row) => row[4] === user.id)).toBe(true);
  });

  it('filters by time window and refuses a malformed one', async () => {
    const { user } = await createAccount(t, { email: 'audit.window@example.com' });
    for (const day of [1, 2, 3]) {
      await insertAudit(t, {
        userId: user.id,
        reason: `day ${day}`,
        at: new Date(Date.UTC(2026, 4, day, 12)),
      });
    }
    const response = await get(
      `/api/admin/audit.csv?userId=${user.id}&from=2026-05-02T00:00:00Z&to=2026-05-03T00:00:00Z`,
    );
    const rows = parseCsv(response.body).slice(1);
    expect(rows.map((row) => row[6])).toEqual(['day 2']);
    expect((await get('/api/admin/audit.csv?from=yesterday')).statusCode).toBe(400);
    expect((await get('/api/admin/audit.csv?userId=nope')).statusCode).toBe(400);
  });

  it('is open to every role', async () => {
    for (const role of STAFF_ROLES) {
      expect((await get('/api/admin/audit.csv', role)).statusCode, role).toBe(200);
    }
  });
});
