import { API, TAG_ADMIN_MESSAGES, TAG_MESSAGES, type TagSummary } from '@termpaste/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { AdminScreen } from '../screens/admin';
import { adminViewer, expectToast, renderScreen, stubFetch, type FetchCall } from '../testing';

/** /admin/tags with the tags answered from `state`; writes answered by `onWrite` (its status). */
function renderTags(state: { tags: TagSummary[] }, onWrite: (call: FetchCall) => number = () => 200) {
  const writes: FetchCall[] = [];
  const calls = stubFetch((call) => {
    if (call.method === 'GET' && call.url.startsWith(API.adminTags)) return { body: { tags: state.tags } };
    if (call.method === 'GET') return { body: { entries: [], nextCursor: null } };
    writes.push(call);
    const status = onWrite(call);
    return status === 200
      ? { body: { message: 'done' } }
      : { status, body: { statusCode: status, message: 'Refused' } };
  });
  const { user } = renderScreen(<AdminScreen />, {
    path: '/admin/tags',
    route: '/admin/tags',
    user: adminViewer(),
  });
  return { calls, writes, user };
}

const TAGS: TagSummary[] = [
  { name: 'python', pasteCount: 4 },
  { name: 'old-tag', pasteCount: 0 },
];

const row = (name: string) => screen.getByTestId(`tag-${name}`);

describe('TAGS tab', () => {
  it('is the tab at /admin/tags, listing every tag with its count (an unused one unlinked)', async () => {
    renderTags({ tags: TAGS });
    expect(screen.getByRole('tab', { name: 'TAGS' })).toHaveAttribute('aria-selected', 'true');
    await waitFor(() => expect(row('python')).toBeInTheDocument());
    expect(within(row('python')).getByRole('link', { name: '#python' })).toHaveAttribute(
      'href',
      '/tag/python',
    );
    expect(within(row('old-tag')).queryByRole('link')).not.toBeInTheDocument();
    expect(row('python')).toHaveTextContent(/4/);
  });

  it('renames after the confirmation, refusing a bad name first', async () => {
    const { writes, user } = renderTags({ tags: TAGS });
    await waitFor(() => expect(row('python')).toBeInTheDocument());
    await user.click(within(row('python')).getByRole('button', { name: 'RENAME' }));
    const field = within(row('python')).getByRole('textbox', { name: 'New name for python' });
    await user.clear(field);
    await user.type(field, 'c++{Enter}');
    expect(within(row('python')).getByRole('alert')).toHaveTextContent(TAG_MESSAGES.badName('c++'));
    await user.clear(field);
    await user.type(field, 'Py{Enter}');
    const dialog = await screen.findByRole('alertdialog', { name: 'RENAME TAG' });
    expect(dialog).toHaveTextContent(
      'Rename #python to #py on every paste that carries it (4 listed pastes)?',
    );
    await user.click(within(dialog).getByRole('button', { name: 'RENAME' }));
    await expectToast(TAG_ADMIN_MESSAGES.renamed);
    expect(writes.map((call) => [call.method, call.url, call.body])).toEqual([
      ['PATCH', API.adminTag('python'), { name: 'py' }],
    ]);
  });

  it('merges into another tag after the confirmation; CANCEL sends nothing', async () => {
    const { writes, user } = renderTags({ tags: TAGS });
    await waitFor(() => expect(row('old-tag')).toBeInTheDocument());
    await user.click(within(row('old-tag')).getByRole('button', { name: 'MERGE' }));
    await user.type(
      within(row('old-tag')).getByRole('textbox', { name: 'Tag to merge old-tag into' }),
      'python{Enter}',
    );
    let dialog = await screen.findByRole('alertdialog', { name: 'MERGE TAG' });
    await user.click(within(dialog).getByRole('button', { name: 'CANCEL' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(writes).toHaveLength(0);
    await user.click(within(row('old-tag')).getByRole('button', { name: 'MERGE' }));
    dialog = await screen.findByRole('alertdialog', { name: 'MERGE TAG' });
    await user.click(within(dialog).getByRole('button', { name: 'MERGE' }));
    await expectToast(TAG_ADMIN_MESSAGES.merged);
    expect(writes.map((call) => [call.method, call.url, call.body])).toEqual([
      ['POST', API.adminTagMerge('old-tag'), { into: 'python' }],
    ]);
  });

  it('waits for a name: MERGE is disabled while the field is empty, and Enter asks nothing', async () => {
    const { writes, user } = renderTags({ tags: TAGS });
    await waitFor(() => expect(row('old-tag')).toBeInTheDocument());
    await user.click(within(row('old-tag')).getByRole('button', { name: 'MERGE' }));
    const field = within(row('old-tag')).getByRole('textbox', { name: 'Tag to merge old-tag into' });
    expect(within(row('old-tag')).getByRole('button', { name: 'MERGE' })).toBeDisabled();
    await user.type(field, '  {Enter}');
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(within(row('old-tag')).queryByRole('alert')).not.toBeInTheDocument();
    await user.type(field, 'py');
    expect(within(row('old-tag')).getByRole('button', { name: 'MERGE' })).toBeEnabled();
    expect(writes).toHaveLength(0);
  });

  it("deletes after the confirmation, and shows the server's refusal", async () => {
    const { writes, user } = renderTags({ tags: TAGS }, () => 404);
    await waitFor(() => expect(row('python')).toBeInTheDocument());
    await user.click(within(row('python')).getByRole('button', { name: 'DELETE' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'DELETE TAG' });
    expect(dialog).toHaveTextContent('take it off every paste that carries it (4 listed pastes)');
    await user.click(within(dialog).getByRole('button', { name: 'DELETE' }));
    await expectToast('Could not delete the tag', 'Refused');
    expect(writes.map((call) => [call.method, call.url])).toEqual([['DELETE', API.adminTag('python')]]);
  });
});
