import { describe, expect, it } from '@jest/globals';
import { redactQuery, redactUrlAttribute } from './redact-url.js';

describe('redactQuery', () => {
  it('redacts hash, token, page_info, code and any parameter named like a secret; keeps the rest as sent', () => {
    expect(redactQuery('hash=abc&locale=de')).toBe('hash=REDACTED&locale=de');
    expect(redactQuery('limit=5&page_info=eyJ4Ijox&currency=CHF')).toBe('limit=5&page_info=REDACTED&currency=CHF');
    expect(redactQuery('token=t&code=123456&api_key=k&client_secret=s&Password=p&X-Amz-Signature=z&access%5Ftoken=a')).toBe(
      'token=REDACTED&code=REDACTED&api_key=REDACTED&client_secret=REDACTED&Password=REDACTED&X-Amz-Signature=REDACTED&access%5Ftoken=REDACTED',
    );
    expect(redactQuery('q=red+wine&hash')).toBe('q=red+wine&hash=REDACTED');
    expect(redactQuery('hash=a&hash=b')).toBe('hash=REDACTED&hash=REDACTED');
    expect(redactQuery('q=%E0%A4%A')).toBe('q=%E0%A4%A');
  });

  it('redacts inside full URLs and targets, keeping the path and fragment', () => {
    expect(redactUrlAttribute('url.full', 'https://u:p@shop.example/orders/1?hash=s3cret&x=1#top')).toBe(
      'https://u:p@shop.example/orders/1?hash=REDACTED&x=1#top',
    );
    expect(redactUrlAttribute('http.target', '/api/pay?token=abc')).toBe('/api/pay?token=REDACTED');
    expect(redactUrlAttribute('url.full', 'https://shop.example/a')).toBe('https://shop.example/a');
    expect(redactUrlAttribute('url.query', 'code=1')).toBe('code=REDACTED');
  });
});
