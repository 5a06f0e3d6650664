import { makeFixtures } from '../fixtures/make-fixtures';
import { FIXTURE_DIR } from './helpers';

export default async function globalSetup(): Promise<void> {
  await makeFixtures(FIXTURE_DIR);
}
