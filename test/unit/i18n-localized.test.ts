import { afterEach, describe, expect, it } from 'vitest';
import { localized, setLang } from '../../src/i18n/localized.js';

const text = localized({
  en: { hello: 'Hello', files: (n: number) => `${n} files` },
  zh: { hello: '你好', files: (n) => `${n} 个文件` },
});

describe('a localized table', () => {
  afterEach(() => setLang('en'));
  it('reads the language set for this run, at the time it is read', () => {
    expect(text.hello).toBe('Hello');
    setLang('zh');
    expect(text.hello).toBe('你好');
    expect(text.files(3)).toBe('3 个文件');
  });
});
