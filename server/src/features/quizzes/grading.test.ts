import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { answers } from '@lms/contract/answers';
import type { Answer, AuthoredQuestion } from '@lms/contract/quizzes';
import { grade, isRight, learnerQuestions, makeQuestionOrder, resultQuestions, shuffled, validateSubmission } from './grading.ts';

const option = (text: string, correct: boolean) => ({ id: randomUUID(), text, correct });
const single: AuthoredQuestion = {
  id: randomUUID(),
  type: 'single',
  prompt: 'Two plus two?',
  options: [option('Four', true), option('Five', false), option('Three', false)],
  explanation: 'Count them.',
};
const multiple: AuthoredQuestion = {
  id: randomUUID(),
  type: 'multiple',
  prompt: 'Primes?',
  options: [option('Two', true), option('Three', true), option('Four', false)],
  explanation: 'Four is two twos.',
};
const text: AuthoredQuestion = {
  id: randomUUID(),
  type: 'text',
  prompt: 'Half of seven?',
  answers: ['3.5', 'three and a half'],
  explanation: 'Seven over two.',
};
const questions = [single, multiple, text];
const order = makeQuestionOrder(questions, { shuffleQuestions: false, shuffleOptions: false });
const ids = (question: AuthoredQuestion, ...indexes: number[]) => (question.type === 'text' ? [] : indexes.map((i) => question.options[i]!.id));

const refusal = (submitted: Answer[]) => {
  try {
    validateSubmission(questions, order, submitted);
  } catch (error) {
    return { status: (error as { statusCode: number }).statusCode, message: (error as Error).message };
  }
  return null;
};

describe('the learner view', () => {
  it('carries the id, type, prompt and option texts alone, in the attempt order', () => {
    const view = learnerQuestions(questions, [
      { questionId: text.id, optionIds: [] },
      { questionId: single.id, optionIds: ids(single, 2, 0, 1) },
    ]);
    expect(view).toEqual([
      { id: text.id, type: 'text', prompt: 'Half of seven?', options: [] },
      {
        id: single.id,
        type: 'single',
        prompt: 'Two plus two?',
        options: [2, 0, 1].map((i) => ({ id: ids(single, i)[0], text: (single as { options: { text: string }[] }).options[i]!.text })),
      },
    ]);
    const body = JSON.stringify(learnerQuestions(questions, order));
    for (const secret of ['correct', 'answers', 'explanation', '3.5', 'Count them']) expect(body).not.toContain(secret);
  });
});

describe('the order of an attempt', () => {
  it('keeps the version order without shuffling, and every id when shuffling', () => {
    expect(order.map((item) => item.questionId)).toEqual(questions.map((question) => question.id));
    expect(order[0]!.optionIds).toEqual(ids(single, 0, 1, 2));
    const mixed = makeQuestionOrder(questions, { shuffleQuestions: true, shuffleOptions: true });
    expect(mixed.map((item) => item.questionId).sort()).toEqual(questions.map((question) => question.id).sort());
    for (const item of mixed) {
      const question = questions.find((q) => q.id === item.questionId)!;
      expect([...item.optionIds].sort()).toEqual(ids(question, 0, 1, 2).sort());
    }
  });

  it('shuffles into every order over many tries', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 300; i++) seen.add(shuffled([1, 2, 3]).join(''));
    expect(seen.size).toBe(6);
  });
});

describe('a submission', () => {
  it('is refused (400) for a question not in the attempt, a repeat, a foreign option, two options to single, or the wrong kind', () => {
    expect(refusal([{ questionId: randomUUID(), optionIds: [] }])).toEqual({ status: 400, message: answers.answerNotInAttempt });
    expect(
      refusal([
        { questionId: text.id, text: 'a' },
        { questionId: text.id, text: 'b' },
      ]),
    ).toMatchObject({ message: answers.answerRepeated });
    expect(refusal([{ questionId: single.id, optionIds: ids(multiple, 0) }])).toMatchObject({ message: answers.answerOptionNotInQuestion });
    expect(refusal([{ questionId: single.id, optionIds: ids(single, 0, 1) }])).toMatchObject({ message: answers.answerOneOption });
    expect(refusal([{ questionId: text.id, optionIds: ids(single, 0) }])).toMatchObject({ message: answers.answerWrongKind });
    expect(refusal([{ questionId: single.id, text: 'Four' }])).toMatchObject({ message: answers.answerWrongKind });
  });

  it('is taken when it fits: some questions left out, several options for multiple choice', () => {
    expect(refusal([])).toBeNull();
    expect(
      refusal([
        { questionId: multiple.id, optionIds: ids(multiple, 0, 1) },
        { questionId: text.id, text: ' 3.50 ' },
      ]),
    ).toBeNull();
  });

  it('refuses a question of the version that the attempt does not hold', () => {
    const partial = [{ questionId: single.id, optionIds: ids(single, 0, 1, 2) }];
    expect(() => validateSubmission(questions, partial, [{ questionId: text.id, text: '3.5' }])).toThrow(answers.answerNotInAttempt);
  });
});

describe('grading', () => {
  it('single choice: right only with the right option', () => {
    expect(isRight(single, { questionId: single.id, optionIds: ids(single, 0) })).toBe(true);
    expect(isRight(single, { questionId: single.id, optionIds: ids(single, 1) })).toBe(false);
    expect(isRight(single, { questionId: single.id, optionIds: [] })).toBe(false);
  });

  it('multiple choice: right only when the chosen set is the right set exactly', () => {
    expect(isRight(multiple, { questionId: multiple.id, optionIds: ids(multiple, 1, 0) })).toBe(true);
    expect(isRight(multiple, { questionId: multiple.id, optionIds: ids(multiple, 0) })).toBe(false);
    expect(isRight(multiple, { questionId: multiple.id, optionIds: ids(multiple, 0, 1, 2) })).toBe(false);
    expect(isRight(multiple, { questionId: multiple.id, optionIds: ids(multiple, 0, 2) })).toBe(false);
  });

  it('short answer: case, spaces and number forms ignored; empty is wrong', () => {
    for (const given of ['3.5', '3.50', ' Three And A  Half ', 'THREEANDAHALF']) expect(isRight(text, { questionId: text.id, text: given })).toBe(true);
    for (const given of ['', '  ', '35', 'three']) expect(isRight(text, { questionId: text.id, text: given })).toBe(false);
  });

  it('counts unanswered questions as wrong, scores the percent rounded down, and passes at the mark', () => {
    const two = [
      { questionId: single.id, optionIds: ids(single, 0) },
      { questionId: text.id, text: '3.5' },
    ];
    expect(grade(questions, order, two, 66)).toEqual({
      correct: { [single.id]: true, [multiple.id]: false, [text.id]: true },
      correctCount: 2,
      score: 66,
      passed: true,
    });
    expect(grade(questions, order, two, 67)).toMatchObject({ score: 66, passed: false });
    expect(grade(questions, order, [], 0)).toMatchObject({ correctCount: 0, score: 0, passed: true });
  });

  it('tells right or wrong, the answer given and the explanation after, never which option was right', () => {
    const submitted = [{ questionId: single.id, optionIds: ids(single, 1) }];
    const graded = grade(questions, order, submitted, 50);
    const result = resultQuestions(questions, order, submitted, graded.correct);
    expect(result[0]).toEqual({
      ...learnerQuestions(questions, order)[0],
      correct: false,
      chosenOptionIds: ids(single, 1),
      text: null,
      explanation: 'Count them.',
    });
    expect(result[2]).toMatchObject({ correct: false, chosenOptionIds: [], text: null, explanation: 'Seven over two.' });
    expect(JSON.stringify(result)).not.toContain('3.5');
    expect(JSON.stringify(result)).not.toContain('three and a half');
  });
});
