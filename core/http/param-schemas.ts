/** Parameter schemas both APIs share. */
import { z } from 'zod';

/** `true` or `false`, in any case; anything else names itself in the message. */
export const booleanParam = z.string().transform((v, ctx) => {
  const s = v.trim().toLowerCase();
  if (s === 'true') return true;
  if (s === 'false') return false;
  ctx.addIssue({ code: 'custom', message: `must be true or false, not '${v}'` });
  return z.NEVER;
});
