import { expect, test } from '@playwright/test';
import { FIXTURES } from '../fixtures/make-fixtures';
import { convertButton, enterEmail, openConverter, pickFiles } from './helpers';

test.beforeEach(async ({ page }) => {
  await openConverter(page);
  await pickFiles(page, [FIXTURES.jpeg]);
  await expect(page.getByText('Added 1 image', { exact: true })).toBeVisible();
});

test('the e-mail field is required, type email; Convert is disabled while it is empty', async ({ page }) => {
  const field = page.getByLabel('Email address');
  await expect(field).toHaveAttribute('type', 'email');
  await expect(field).toHaveAttribute('required', '');
  await expect(page.getByRole('button', { name: 'Convert 1 image' })).toBeDisabled();
  await enterEmail(page);
  await expect(page.getByRole('button', { name: 'Convert 1 image' })).toBeEnabled();
});

test('blank: "Email required" / "Please enter your email address to convert images." (Enter in the empty field)', async ({ page }) => {
  // type=email strips surrounding spaces, so "   " is blank too; the disabled button cannot be clicked, Enter asks.
  await enterEmail(page, '   ');
  await expect(page.getByLabel('Email address')).toHaveValue('');
  await page.getByLabel('Email address').press('Enter');
  await expect(page.getByText('Email required')).toBeVisible();
  await expect(page.getByText('Please enter your email address to convert images.')).toBeVisible();
  await expect(page.getByTestId('job')).toHaveCount(0);
});

test('not an e-mail: "Invalid email" / "Please enter a valid email address."', async ({ page }) => {
  await enterEmail(page, 'ada at example');
  await page.getByRole('button', { name: 'Convert 1 image' }).click();
  await expect(page.getByText('Invalid email')).toBeVisible();
  await enterEmail(page, 'ada@example');
  await page.getByLabel('Email address').press('Enter');
  await expect(page.getByText('Invalid email')).toBeVisible();
  await expect(page.getByText('Please enter a valid email address.')).toBeVisible();
  await expect(page.getByTestId('job')).toHaveCount(0);
});

test('with no valid files Convert is disabled and says why', async ({ page }) => {
  await page.getByRole('button', { name: `Remove ${FIXTURES.jpeg}` }).click();
  await pickFiles(page, [FIXTURES.svg]);
  await enterEmail(page, 'not valid');
  await expect(convertButton(page)).toBeDisabled();
  await expect(convertButton(page)).toHaveAccessibleDescription('None of these files can be converted. Add JPG, PNG, WebP or AVIF images.');
  await expect(page.getByText('Invalid email')).toHaveCount(0);
  await expect(page.getByTestId('job')).toHaveCount(0);
});
