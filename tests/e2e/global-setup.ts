import { join } from 'node:path';
import { makeFixtures } from '../fixtures/make-fixtures.ts';
import { makeOrientedSources } from '../fixtures/oriented.ts';
import { FIXTURE_DIR } from './helpers.ts';

export default async function globalSetup(): Promise<void> {
  await makeFixtures(FIXTURE_DIR);
  await makeOrientedSources(join(FIXTURE_DIR, 'oriented'));
}
