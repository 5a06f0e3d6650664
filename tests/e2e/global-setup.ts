import { join } from 'node:path';
import { makeFixtures } from '../fixtures/make-fixtures';
import { makeOrientedSources } from '../fixtures/oriented';
import { FIXTURE_DIR } from './helpers';

export default async function globalSetup(): Promise<void> {
  await makeFixtures(FIXTURE_DIR);
  await makeOrientedSources(join(FIXTURE_DIR, 'oriented'));
}
