import { canonicalLanguage } from '@lms/contract/captions';

/**
 * The languages the add form offers first: those of the storefront's learners, then the most
 * common others. The label is the language's own name, which is what a viewer looks for in the
 * player's menu; "Other…" takes any BCP 47 tag.
 */
export const COMMON_LANGUAGES: readonly { tag: string; name: string; label: string }[] = [
  { tag: 'en', name: 'English', label: 'English' },
  { tag: 'hi', name: 'Hindi', label: 'हिन्दी' },
  { tag: 'hi-Latn', name: 'Hinglish (Hindi in Latin letters)', label: 'Hinglish' },
  { tag: 'ta', name: 'Tamil', label: 'தமிழ்' },
  { tag: 'te', name: 'Telugu', label: 'తెలుగు' },
  { tag: 'bn', name: 'Bengali', label: 'বাংলা' },
  { tag: 'mr', name: 'Marathi', label: 'मराठी' },
  { tag: 'gu', name: 'Gujarati', label: 'ગુજરાતી' },
  { tag: 'kn', name: 'Kannada', label: 'ಕನ್ನಡ' },
  { tag: 'ml', name: 'Malayalam', label: 'മലയാളം' },
  { tag: 'pa', name: 'Punjabi', label: 'ਪੰਜਾਬੀ' },
  { tag: 'ur', name: 'Urdu', label: 'اردو' },
  { tag: 'es', name: 'Spanish', label: 'Español' },
  { tag: 'fr', name: 'French', label: 'Français' },
  { tag: 'de', name: 'German', label: 'Deutsch' },
  { tag: 'pt', name: 'Portuguese', label: 'Português' },
  { tag: 'ar', name: 'Arabic', label: 'العربية' },
  { tag: 'ja', name: 'Japanese', label: '日本語' },
  { tag: 'zh', name: 'Chinese', label: '中文' },
];

/** The label a tag typed under "Other…" suggests: the language's own name as the browser knows it, else nothing. */
export function suggestedLabel(tag: string): string {
  const canonical = canonicalLanguage(tag.trim());
  if (!canonical) return '';
  const known = COMMON_LANGUAGES.find((language) => language.tag === canonical);
  if (known) return known.label;
  try {
    const name = new Intl.DisplayNames([canonical], { type: 'language' }).of(canonical);
    // An unknown language's "name" is its tag again: no suggestion then.
    return name && name !== canonical ? name.charAt(0).toLocaleUpperCase(canonical) + name.slice(1) : '';
  } catch {
    return '';
  }
}
