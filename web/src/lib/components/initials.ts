/** Up to two initials of a name ("Asha Verma" → "AV"), for an avatar without (or before) its picture. */
export const initialsOf = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word[0]!.toUpperCase())
    .join('');
