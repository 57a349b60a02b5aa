/** A lecture's caption as the player needs it: the link is the viewer's own signed WebVTT. */
export interface PlayerCaption {
  language: string;
  label: string;
  isDefault: boolean;
  url: string;
}

/** The last choice, per viewer on this device: a language tag, or 'off'. */
const OFF = 'off';
const storageKey = (viewer: string) => `lms.captions.${viewer}`;

export function rememberedCaption(viewer: string): string | null {
  try {
    return localStorage.getItem(storageKey(viewer));
  } catch {
    return null;
  }
}

export function rememberCaption(viewer: string, language: string | null) {
  try {
    localStorage.setItem(storageKey(viewer), language ?? OFF);
  } catch {
    // Private modes refuse storage: the choice lasts as long as the page.
  }
}

/** Tags compare without case (`pt-BR`, `pt-br`); a playlist may carry the same tag spelt either way. */
export const sameLanguage = (a: string | undefined, b: string | undefined) => a !== undefined && b !== undefined && a.toLowerCase() === b.toLowerCase();

const defaultOf = (captions: readonly PlayerCaption[]) => (captions.find((caption) => caption.isDefault) ?? captions[0])?.language ?? null;

/**
 * The captions a lecture opens with: the language remembered if this lecture has it; the lecture's own
 * default if the viewer had captions on in a language it lacks; else none (captions are asked for, not imposed).
 */
export function openingCaption(captions: readonly PlayerCaption[], remembered: string | null): string | null {
  if (!remembered || remembered === OFF || captions.length === 0) return null;
  return captions.find((caption) => sameLanguage(caption.language, remembered))?.language ?? defaultOf(captions);
}

/** What `C` turns on: the language chosen last, when this lecture has it, else its default. */
export function toggledOnCaption(captions: readonly PlayerCaption[], last: string | null): string | null {
  return captions.find((caption) => sameLanguage(caption.language, last ?? undefined))?.language ?? defaultOf(captions);
}
