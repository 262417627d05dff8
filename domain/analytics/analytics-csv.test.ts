import { describe, expect, it } from 'vitest';
import { type AnalyticsCsvRow, analyticsCsv, analyticsCsvFilename } from './analytics-csv.ts';

const row: AnalyticsCsvRow = {
  lastName: 'Lee',
  firstName: 'Ana',
  email: 'ana@example.test',
  material: 'Cell Biology',
  access: 'Course fee',
  opens: '3',
  lastOpened: '2026-03-03T09:30:00.000Z',
};
const header = ['Last name', 'First name', 'E-mail', 'Material', 'Access', 'Opens', 'Last opened'];

describe('the section analytics CSV (issue 19: instructors export CSV)', () => {
  it('writes the header, then one line per student and material, in column order', () => {
    expect(
      analyticsCsv(header, [
        row,
        { ...row, material: 'Unread', access: 'No', opens: '0', lastOpened: '' },
      ]),
    ).toBe(
      'Last name,First name,E-mail,Material,Access,Opens,Last opened\r\n' +
        'Lee,Ana,ana@example.test,Cell Biology,Course fee,3,2026-03-03T09:30:00.000Z\r\n' +
        'Lee,Ana,ana@example.test,Unread,No,0,\r\n',
    );
  });

  it('issue 19: a name or title starting with =, +, - or @ is not a formula; quotes are doubled', () => {
    const file = analyticsCsv(header, [
      {
        ...row,
        lastName: '=HYPERLINK("http://x")',
        firstName: '+1',
        email: '-2@x',
        material: '@SUM(A1), "vol. 2"',
      },
    ]);
    const line = file.split('\r\n')[1];
    expect(line).toBe(
      `"'=HYPERLINK(""http://x"")",'+1,'-2@x,"'@SUM(A1), ""vol. 2""",Course fee,3,2026-03-03T09:30:00.000Z`,
    );
  });

  it('names the file after the section', () => {
    expect(analyticsCsvFilename('BIO 101: Section 001')).toBe(
      'section-analytics-bio-101-section-001.csv',
    );
    expect(analyticsCsvFilename('')).toBe('section-analytics-section.csv');
  });
});
