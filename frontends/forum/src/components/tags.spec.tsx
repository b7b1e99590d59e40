import { API, TAG_MESSAGES, type TagList } from '@termpaste/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { useId, useState } from 'react';
import { renderScreen, stubFetch } from '../testing';
import { judgeTag, TagInput, TagLinks } from './tags';

/** The input in a form of its own, its value shown for the test to read. */
function Harness({ initial = [] }: { initial?: string[] }) {
  const [tags, setTags] = useState<string[]>(initial);
  const labelId = useId();
  return (
    <>
      <span id={labelId}>Tags</span>
      <TagInput value={tags} onChange={setTags} labelId={labelId} />
      <output aria-label="value">{tags.join('|')}</output>
    </>
  );
}

const suggestions: TagList = {
  tags: [
    { name: 'python', pasteCount: 12 },
    { name: 'pytest', pasteCount: 3 },
  ],
};

const value = () => screen.getByRole('status', { name: 'value' }).textContent;

describe('tags', () => {
  it('link each tag to its page', () => {
    renderScreen(<TagLinks tags={['bash', 'ci']} />);
    const list = screen.getByRole('list', { name: 'Tags' });
    expect(within(list).getByRole('link', { name: '#bash' })).toHaveAttribute('href', '/tag/bash');
    expect(within(list).getByRole('link', { name: '#ci' })).toHaveAttribute('href', '/tag/ci');
  });

  it('show nothing for a paste without tags', () => {
    renderScreen(<TagLinks tags={[]} />);
    expect(screen.queryByRole('list', { name: 'Tags' })).not.toBeInTheDocument();
  });

  it('judge a typed name as the server does', () => {
    expect(judgeTag(' Python ', [])).toEqual({ name: 'python' });
    expect(judgeTag('python', ['python'])).toEqual({});
    expect(judgeTag('c++', [])).toEqual({ error: TAG_MESSAGES.badName('c++') });
    expect(judgeTag('sixth', ['aa', 'bb', 'cc', 'dd', 'ee'])).toEqual({ error: TAG_MESSAGES.tooMany });
  });
});

describe('the tag input', () => {
  it('adds a tag on Enter or comma, lower-cased, and takes one off with its button or Backspace', async () => {
    stubFetch(() => ({ body: { tags: [] } }));
    const { user } = renderScreen(<Harness />);
    const input = screen.getByRole('combobox', { name: 'Tags' });
    await user.type(input, 'Docker{Enter}ci,');
    expect(value()).toBe('docker|ci');
    await user.click(screen.getByRole('button', { name: 'Remove tag docker' }));
    expect(value()).toBe('ci');
    await user.type(input, '{Backspace}');
    expect(value()).toBe('');
  });

  it('says why a name is refused, and keeps what was typed', async () => {
    stubFetch(() => ({ body: { tags: [] } }));
    const { user } = renderScreen(<Harness />);
    const input = screen.getByRole('combobox', { name: 'Tags' });
    await user.type(input, 'c++{Enter}');
    expect(screen.getByRole('alert')).toHaveTextContent(TAG_MESSAGES.badName('c++'));
    expect(input).toHaveValue('c++');
    expect(value()).toBe('');
  });

  it('takes five at most: the field is disabled then', () => {
    stubFetch(() => ({ body: { tags: [] } }));
    renderScreen(<Harness initial={['aa', 'bb', 'cc', 'dd', 'ee']} />);
    expect(screen.getByRole('combobox', { name: 'Tags' })).toBeDisabled();
  });

  it('suggests the most used tags starting with what is typed; arrows and Enter pick one', async () => {
    const calls = stubFetch(() => ({ body: suggestions }));
    const { user } = renderScreen(<Harness />);
    const input = screen.getByRole('combobox', { name: 'Tags' });
    await user.type(input, 'Py');
    const list = await screen.findByRole('listbox', { name: 'Tags' });
    expect(
      within(list)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['#python12', '#pytest3']);
    expect(calls.map((call) => call.url)).toContain(`${API.tags}?q=py`);
    await user.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    expect(value()).toBe('pytest');
    await waitFor(() => expect(input).toHaveValue(''));
  });

  it('picks a suggestion with the mouse, and offers no tag the paste has already', async () => {
    stubFetch(() => ({ body: suggestions }));
    const { user } = renderScreen(<Harness initial={['python']} />);
    await user.type(screen.getByRole('combobox', { name: 'Tags' }), 'py');
    const list = await screen.findByRole('listbox', { name: 'Tags' });
    expect(within(list).getAllByRole('option')).toHaveLength(1);
    await user.click(within(list).getByRole('option', { name: /pytest/ }));
    expect(value()).toBe('python|pytest');
  });
});
