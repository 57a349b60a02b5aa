import { describe, expect, it } from 'vitest';
import { progressTexts } from './progress-texts';

describe("a learner's progress in words", () => {
  it.each([
    [0, 1, 0, '0 of 1 lecture · 0 %'],
    [1, 1, 100, '1 of 1 lecture · 100 %'],
    [1, 2, 50, '1 of 2 lectures · 50 %'],
    [0, 0, 0, '0 of 0 lectures · 0 %'],
  ])('%i done of %i reads "%s"', (done, total, percent, words) => {
    expect(progressTexts.courseProgress(done, total, percent)).toBe(words);
  });
});
