/** The supervisor's one line on a worker's death (lib/supervisor.ts whyExited): how it ended and where to look. */
import { expect, test } from 'vitest';
import { whyExited } from '../../lib/supervisor.ts';

test('an exit code: the code, the age, and that its error is above', () => {
  expect(whyExited(4242, 1, null, 93_456)).toBe('endpoint process 4242 exited with code 1 after 93.5 s (its error, if it wrote one, is above)');
});

test('a signal: the signal named, SIGKILL as coming from outside (the OOM killer or kill -9)', () => {
  expect(whyExited(7, null, 'SIGKILL', 1000)).toBe("endpoint process 7 was killed by SIGKILL after 1.0 s (from outside: the kernel's OOM killer or kill -9)");
  expect(whyExited(7, null, 'SIGABRT', 1000)).toMatch(/was killed by SIGABRT after 1\.0 s \(its error, if it wrote one, is above\)$/);
});

test('a clean exit says nothing more', () => {
  expect(whyExited(7, 0, null, 500)).toBe('endpoint process 7 exited with code 0 after 0.5 s');
});
