import { describe, expect, it } from '@jest/globals';
import { ConfigError, loadConfig } from './app-config.js';
import { trustProxyProblem } from './trust-proxy.js';

describe('TRUST_PROXY', () => {
  it('accepts empty, a hop count, addresses and ranges up to /8 (IPv4) and /32 (IPv6)', () => {
    for (const ok of ['', '1', '10', '127.0.0.1', '10.0.0.0/8', '10.0.0.0/8, 127.0.0.1', '::1', 'fd00::/32', '2001:db8::/48', '::ffff:10.0.0.0/104'])
      expect([ok, trustProxyProblem(ok)]).toEqual([ok, null]);
  });

  it('refuses ranges wider than /8 or /32, however they are split', () => {
    for (const wide of ['0.0.0.0/0', '0.0.0.0/1,128.0.0.0/1', '10.0.0.0/7', '::/0', '::/1,8000::/1', '2000::/31', '::ffff:0.0.0.0/96', '10.0.0.1, 0.0.0.0/1'])
      expect(trustProxyProblem(wide)).toMatch(/is wider than/);
  });

  it('refuses what is not an address or CIDR', () => {
    for (const bad of ['true', '*', 'yes', '999.1.1.1', '10.0.0.0/33', '10.0.0.0/8/8', '10.0.0.0/abc', '10.0.0.0,', 'loopback'])
      expect(trustProxyProblem(bad)).not.toBeNull();
  });

  it('loadConfig refuses a wide range with one line naming the variable', () => {
    expect(() => loadConfig({ TRUST_PROXY: '0.0.0.0/1,128.0.0.0/1,::/1,8000::/1' })).toThrow(ConfigError);
    try {
      loadConfig({ TRUST_PROXY: '0.0.0.0/0' });
    } catch (err) {
      const message = (err as Error).message;
      expect(message.split('\n')).toHaveLength(1);
      expect(message).toMatch(/^Invalid configuration: TRUST_PROXY="0\.0\.0\.0\/0": "0\.0\.0\.0\/0" is wider than \/8/);
      return;
    }
    throw new Error('loadConfig accepted 0.0.0.0/0');
  });

  it('NODE_ENV=production refuses STOREFRONT_DEMO=on unless STOREFRONT_DEMO_IN_PRODUCTION=on', () => {
    const production = { NODE_ENV: 'production', APP_SECRET: 'a-private-secret-of-enough-length', SMTP_URL: 'smtp://mail.example:25' };
    expect(() => loadConfig({ ...production, STOREFRONT_DEMO: 'on' })).toThrow(/STOREFRONT_DEMO=on is refused when NODE_ENV=production/);
    expect(loadConfig({ ...production, STOREFRONT_DEMO: 'on', STOREFRONT_DEMO_IN_PRODUCTION: 'on' }).STOREFRONT_DEMO).toBe(true);
    expect(loadConfig({ ...production }).STOREFRONT_DEMO).toBe(false);
  });
});
