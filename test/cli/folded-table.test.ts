import { describe, expect, it } from 'vitest';
import { foldedTable } from '../../src/cli/folded-table.js';

const HEADERS = ['REPOSITORY', 'RESULT', 'FILES', 'BRANCH / PULL REQUEST'];
const ROWS = [
  ['inline', 'in-line', '0', ''],
  [
    'drifting',
    'applied',
    '2',
    'pantograph/update@0123456789 pushed opened https://git.example/acme/drifting/pull/7',
  ],
];

describe('foldedTable', () => {
  it('is the plain table when every row fits, or when not on a terminal', () => {
    const plain =
      'REPOSITORY  RESULT   FILES  BRANCH / PULL REQUEST\n' +
      'inline      in-line  0\n' +
      'drifting    applied  2      pantograph/update@0123456789 pushed opened https://git.example/acme/drifting/pull/7\n';
    expect(foldedTable(HEADERS, ROWS, undefined)).toBe(plain);
    expect(foldedTable(HEADERS, ROWS, 120)).toBe(plain);
  });

  it('folds the last column under itself while it is 30 columns wide or more', () => {
    expect(foldedTable(HEADERS, ROWS, 100)).toBe(
      'REPOSITORY  RESULT   FILES  BRANCH / PULL REQUEST\n' +
        'inline      in-line  0\n' +
        'drifting    applied  2      pantograph/update@0123456789 pushed opened\n' +
        '                            https://git.example/acme/drifting/pull/7\n',
    );
  });

  it("puts the last cell under the row's second column where that column would be narrower", () => {
    expect(foldedTable(HEADERS, ROWS, 50)).toBe(
      'REPOSITORY  RESULT   FILES\n' +
        'inline      in-line  0\n' +
        'drifting    applied  2\n' +
        '            pantograph/update@0123456789\n' +
        '            pushed opened\n' +
        '            https://git.example/acme/drifting/pull/7\n',
    );
  });
});
