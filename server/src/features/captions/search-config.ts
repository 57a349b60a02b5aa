/**
 * The PostgreSQL text-search configuration a language's cues are indexed with: stemming and stop
 * words where both PostgreSQL and PGlite ship a configuration for the language (estonian, for one,
 * is missing on PostgreSQL, so it is not here), `simple` (words as written, lower-cased) for the
 * rest. Keyed by the tag's primary subtag: "pt-BR" is searched as Portuguese. Hindi is `simple`:
 * captions labelled Hindi are often Hinglish, Latin and Devanagari mixed, which no stemmer reads.
 */
export const SEARCH_CONFIGS: Readonly<Record<string, string>> = {
  en: 'english',
  fr: 'french',
  de: 'german',
  es: 'spanish',
  it: 'italian',
  pt: 'portuguese',
  nl: 'dutch',
  ru: 'russian',
  sv: 'swedish',
  da: 'danish',
  fi: 'finnish',
  nb: 'norwegian',
  no: 'norwegian',
  nn: 'norwegian',
  tr: 'turkish',
  ar: 'arabic',
  id: 'indonesian',
  hu: 'hungarian',
  ro: 'romanian',
  ta: 'tamil',
  ne: 'nepali',
  el: 'greek',
  ga: 'irish',
  ca: 'catalan',
  eu: 'basque',
  lt: 'lithuanian',
  sr: 'serbian',
  hy: 'armenian',
  yi: 'yiddish',
  hi: 'simple',
};

/** The configuration for a canonical language tag ("en", "pt-BR", "zh-Hant"): its primary subtag's, else `simple`. */
export function searchConfigOf(language: string): string {
  const primary = language.split('-')[0]!.toLowerCase();
  return Object.hasOwn(SEARCH_CONFIGS, primary) ? SEARCH_CONFIGS[primary]! : 'simple';
}

/** Every configuration a cue's words may be stored in: a search is read once in each, as each cue was written in its own. */
export const SEARCH_CONFIG_NAMES: readonly string[] = ['simple', ...new Set(Object.values(SEARCH_CONFIGS))];
