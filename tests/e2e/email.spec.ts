import { expect, test } from './shared-page.ts';
import { FIXTURES } from '../fixtures/make-fixtures.ts';
import { chooseFormat, convertButton, enterEmail, holdRequests, pickFiles } from './helpers.ts';
import { downloadJob, magicFormat } from './convert-helpers.ts';

test.beforeEach(async ({ page }) => {
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
  await expect(convertButton(page)).toHaveAccessibleDescription('None of these files can be converted. Add JPG, PNG, WebP, AVIF, JPEG XL, HEIC, TIFF, GIF or BMP images.');
  await expect(page.getByText('Invalid email')).toHaveCount(0);
  await expect(page.getByTestId('job')).toHaveCount(0);
});

test('an address typed, and one autofilled, before the page is alive is kept with the settings chosen then, and converts', async ({ freshPage: page }) => {
  const release = await holdRequests(page, '**/assets/main-*.js');
  await page.goto('/');
  await expect(page.getByText('Add Images')).toBeVisible();
  const email = page.getByLabel('Email address');
  await email.fill('Ada@Example.com');
  await chooseFormat(page, 'PNG');
  await page.getByRole('switch', { name: /Strip metadata/ }).uncheck();
  await pickFiles(page, [FIXTURES.jpeg]);
  await expect(page.locator('html')).not.toHaveAttribute('data-alive');
  release();
  await expect(page.locator('html')).toHaveAttribute('data-alive', '');
  await expect(email).toHaveValue('Ada@Example.com');
  await expect(page.getByText('Enter your e-mail address to convert.')).toHaveCount(0);
  await expect(convertButton(page)).toBeEnabled();
  await expect(page.getByRole('radio', { name: 'PNG', exact: true })).toBeChecked();
  await expect(page.getByRole('switch', { name: /Strip metadata/ })).not.toBeChecked();
  await convertButton(page).click();
  await expect(page.getByTestId('job')).toHaveAttribute('data-status', 'completed');
  expect(magicFormat(await downloadJob(page, 'photo.png'))).toBe('png');

  // Autofill: the browser sets the value and fires input and change, before the script has run.
  const autofilled = await page.context().newPage();
  let releaseAgain!: () => void;
  const heldAgain = new Promise<void>((resolve) => (releaseAgain = resolve));
  await autofilled.route('**/assets/main-*.js', async (route) => {
    await heldAgain;
    await route.continue();
  });
  await autofilled.goto('/');
  await autofilled.getByLabel('Email address').evaluate((input: HTMLInputElement) => {
    input.value = 'grace@example.com';
    input.dispatchEvent(new Event('input', { bubbles: true }));
    input.dispatchEvent(new Event('change', { bubbles: true }));
  });
  await pickFiles(autofilled, [FIXTURES.jpeg]);
  releaseAgain();
  await expect(autofilled.locator('html')).toHaveAttribute('data-alive', '');
  await expect(convertButton(autofilled)).toBeEnabled();
  await autofilled.close();
});
