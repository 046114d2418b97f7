/**
 * The arrow keys on the map's points (src/webview/map/keys.ts): the nearest point in the
 * arrow's direction, Home and End in list order, the focus moved and the key claimed.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { moveFocus, nextPoint, type XY } from '../../../src/webview/map/keys';

//            0 (10,0)                5 (24,4)
//  3 (0,10)  1 (10,10)   2 (20,10)
//         6 (6,15)
//              4 (12,30)
const POINTS: XY[] = [
  { x: 10, y: 0 },
  { x: 10, y: 10 },
  { x: 20, y: 10 },
  { x: 0, y: 10 },
  { x: 12, y: 30 },
  { x: 24, y: 4 },
  { x: 6, y: 15 },
];

void test('an arrow moves to the nearest point that way (up is north); none that way stays', () => {
  assert.equal(nextPoint(POINTS, 1, 'ArrowRight'), 2);
  assert.equal(nextPoint(POINTS, 1, 'ArrowLeft'), 3);
  assert.equal(nextPoint(POINTS, 1, 'ArrowUp'), 0);
  assert.equal(nextPoint(POINTS, 1, 'ArrowDown'), 6);
  assert.equal(nextPoint(POINTS, 6, 'ArrowDown'), 4);
  // From 2, point 5 is 4 right and 6 up: more up than right, so it is Up's, not Right's.
  assert.equal(nextPoint(POINTS, 2, 'ArrowUp'), 5);
  assert.equal(nextPoint(POINTS, 2, 'ArrowRight'), undefined);
  assert.equal(nextPoint(POINTS, 0, 'ArrowUp'), undefined);
  // A point straight ahead wins over a nearer one off the line: from 3, Right goes to 1, not 6.
  assert.equal(nextPoint(POINTS, 3, 'ArrowRight'), 1);
});

void test('Home and End go to the first and last point in list order (worst first)', () => {
  assert.equal(nextPoint(POINTS, 3, 'Home'), 0);
  assert.equal(nextPoint(POINTS, 3, 'End'), 6);
  assert.equal(nextPoint([], 0, 'Home'), undefined);
  assert.equal(nextPoint(POINTS, 1, 'Enter'), undefined);
  assert.equal(nextPoint(POINTS, 9, 'ArrowLeft'), undefined);
});

void test('moveFocus focuses the next point and claims its keys only', () => {
  let focused = -1;
  const els = POINTS.map((p, i) => ({
    getAttribute: (name: string) => (name === 'cx' ? String(p.x) : name === 'cy' ? String(p.y) : null),
    focus: () => {
      focused = i;
    },
  }));
  assert.equal(moveFocus(els, els[6], 'ArrowDown'), true);
  assert.equal(focused, 4);
  focused = -1;
  assert.equal(moveFocus(els, els[0], 'ArrowUp'), true, 'an arrow with no point that way is still ours');
  assert.equal(focused, -1, 'the focus stays');
  assert.equal(moveFocus(els, els[1], 'Enter'), false, 'Enter opens the host (draw.ts)');
  assert.equal(moveFocus(els, els[1], 'Tab'), false);
  assert.equal(moveFocus(els, {}, 'ArrowDown'), false, 'not a point');
});
