// After each suite of the main project: a suite that wrote into a shared fixture build fails, naming the files,
// before the suites that read it next are misled.
import { afterAll, expect } from 'vitest';
import { changedSharedFiles, readerRoots } from '../helpers/shared-builds.ts';

afterAll(async () => {
  expect(changedSharedFiles(), 'a suite wrote into a shared fixture build (build its own instead)').toEqual([]);
  await Promise.all(readerRoots.splice(0).map((r) => r.remove()));
});
