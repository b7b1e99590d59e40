import type { CurrentUser, PrunedRange, PublicAuthor, Revision, RevisionSummary } from '@termpaste/contracts';
import { sampleCurrentUser } from '@termpaste/contracts/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { minutesAgo, renderScreen, sampleAuthor, samplePaste, stubFetch } from '../testing';
import { RevisionsScreen } from './revisions';

const trinity = sampleAuthor();
const root: PublicAuthor = sampleAuthor({ id: 1, username: 'root' });

/** Paste 5's three versions: the original, trinity's edit, an admin's. */
const VERSIONS: Revision[] = [
  {
    n: 1,
    title: 'nmap',
    content: 'scan\nhost <b>a</b>\nend\n',
    language: null,
    editor: trinity,
    linesAdded: 3,
    linesRemoved: 0,
    createdAt: minutesAgo(60),
    removed: false,
  },
  {
    n: 2,
    title: 'nmap notes',
    content: 'scan\nhost <b>b</b>\nend\n',
    language: null,
    editor: trinity,
    linesAdded: 1,
    linesRemoved: 1,
    createdAt: minutesAgo(30),
    removed: false,
  },
  {
    n: 3,
    title: 'nmap notes',
    content: 'scan\nhost <b>b</b>\nend\nmore\n',
    language: null,
    editor: root,
    linesAdded: 1,
    linesRemoved: 0,
    createdAt: minutesAgo(5),
    removed: false,
  },
];
const summary = ({ content: _content, language: _language, ...rest }: Revision): RevisionSummary => rest;

function server(
  versions = VERSIONS,
  base = '/api/threads/5',
  { pruned = [] }: { pruned?: PrunedRange[] } = {},
) {
  return stubFetch((call) => {
    if (call.url === '/api/threads/5') return { body: samplePaste({ id: 5, author: trinity }) };
    if (call.method === 'DELETE') return { status: 204 };
    if (call.url === `${base}/revisions`)
      return { body: { revisions: [...versions].reverse().map(summary), pruned } };
    const match = call.url.match(/\/revisions\/(\d+)$/);
    const version = match && versions.find((v) => v.n === Number(match[1]));
    if (version) return { body: version };
    return { status: 404, body: { statusCode: 404, message: 'Thread not found' } };
  });
}

const render = (path = '/thread/5/revisions', user?: CurrentUser | null) =>
  renderScreen(<RevisionsScreen />, {
    path,
    route: '/thread/:id/revisions',
    ...(user === undefined ? {} : { user }),
  });

const linesOf = (region: HTMLElement) =>
  Array.from(region.querySelectorAll<HTMLElement>('.cv-line')).map((line) => [
    line.className.match(/rev-line--(\w+)/)?.[1],
    line.querySelector('.cv-code')?.textContent,
  ]);

describe('/thread/{id}/revisions', () => {
  it('lists the versions newest first: when, who, lines added and removed, title', async () => {
    server();
    render();
    const table = await screen.findByRole('table', { name: 'Versions' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringMatching(/^v3.*5 minutes ago.*root.*\+1 −0.*nmap notes$/),
      expect.stringMatching(/^v2.*30 minutes ago.*trinity.*\+1 −1.*nmap notes$/),
      expect.stringMatching(/^v1 \(original\).*about 1 hour ago.*trinity.*\+3 −0.*nmap$/),
    ]);
    expect(screen.getByRole('link', { name: /BACK TO THE PASTE/ })).toHaveAttribute('href', '/thread/5');
  });

  it('shows the latest against the one before, unified, added lines marked, HTML as text', async () => {
    server();
    render();
    const diff = await screen.findByRole('region', { name: 'Changes from version 2 to version 3' });
    const unified = await within(diff).findByRole('region', { name: 'Unified diff' });
    expect(linesOf(unified)).toEqual([
      ['same', 'scan'],
      ['same', 'host <b>b</b>'],
      ['same', 'end'],
      ['added', 'more'],
    ]);
    expect(unified.querySelector('b')).toBeNull();
    expect(within(diff).getByLabelText('1 lines added')).toHaveTextContent('+1');
    expect(within(diff).getByLabelText('0 lines removed')).toHaveTextContent('−0');
  });

  it('compares any two versions, side by side on request', async () => {
    const calls = server();
    const { user } = render();
    await screen.findByRole('table', { name: 'Versions' });
    await user.click(screen.getByRole('radio', { name: 'Compare from version 1' }));
    const diff = await screen.findByRole('region', { name: 'Changes from version 1 to version 3' });
    expect(calls.some((call) => call.url === '/api/threads/5/revisions/1')).toBe(true);
    expect(diff).toHaveTextContent('Title: nmap → nmap notes');
    await waitFor(() =>
      expect(linesOf(within(diff).getByRole('region', { name: 'Unified diff' }))).toEqual([
        ['same', 'scan'],
        ['removed', 'host <b>a</b>'],
        ['added', 'host <b>b</b>'],
        ['same', 'end'],
        ['added', 'more'],
      ]),
    );
    await user.click(within(diff).getByRole('button', { name: 'SIDE BY SIDE' }));
    expect(within(diff).getByRole('button', { name: 'SIDE BY SIDE' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    expect(linesOf(within(diff).getByRole('region', { name: 'Version 1' }))).toEqual([
      ['same', 'scan'],
      ['removed', 'host <b>a</b>'],
      ['same', 'end'],
      ['pad', ''],
    ]);
    expect(linesOf(within(diff).getByRole('region', { name: 'Version 3' }))).toEqual([
      ['same', 'scan'],
      ['added', 'host <b>b</b>'],
      ['same', 'end'],
      ['added', 'more'],
    ]);
    // A version is compared only with a later one.
    expect(screen.getByRole('radio', { name: 'Compare to version 1' })).toBeDisabled();
  });

  it('says a paste never edited has one version', async () => {
    server([VERSIONS[0]!]);
    render();
    expect(await screen.findByText(/This paste has not been edited/)).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it("shows a reply's versions with ?reply=", async () => {
    const replyVersions = VERSIONS.slice(0, 2).map((v) => ({ ...v, title: null }));
    server(replyVersions, '/api/replies/12');
    render('/thread/5/revisions?reply=12');
    expect(
      await screen.findByRole('region', { name: 'Changes from version 1 to version 2' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /BACK TO THE REPLY/ })).toHaveAttribute(
      'href',
      '/thread/5#reply-12',
    );
  });

  it('is not found for a paste that does not exist', async () => {
    server([]);
    render('/thread/999/revisions');
    expect(await screen.findByText('Thread not found [404]')).toBeInTheDocument();
  });

  describe('pruned and removed versions', () => {
    /** v1, v15 (removed), v16, v17: v2–v14 pruned. */
    const LONG: Revision[] = [
      VERSIONS[0]!,
      { ...VERSIONS[1]!, n: 15, title: null, content: '', removed: true },
      { ...VERSIONS[1]!, n: 16 },
      { ...VERSIONS[2]!, n: 17 },
    ];

    it('says where versions were pruned and which was removed, and compares around them', async () => {
      server(LONG, '/api/threads/5', { pruned: [{ from: 2, to: 14 }] });
      const { user } = render();
      const table = await screen.findByRole('table', { name: 'Versions' });
      const rows = within(table).getAllByRole('row').slice(1);
      expect(rows.map((row) => row.textContent)).toEqual([
        expect.stringMatching(/^v17/),
        expect.stringMatching(/^v16/),
        expect.stringMatching(/^v15 removed.*—$/),
        'versions 2–14 pruned',
        expect.stringMatching(/^v1 \(original\)/),
      ]);
      expect(screen.getByRole('radio', { name: 'Compare from version 15' })).toBeDisabled();
      expect(screen.getByRole('radio', { name: 'Compare to version 15' })).toBeDisabled();
      await screen.findByRole('region', { name: 'Changes from version 16 to version 17' });
      await user.click(screen.getByRole('radio', { name: 'Compare from version 1' }));
      await screen.findByRole('region', { name: 'Changes from version 1 to version 17' });
      expect(
        screen.getByText('Not shown between these two: versions 2–14 pruned; v15 removed.'),
      ).toBeVisible();
    });

    it('offers its author REMOVE on every version but the newest, and removes one when confirmed', async () => {
      const calls = server(VERSIONS);
      const { user } = render(undefined, sampleCurrentUser({ id: trinity.id, username: trinity.username }));
      await screen.findByRole('button', { name: 'Remove version 2' });
      expect(screen.getByRole('button', { name: 'Remove version 1' })).toBeVisible();
      expect(screen.queryByRole('button', { name: 'Remove version 3' })).toBeNull();
      await user.click(screen.getByRole('button', { name: 'Remove version 2' }));
      const dialog = await screen.findByRole('alertdialog', { name: 'Remove version 2?' });
      await user.click(within(dialog).getByRole('button', { name: 'REMOVE' }));
      await waitFor(() =>
        expect(calls.some((c) => c.method === 'DELETE' && c.url === '/api/threads/5/revisions/2')).toBe(true),
      );
    });

    it('offers REMOVE to no other member, nor to a visitor', async () => {
      server(VERSIONS);
      render(undefined, sampleCurrentUser({ id: 77, username: 'neo' }));
      await screen.findByRole('table', { name: 'Versions' });
      await waitFor(() => expect(screen.queryAllByRole('button', { name: /^Remove version/ })).toEqual([]));
    });
  });
});
