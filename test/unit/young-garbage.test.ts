import { expect, test } from 'vitest';
import { YoungGarbage } from '../../server/young-garbage.ts';

test('the young generation is collected once per `every` bytes streamed, over any number of answers', () => {
  const calls: unknown[] = [];
  const g = new YoungGarbage((o) => calls.push(o), 1000);
  for (let i = 0; i < 9; i++) g.streamed(100);
  expect(calls).toEqual([]);
  g.streamed(100);
  expect(calls).toEqual([{ type: 'minor' }]);
  g.streamed(2500);
  g.streamed(999);
  expect(calls).toHaveLength(2);
  g.streamed(1);
  expect(calls).toHaveLength(3);
});

