import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { CurriculumLecture, Section } from '@lms/contract/lectures';
import { messages } from '@lms/contract/messages';
import { Curriculum } from './Curriculum';

const section = (n: number, title: string): Section => ({ _id: `30000000-0000-4000-8000-00000000000${n}`, title });
const lecture = (n: number, sectionId: string | null, extra: Partial<CurriculumLecture> = {}): CurriculumLecture => ({
  _id: `20000000-0000-4000-8000-00000000000${n}`,
  sectionId,
  title: `Lesson ${n}`,
  description: `Part ${n}`,
  duration: 90,
  preview: false,
  ...extra,
});

function show(sections: Section[], lectures: CurriculumLecture[]) {
  const onPlay = vi.fn();
  render(
    <Curriculum sections={sections} lectures={lectures} lectureCount={lectures.length} totalDuration={90 * lectures.length} canWatch={false} onPlay={onPlay} />,
  );
  return onPlay;
}

describe('the public curriculum', () => {
  it('of a course without sections is one list, as it always was', () => {
    show([], [lecture(1, null), lecture(2, null)]);
    expect(screen.getAllByRole('list')).toHaveLength(1);
    expect(screen.queryByRole('heading', { level: 3 })).not.toBeInTheDocument();
  });

  it('of a course with sections lists the lectures of no section first, then each section with its size and length', async () => {
    const [basics, advanced, later] = [section(1, 'Basics'), section(2, 'Advanced'), section(3, 'Not yet filled')];
    const onPlay = show(
      [basics, advanced, later],
      [lecture(1, null), lecture(2, basics._id), lecture(3, basics._id, { preview: true, secure_url: '/media/private/3.mp4' }), lecture(4, advanced._id)],
    );
    const lists = screen.getAllByRole('list');
    expect(
      lists.map((list) =>
        within(list)
          .getAllByRole('listitem')
          .map((item) => /Lesson \d/.exec(item.textContent ?? '')?.[0]),
      ),
    ).toEqual([['Lesson 1'], ['Lesson 2', 'Lesson 3'], ['Lesson 4']]);
    const basicsPanel = screen.getByRole('heading', { name: 'Basics' }).closest('details')!;
    expect(within(basicsPanel).getByText(`${messages.lectureCount(2)} · 3m`)).toBeInTheDocument();
    // A section without lectures is not shown to buyers.
    expect(screen.queryByText('Not yet filled')).not.toBeInTheDocument();
    // A free preview inside a section still plays.
    await userEvent.click(within(basicsPanel).getByRole('button', { name: `${messages.playPreview}: Lesson 3` }));
    expect(onPlay).toHaveBeenCalledWith(expect.objectContaining({ title: 'Lesson 3' }));
  });

  it('opens only the first section when there are many', () => {
    const sections = Array.from({ length: 7 }, (_, i) => section(i + 1, `Part ${i + 1}`));
    show(
      sections,
      sections.map((item, i) => lecture(i + 1, item._id)),
    );
    const open = screen.getAllByRole('group').filter((panel) => (panel as HTMLDetailsElement).open);
    expect(open).toHaveLength(1);
    expect(within(open[0]!).getByRole('heading')).toHaveTextContent('Part 1');
  });
});
