import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type Browser, type Page } from 'playwright-core';
import { generateDemoCatalogue } from '../../src/catalogue/import/demo-catalogue.js';
import type { MemoryMailTransport } from '../../src/customers/mail/mail-transport.js';
import { createCustomersApp, PASSWORD, requireConfirmation, signIn } from './customers.helpers.js';
import { addBottles, releaseChromium, sameOriginPage, screenshot, toCheckout, useChromium } from './storefront-browser.fixture.js';
import type { TestApp, TestShop } from '../helpers/test-app.js';

/**
 * The reference storefront's account side (issue 37) in headless Chromium: the wishlist (hearts, page, carried over
 * at sign-in), password reset and email confirmation with the mailed codes (mail captured in memory), the profile
 * and the address book, the checkout prefilled from the account, and axe-core on the cart, checkout, account and
 * order pages (no serious or critical violation). Desktop and a 390×844 phone. Screenshots in test-results/storefront/.
 */
const OUT = join(process.cwd(), 'test-results', 'storefront');
const AXE = readFileSync(join(process.cwd(), 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');
const PHONE = { width: 390, height: 844 };

/** The value `get` settles on: `want` as soon as it reads so, else its last reading after 10 s. */
async function eventually<T>(get: () => Promise<T>, want: T): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await get();
    if (value === want || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
}

interface AxeFinding {
  id: string;
  impact: string | null;
  nodes: string[];
}

describe('reference storefront: wishlist, password reset, email confirmation, profile, address book, prefilled checkout (issue 37)', () => {
  let t: TestApp;
  let mail: MemoryMailTransport;
  let shop: TestShop;
  let browser: Browser;
  let base: string;
  let n = 0;

  beforeAll(async () => {
    execFileSync(process.execPath, ['examples/storefront/scripts/prepare.mjs', '--browser'], { stdio: ['ignore', 'inherit', 'inherit'] });
    mkdirSync(OUT, { recursive: true });
    ({ t, mail } = await createCustomersApp({ STOREFRONT_DEMO: true }));
    shop = await t.createShop({ name: 'Account Wine Shop' });
    await shop.admin.post('/admin/catalogue/import', generateDemoCatalogue(60)).expect(200);
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    browser = await useChromium();
  }, 600_000);

  afterAll(async () => {
    await releaseChromium(browser);
    await t?.close();
  });

  const visitor = (viewport?: { width: number; height: number }) => sameOriginPage(browser, base, viewport);
  const shot = (page: Page, name: string) => screenshot(page, join(OUT, `${name}.png`), true);
  const open = (page: Page, path = '', token = shop.storefront_token) => page.goto(`${base}/storefront-demo/${path}?token=${token}`);
  const newEmail = (what: string) => `${what}-${Date.now()}-${(n += 1)}@example.test`;

  /** axe-core on the page as it is: no serious or critical violation (the finding's rule and elements otherwise). */
  async function expectAccessible(page: Page, name: string): Promise<void> {
    await page.evaluate(AXE);
    // a string: the test is compiled without the DOM types
    const found = await page.evaluate<AxeFinding[]>(`axe.run(document, { resultTypes: ['violations'] }).then((r) =>
      r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 5).map((x) => x.target.join(' ')) })))`);
    const serious = found.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect({ page: name, serious }).toEqual({ page: name, serious: [] });
  }

  /** The page fits the viewport's width: no sideways scrolling. */
  const expectNoOverflow = async (page: Page) =>
    expect(await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth')).toBeLessThanOrEqual(0);

  /** Signs up through the page (the account page shows the email afterwards). */
  async function signUp(page: Page, email: string, names = { first: 'Bruno', last: 'Favre' }, token = shop.storefront_token): Promise<void> {
    await open(page, 'account/sign-up', token);
    await page.getByLabel('First name').fill(names.first);
    await page.getByLabel('Last name').fill(names.last);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
  }

  async function signInPage(page: Page, email: string, password = PASSWORD): Promise<void> {
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).last().click();
  }

  // the product's own heart (the product page also lists related wines, each card with its heart)
  const productHeart = (page: Page) => page.locator('.product [data-testid="wishlist-heart"].on-product');
  const wishlistCount = (page: Page) => page.getByTestId('wishlist-count');

  it('a visitor saves wines with the heart on cards and product pages, finds them on the wishlist page, removes one, and keeps the rest after signing up', async () => {
    const page = await visitor();
    await open(page, 'wines');
    await page.waitForSelector('.card');
    const cards = page.locator('.card');
    const first = (await cards.nth(0).locator('.card-title').textContent())!;
    const second = (await cards.nth(1).locator('.card-title').textContent())!;
    await expect(wishlistCount(page).textContent()).resolves.toBe('0');

    // the card's heart: a toggle button named after the wine, pressed once saved
    const firstHeart = cards.nth(0).getByTestId('wishlist-heart');
    await expect(firstHeart.getAttribute('aria-label')).resolves.toBe(`Save ${first} to the wishlist`);
    await expect(firstHeart.getAttribute('aria-pressed')).resolves.toBe('false');
    await firstHeart.click();
    await page.locator('.card').nth(0).locator('[data-testid="wishlist-heart"][aria-pressed="true"]').waitFor();
    await expect(firstHeart.getAttribute('aria-label')).resolves.toBe(`Remove ${first} from the wishlist`);
    await wishlistCount(page).filter({ hasText: /^1$/ }).waitFor();

    // the product page's heart
    await cards.nth(1).locator('.card-link').click();
    await page.waitForSelector('.product h1');
    await expect(productHeart(page).getAttribute('aria-pressed')).resolves.toBe('false');
    await productHeart(page).click();
    await page.locator('.product [data-testid="wishlist-heart"].on-product[aria-pressed="true"]').waitFor();
    await wishlistCount(page).filter({ hasText: /^2$/ }).waitFor();

    // the wishlist page: newest first, as the API keeps them
    await page.getByRole('link', { name: /^Wishlist/ }).click();
    await page.getByRole('heading', { name: 'Wishlist', level: 1 }).waitFor();
    const items = page.getByTestId('wishlist-items').locator('li');
    await items.nth(1).waitFor();
    await expect(items.locator('a').allTextContents()).resolves.toEqual([second, first]);
    await expectAccessible(page, 'wishlist');
    await items
      .nth(0)
      .getByRole('button', { name: `Remove ${second}` })
      .click();
    await wishlistCount(page).filter({ hasText: /^1$/ }).waitFor();
    expect(
      await eventually(
        () =>
          items
            .locator('a')
            .allTextContents()
            .then((a) => a.join('|')),
        first,
      ),
    ).toBe(first);

    // signing up carries the visitor's wishlist over to the account (as the API does at sign-in)
    const email = newEmail('wish');
    await signUp(page, email);
    await page.getByTestId('profile-email').filter({ hasText: email }).waitFor();
    await wishlistCount(page).filter({ hasText: /^1$/ }).waitFor();
    await page.getByRole('link', { name: /^Wishlist/ }).click();
    expect(
      await eventually(
        () =>
          page
            .getByTestId('wishlist-items')
            .locator('li a')
            .allTextContents()
            .then((a) => a.join('|')),
        first,
      ),
    ).toBe(first);
    const { me } = await signIn(t, shop.storefront, email);
    const saved = (await me.get('/wishlist').expect(200)).body.wishlist;
    expect(saved.items.map((i: { product: { title: string } }) => i.product.title)).toEqual([first]);
    await shot(page, 'account-wishlist');
  }, 180_000);

  it('on a phone: the card heart is a 44 px target on the picture, the wishlist page fits the screen', async () => {
    const page = await visitor(PHONE);
    await open(page, 'wines');
    await page.waitForSelector('.card');
    const card = page.locator('.card').first();
    const box = (await card.getByTestId('wishlist-heart').boundingBox())!;
    const image = (await card.locator('.card-image').boundingBox())!;
    expect(box.width).toBeGreaterThanOrEqual(44);
    expect(box.height).toBeGreaterThanOrEqual(44);
    expect(box.x).toBeGreaterThanOrEqual(image.x);
    expect(box.x + box.width).toBeLessThanOrEqual(image.x + image.width);
    expect(box.y).toBeGreaterThanOrEqual(image.y);
    await card.getByTestId('wishlist-heart').click();
    await wishlistCount(page).filter({ hasText: /^1$/ }).waitFor();
    await open(page, 'wishlist');
    await page.getByTestId('wishlist-items').locator('li').first().waitFor();
    await expectNoOverflow(page);
    await shot(page, 'account-wishlist-phone');
  }, 120_000);

  it('a shopper who forgot the password asks for a code, a wrong code is refused, the mailed code sets a new one, and only the new one signs in', async () => {
    const email = newEmail('reset');
    await shop.storefront.post('/customers', { email, password: PASSWORD }).expect(201);
    await mail.take('confirm_email', email);
    const page = await visitor();
    await open(page, 'account/sign-in');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByRole('heading', { name: 'Reset password' }).waitFor();
    await expectAccessible(page, 'forgot password');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send reset code' }).click();
    await expect(page.getByTestId('reset-sent').textContent()).resolves.toContain(`If ${email} has an account`);
    const code = (await mail.take('reset_password', email)).data!.token!;

    // an unknown email gets the same answer and no mail
    const stranger = newEmail('nobody');
    await open(page, 'account/forgot-password');
    await page.getByLabel('Email').fill(stranger);
    await page.getByRole('button', { name: 'Send reset code' }).click();
    await page.getByTestId('reset-sent').waitFor();
    expect(mail.last('reset_password', stranger)).toBeUndefined();

    // a wrong code: the shopper's words, nothing changed
    await open(page, 'account/reset-password');
    await page.getByLabel('Code from the email').fill('vnscrp_notarealcode000000000000000000');
    await page.getByLabel('New password').fill('a brand new secret');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByRole('alert').filter({ hasText: 'This code is unknown, used or expired.' }).waitFor();

    // the link form (`?token=`) fills the code in
    await page.goto(`${base}/storefront-demo/account/reset-password?token=${encodeURIComponent(code)}`);
    await expect(page.getByLabel('Code from the email').inputValue()).resolves.toBe(code);
    await page.getByLabel('New password').fill('a brand new secret');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByTestId('password-changed').waitFor();
    await page.getByRole('link', { name: 'Sign in' }).last().click();
    await signInPage(page, email, PASSWORD);
    await page.getByRole('alert').filter({ hasText: 'Email or password is wrong.' }).waitFor();
    await signInPage(page, email, 'a brand new secret');
    await page.getByTestId('profile-email').filter({ hasText: email }).waitFor();
    // the reset confirmed the email too (the code reached its mailbox)
    await expect(page.getByTestId('email-unconfirmed').count()).resolves.toBe(0);
  }, 120_000);

  it('a new shopper confirms the email from the account page with the mailed code; a shop requiring it sends sign-up to the confirmation page', async () => {
    const page = await visitor();
    const email = newEmail('confirm');
    await signUp(page, email);
    await page.getByTestId('email-unconfirmed').waitFor();
    const code = (await mail.take('confirm_email', email)).data!.token!;
    await page.getByRole('link', { name: 'Confirm email address' }).click();
    await page.getByRole('heading', { name: 'Confirm email address' }).waitFor();
    await page.getByLabel('Confirmation code').fill(code);
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByTestId('email-confirmed').waitFor();
    await page.getByRole('link', { name: 'Account' }).last().click();
    await page.getByTestId('profile-email').filter({ hasText: email }).waitFor();
    await expect(page.getByTestId('email-unconfirmed').count()).resolves.toBe(0);
    // a used code is refused
    await page.goto(`${base}/storefront-demo/account/confirm-email?token=${encodeURIComponent(code)}`);
    await expect(page.getByLabel('Confirmation code').inputValue()).resolves.toBe(code);
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('alert').filter({ hasText: 'This code is unknown, used or expired.' }).waitFor();

    // a shop of its own requires confirmation (the settings are cached: the other tests' shop stays as it is)
    const strict = await t.createShop({ name: 'Strict Wine Shop' });
    await requireConfirmation(t, strict, true);
    const page2 = await visitor();
    const email2 = newEmail('required');
    await signUp(page2, email2, undefined, strict.storefront_token);
    await page2.getByRole('heading', { name: 'Confirm email address' }).waitFor();
    const code2 = (await mail.take('confirm_email', email2)).data!.token!;
    // until confirmed, sign-in says so and links to the confirmation page
    await open(page2, 'account/sign-in', strict.storefront_token);
    await signInPage(page2, email2);
    await page2.getByRole('alert').filter({ hasText: 'Please confirm your email address first.' }).waitFor();
    await page2.getByRole('link', { name: 'Confirm email address' }).click();
    await page2.getByLabel('Confirmation code').fill(code2);
    await page2.getByRole('button', { name: 'Confirm' }).click();
    await page2.getByTestId('email-confirmed').waitFor();
    await open(page2, 'account/sign-in', strict.storefront_token);
    await signInPage(page2, email2);
    await page2.getByTestId('profile-email').filter({ hasText: email2 }).waitFor();
  }, 120_000);

  for (const [label, viewport] of [
    ['desktop', { width: 1280, height: 900 }],
    ['phone', PHONE],
  ] as const) {
    it(`(${label}) a shopper edits the profile and keeps an address book (add, edit, remove, the billing address marked), as the API keeps them`, async () => {
      const page = await visitor(viewport);
      const email = newEmail(`book-${label}`);
      await signUp(page, email, { first: 'Clara', last: 'Meier' });
      await page.getByTestId('profile-name').filter({ hasText: 'Clara Meier' }).waitFor();
      const { me } = await signIn(t, shop.storefront, email);
      /** The address book as shown, against the API's list (the brute-force model: every address, one card each). */
      const compare = async () => {
        const api = (await me.get('/customers/me/addresses').expect(200)).body.addresses as Array<Record<string, string | null>>;
        const profile = (await me.get('/customers/me').expect(200)).body.customer;
        const cards = page.getByTestId('address-book').locator('li');
        expect(await eventually(() => cards.count(), api.length)).toBe(api.length);
        const read = () =>
          cards.evaluateAll((lis) => lis.map((li) => ({ text: li.querySelector('address')!.textContent, billing: li.hasAttribute('data-default') })));
        const expected = api.map((a) => ({
          text: [
            [a.first_name, a.last_name].filter(Boolean).join(' '),
            a.company ?? '',
            [a.street, a.house_number].filter(Boolean).join(' '),
            [a.zip_code, a.location].filter(Boolean).join(' '),
          ]
            .filter(Boolean)
            .join(''),
          billing: a.id === profile.default_address.id,
        }));
        // the page re-reads its address book after a save: give that read its time (a loaded machine showed the old card)
        const shown = JSON.parse(await eventually(async () => JSON.stringify(await read()), JSON.stringify(expected))) as unknown;
        expect(shown).toEqual(expected);
        return { api, profile };
      };
      await compare();

      // the profile: names and phone on the billing address
      await page.getByRole('button', { name: 'Edit profile' }).click();
      await page.locator('.address-form').getByLabel('Last name').fill('Meier-Suter');
      await page.locator('.address-form').getByLabel('Phone').fill('+41 44 123 45 67');
      await page.getByRole('button', { name: 'Save profile' }).click();
      await page.getByTestId('profile-name').filter({ hasText: 'Clara Meier-Suter' }).waitFor();
      await page.getByText('Profile saved.').waitFor();
      const { profile } = await compare();
      expect(profile.default_address).toMatchObject({ first_name: 'Clara', last_name: 'Meier-Suter', phone_number: '+41 44 123 45 67' });

      // add two addresses, edit one, remove the other
      for (const [street, city] of [
        ['Seestrasse', 'Zürich'],
        ['Rue du Lac', 'Sion'],
      ]) {
        await page.getByRole('button', { name: 'Add address' }).click();
        await page.locator('.address-form').getByLabel('First name').fill('Clara');
        await page.locator('.address-form').getByLabel('Street').fill(street);
        await page.locator('.address-form').getByLabel('City').fill(city);
        if (label === 'phone') await expectNoOverflow(page);
        await page.getByRole('button', { name: 'Save address' }).click();
        await page.getByTestId('address-book').locator('li', { hasText: street }).waitFor();
      }
      await compare();
      await page.getByRole('button', { name: /^Edit: .*Seestrasse/ }).click();
      await page.locator('.address-form').getByLabel('No.').fill('5');
      await page.locator('.address-form').getByLabel('Postcode').fill('8002');
      await page.getByRole('button', { name: 'Save address' }).click();
      await page.getByTestId('address-book').locator('li', { hasText: 'Seestrasse 5' }).waitFor();
      await page.getByRole('button', { name: /^Remove: .*Rue du Lac/ }).click();
      expect(await eventually(() => page.getByTestId('address-book').locator('li', { hasText: 'Rue du Lac' }).count(), 0)).toBe(0);
      const { api } = await compare();
      // a removal answers 204 without a body: no error shown for it
      await expect(page.locator('.account [role="alert"]').count()).resolves.toBe(0);
      expect(api.map((a) => a.street)).toEqual(expect.arrayContaining(['Seestrasse']));
      expect(api.find((a) => a.street === 'Seestrasse')).toMatchObject({ house_number: '5', zip_code: '8002', location: 'Zürich' });
      await expect(page.locator('[data-default] .tag').textContent()).resolves.toBe('Billing address');
      if (label === 'phone') await expectNoOverflow(page);
      await expectAccessible(page, `account (${label})`);
      await shot(page, `account-address-book-${label}`);
    }, 180_000);
  }

  it('a signed-in shopper finds the checkout prefilled from the account, switches among saved addresses, a new one kept once with the order; cart, checkout, account and order pages pass axe', async () => {
    const email = newEmail('prefill');
    await shop.storefront.post('/customers', { email, password: PASSWORD }).expect(201);
    const { me } = await signIn(t, shop.storefront, email);
    const home = { first_name: 'Anna', last_name: 'Keller', street: 'Bahnhofstrasse', house_number: '12', zip_code: '8001', location: 'Zürich' };
    const office = { first_name: 'Anna', last_name: 'Keller', street: 'Rue du Lac', house_number: '3', zip_code: '1950', location: 'Sion' };
    await me.post('/customers/me/addresses', home).expect(201);
    await me.post('/customers/me/addresses', office).expect(201);

    const page = await visitor();
    await open(page, 'account/sign-in');
    await signInPage(page, email);
    await page.getByTestId('profile-email').filter({ hasText: email }).waitFor();
    await addBottles(page, 2);
    await page.locator('.cart-link').click();
    await page.getByRole('heading', { name: 'Cart' }).waitFor();
    await expectAccessible(page, 'cart');
    await page.locator('.brand').click();
    await toCheckout(page);

    // the email from the account, the billing address (the first saved) in the fields
    const field = (name: string) => page.locator('fieldset.address').getByLabel(name, { exact: true });
    expect(await eventually(() => field('Email').inputValue(), email)).toBe(email);
    expect(await eventually(() => field('Street').inputValue(), 'Bahnhofstrasse')).toBe('Bahnhofstrasse');
    await expect(field('First name').inputValue()).resolves.toBe('Anna');
    await expect(field('No.').inputValue()).resolves.toBe('12');
    await expect(field('Postcode').inputValue()).resolves.toBe('8001');
    await expect(field('City').inputValue()).resolves.toBe('Zürich');
    // a saved address matches: no note about keeping a new one
    await expect(page.getByText('A new address is kept in your account with the order.').count()).resolves.toBe(0);

    const picker = page.getByLabel('Use a saved address');
    await expect(picker.locator('option').allTextContents()).resolves.toEqual([
      'Anna Keller, Bahnhofstrasse 12, 8001 Zürich',
      'Anna Keller, Rue du Lac 3, 1950 Sion',
      'A new address',
    ]);
    await picker.selectOption({ label: 'Anna Keller, Rue du Lac 3, 1950 Sion' });
    await expect(field('Street').inputValue()).resolves.toBe('Rue du Lac');
    await expect(field('City').inputValue()).resolves.toBe('Sion');
    await expect(field('Email').inputValue()).resolves.toBe(email);

    // a new address, kept in the account with the order
    await picker.selectOption({ label: 'A new address' });
    await expect(field('Street').inputValue()).resolves.toBe('');
    await field('First name').fill('Anna');
    await field('Last name').fill('Keller');
    await field('Street').fill('Seestrasse');
    await field('No.').fill('5');
    await field('Postcode').fill('8002');
    await field('City').fill('Zürich');
    await page.getByText('A new address is kept in your account with the order.').waitFor();
    // the country select's accessible name holds its chosen option: not an exact label
    const country = page.locator('fieldset.address select[autocomplete="country"]');
    if ((await country.inputValue()) !== 'CH') {
      await Promise.all([page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().includes('/checkouts/')), country.selectOption('CH')]);
      await page.waitForSelector('form.checkout[aria-busy="false"]');
    }
    await page.getByLabel('Swiss Post').check();
    await page.getByLabel('Invoice').check();
    await page.getByLabel(/I accept the terms/).check();
    await page.getByLabel(/at least 18 years/).check();
    await expectAccessible(page, 'checkout');
    await shot(page, 'account-checkout-prefilled');
    const posts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST') posts.push(new URL(r.url()).pathname.replace(/^\/api\/[^/]+/, '').replace(/checkouts\/[^/]+/, 'checkouts/{token}'));
    });
    await page.getByRole('button', { name: 'Place order' }).click();
    await page.getByRole('heading', { name: 'Thank you for your order' }).waitFor();
    // one placement; the API keeps the new address with the order (the page posts no address of its own)
    expect(posts).toEqual(['/checkouts/{token}/complete']);
    await expectAccessible(page, 'order confirmation');
    const number = (await page.getByTestId('order-number').textContent())!.replace(/^Order /, '');

    const saved = (await me.get('/customers/me/addresses').expect(200)).body.addresses as Array<Record<string, string | null>>;
    // kept once, by the order placement
    expect(saved.map((a) => a.street)).toEqual(expect.arrayContaining(['Bahnhofstrasse', 'Rue du Lac', 'Seestrasse']));
    expect(saved.filter((a) => a.street === 'Seestrasse')).toHaveLength(1);
    expect(saved.find((a) => a.street === 'Seestrasse')).toMatchObject({
      first_name: 'Anna',
      last_name: 'Keller',
      house_number: '5',
      zip_code: '8002',
      location: 'Zürich',
    });
    const orders = (await me.get('/customers/me/orders').expect(200)).body.orders as Array<{ id: string }>;
    const order = (await me.get(`/customers/me/orders/${orders[0]!.id}`).expect(200)).body.order;
    expect(order.shipping_address).toMatchObject({ street: 'Seestrasse', zip_code: '8002' });

    await page.getByRole('link', { name: 'Account' }).click();
    await page.getByTestId('order-history').getByRole('link', { name: number }).waitFor();
    await expectAccessible(page, 'account with an order');
    await page.getByTestId('order-history').getByRole('link', { name: number }).click();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(`Order ${number}`);
    await expectAccessible(page, 'order detail');

    // the same shopper on a phone: the saved-address picker and the form fit the screen
    const phone = await visitor(PHONE);
    await open(phone, 'account/sign-in');
    await signInPage(phone, email);
    await phone.getByTestId('profile-email').filter({ hasText: email }).waitFor();
    await addBottles(phone, 1);
    await toCheckout(phone);
    await phone.getByLabel('Use a saved address').waitFor();
    expect(await eventually(() => phone.locator('fieldset.address').getByLabel('Street', { exact: true }).inputValue(), 'Bahnhofstrasse')).toBe(
      'Bahnhofstrasse',
    );
    await expectNoOverflow(phone);
    await expectAccessible(phone, 'checkout (phone)');
    await shot(phone, 'account-checkout-prefilled-phone');
  }, 240_000);
});
