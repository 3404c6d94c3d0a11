import { isHttpUrl, publicBaseUrl } from './url.js';

describe('isHttpUrl', () => {
  it('true only for absolute http(s) URLs', () => {
    for (const ok of ['http://example.com', 'https://shop.example/return?x=1', 'HTTPS://EXAMPLE.COM/a']) expect(isHttpUrl(ok)).toBe(true);
    for (const bad of ['', 'example.com', '/relative', 'ftp://example.com', 'javascript:alert(1)', 'mailto:a@b.c', 'http//x'])
      expect(isHttpUrl(bad)).toBe(false);
  });
});

describe('publicBaseUrl', () => {
  const req = (protocol: string, host: string | undefined) => ({ protocol, get: (name: string) => (name === 'host' ? host : undefined) });

  it('PUBLIC_URL wins, without trailing slashes', () => {
    expect(publicBaseUrl(req('http', 'internal:3000'), 'https://shop.example/')).toBe('https://shop.example');
    expect(publicBaseUrl(req('http', 'internal:3000'), 'https://shop.example//')).toBe('https://shop.example');
  });

  it("else the request's protocol and host (localhost without a Host header)", () => {
    expect(publicBaseUrl(req('https', 'api.example:8443'), undefined)).toBe('https://api.example:8443');
    expect(publicBaseUrl(req('http', undefined), '')).toBe('http://localhost');
  });
});
