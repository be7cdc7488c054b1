// The language every user-facing string is read in, and the tables that hold them.
// One language per run: main() sets it once from --lang / CUDAWIZ_LANG / the locale (English under --json,
// whose fields are the interface). Each area keeps its strings in its own table, src/i18n/<area>.ts:
//
//   export const doctorText = localized({
//     en: { driverTooOld: (have: string, need: string) => `Driver ${have} is older than ${need}` },
//     zh: { driverTooOld: (have, need) => `显卡驱动 ${have} 比所需的 ${need} 旧` },
//   });
//   doctorText.driverTooOld('418.1', '450.80.02')
//
// The zh table must have every key of the en one (the type says so), and strings with values are
// functions with typed parameters, so a translation cannot drop a value.
export type Lang = 'en' | 'zh';

let current: Lang = 'en';

export function setLang(lang: Lang): void {
  current = lang;
}

export function currentLang(): Lang {
  return current;
}

export function localized<T extends object>(tables: { en: T; zh: NoInfer<T> }): T {
  return new Proxy(tables.en, {
    get: (_target, key) => Reflect.get(tables[current], key),
  });
}
