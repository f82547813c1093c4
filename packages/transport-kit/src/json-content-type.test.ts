import { jsonBodyRefusal } from './json-content-type';

describe('jsonBodyRefusal', () => {
  it('accepts UTF-8 JSON with or without the charset, and +json types', () => {
    for (const type of [
      'application/json',
      'application/json; charset=utf-8',
      'Application/JSON;charset="UTF-8"',
      'application/vnd.api+json',
    ]) {
      expect(jsonBodyRefusal(type, '{"a":1}')).toBeNull();
    }
  });

  it('refuses other media types, other charsets and UTF-16 bodies', () => {
    for (const type of [
      undefined,
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/jsonp',
    ]) {
      expect(jsonBodyRefusal(type, '{}')).toMatch(/content type/);
    }
    for (const type of [
      'application/json; charset=utf-7',
      'application/json; charset=utf-16',
      'application/json; charset=latin1',
    ]) {
      expect(jsonBodyRefusal(type, '{}')).toMatch(/charset/);
    }
    const utf16 = Buffer.from('{"a":1}', 'utf16le').toString('utf8');
    expect(jsonBodyRefusal('application/json', utf16)).toMatch(/not UTF-8/);
  });
});
