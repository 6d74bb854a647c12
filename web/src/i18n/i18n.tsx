import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { de, type MessageKey } from './de';
import { en } from './en';

export type Lang = 'de' | 'en';
export const LANGS: Lang[] = ['de', 'en'];
const DICTIONARIES: Record<Lang, Record<MessageKey, string>> = { de, en };
const STORAGE_KEY = 'pim.lang';

/** The browser's preferred language if we speak it, else German (the product's first language). */
export function detectLang(stored: string | null, browser: readonly string[]): Lang {
  if (stored === 'de' || stored === 'en') return stored;
  for (const tag of browser) {
    const base = tag.toLowerCase().split('-')[0];
    if (base === 'de' || base === 'en') return base;
  }
  return 'de';
}

type Vars = Record<string, string | number>;

/** Fills `{name}` placeholders; an unknown placeholder stays visible so a missing value is noticed. */
export function format(template: string, vars: Vars = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}

export function translator(lang: Lang) {
  const dict = DICTIONARIES[lang];
  return (key: MessageKey, vars?: Vars) => format(dict[key], vars);
}
export type T = ReturnType<typeof translator>;

interface I18n {
  lang: Lang;
  setLang: (lang: Lang) => void;
  t: T;
  /** Locale-aware number and date formatting. */
  num: (n: number) => string;
  date: (iso: string | null | undefined) => string;
}

const I18nContext = createContext<I18n | null>(null);

function readStored(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

export function I18nProvider({ children }: { children: ReactNode }) {
  const [lang, setLangState] = useState<Lang>(() =>
    detectLang(readStored(), navigator.languages ?? [navigator.language]),
  );
  const setLang = useCallback((next: Lang) => {
    setLangState(next);
    try {
      localStorage.setItem(STORAGE_KEY, next);
    } catch {
      // private mode: the choice lasts for this page only
    }
  }, []);
  useEffect(() => {
    document.documentElement.lang = lang;
  }, [lang]);
  const value = useMemo<I18n>(() => {
    const locale = lang === 'de' ? 'de-DE' : 'en-GB';
    const numberFormat = new Intl.NumberFormat(locale);
    const dateFormat = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
    return {
      lang,
      setLang,
      t: translator(lang),
      num: (n) => numberFormat.format(n),
      date: (iso) => (iso ? dateFormat.format(new Date(iso)) : '–'),
    };
  }, [lang, setLang]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): I18n {
  const ctx = useContext(I18nContext);
  if (!ctx) throw new Error('useI18n outside I18nProvider');
  return ctx;
}
