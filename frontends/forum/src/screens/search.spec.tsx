import {
  POST_MESSAGES,
  SEARCH_CANDIDATES_MAX,
  SEARCH_QUERY_MAX,
  type SearchResults,
  type PasteCard,
} from '@termpaste/contracts';
import { createQueryClient } from '@termpaste/ui';
import { screen, waitFor, within } from '@testing-library/react';
import { searchQuery } from '../api/pastes';
import { errorBody, Location, renderScreen, sampleCard, stubFetch } from '../testing';
import { SearchScreen } from './search';

const card = (id: number, title: string) => sampleCard({ id, title });

const page = (threads: PasteCard[], overrides: Partial<SearchResults> = {}): SearchResults => ({
  threads,
  page: 1,
  hasMore: false,
  total: threads.length,
  totalCapped: false,
  ...overrides,
});

function renderSearch(path: string, seed: Record<string, SearchResults> = {}) {
  const client = createQueryClient();
  for (const [q, results] of Object.entries(seed)) {
    client.setQueryData(searchQuery(q).queryKey, { pages: [results], pageParams: [1] });
  }
  const screenAndLocation = (
    <>
      <SearchScreen />
      <Location />
    </>
  );
  return renderScreen(screenAndLocation, { path, client }).user;
}

const location = () => screen.getByRole('status', { name: 'location' });

describe('search (/search)', () => {
  it('asks for a query when there is none, and searches nothing', () => {
    const calls = stubFetch(() => ({ body: page([]) }));
    renderSearch('/search');
    expect(screen.getByText('Enter a search query to find threads')).toBeInTheDocument();
    expect(screen.queryByText(/Searching for/)).not.toBeInTheDocument();
    expect(screen.getByRole('searchbox', { name: 'Search pastes' })).toHaveValue('');
    expect(screen.getByRole('button', { name: 'SEARCH' })).toBeDisabled();
    expect(calls).toHaveLength(0);
  });

  it('treats a blank q as no query', () => {
    renderSearch('/search?q=%20%20');
    expect(screen.getByText('Enter a search query to find threads')).toBeInTheDocument();
  });

  it('shows the query, the result count and the cards', () => {
    renderSearch('/search?q=nmap', {
      nmap: page([card(1, 'nmap basics'), card(2, 'nmap scripts')], { total: 2 }),
    });
    expect(screen.getByText(/Searching for/)).toHaveTextContent('Searching for: "nmap"');
    expect(screen.getByRole('heading', { name: '2 results' })).toBeInTheDocument();
    const list = screen.getByRole('list', { name: 'Search results' });
    expect(within(list).getAllByRole('article')).toHaveLength(2);
    expect(within(list).getByRole('link', { name: 'nmap scripts' })).toHaveAttribute('href', '/thread/2');
    expect(screen.getByRole('searchbox', { name: 'Search pastes' })).toHaveValue('nmap');
    expect(screen.queryByText('Enter a search query to find threads')).not.toBeInTheDocument();
  });

  it('says 1 result in the singular', () => {
    renderSearch('/search?q=rare', { rare: page([card(1, 'rare')]) });
    expect(screen.getByRole('heading', { name: '1 result' })).toBeInTheDocument();
  });

  it('reads an encoded query', () => {
    renderSearch('/search?q=port%20scan%20%26%20more', { 'port scan & more': page([]) });
    expect(screen.getByText(/Searching for/)).toHaveTextContent('Searching for: "port scan & more"');
  });

  it('says nothing matched, with a hint', () => {
    renderSearch('/search?q=zzz', { zzz: page([]) });
    expect(screen.getByRole('heading', { name: '0 results' })).toBeInTheDocument();
    expect(screen.getByText('No threads found matching "zzz"')).toBeInTheDocument();
    expect(screen.getByText(/Try different keywords/)).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Search results' })).not.toBeInTheDocument();
  });

  it('fetches the first page of the query from the API', async () => {
    const calls = stubFetch(() => ({ body: page([card(9, 'found it')]) }));
    renderSearch('/search?q=a%26b');
    expect(await screen.findByRole('link', { name: 'found it' })).toHaveAttribute('href', '/thread/9');
    expect(calls).toEqual([{ method: 'GET', url: '/api/search?q=a%26b&page=1' }]);
  });

  it('loads the next page with LOAD MORE', async () => {
    const calls = stubFetch(() => ({ body: page([card(3, 'third')], { page: 2, total: 3 }) }));
    const user = renderSearch('/search?q=x', {
      x: page([card(1, 'first'), card(2, 'second')], { hasMore: true, total: 3 }),
    });
    expect(screen.getByText('Showing 2 of 3')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'LOAD MORE' }));
    expect(await screen.findByRole('link', { name: 'third' })).toBeInTheDocument();
    expect(calls).toEqual([{ method: 'GET', url: '/api/search?q=x&page=2' }]);
    expect(screen.queryByRole('button', { name: 'LOAD MORE' })).not.toBeInTheDocument();
  });

  it('says N+ results when more match than search ranks, and LOAD MORE ends with them', async () => {
    const capped = { total: SEARCH_CANDIDATES_MAX, totalCapped: true };
    const calls = stubFetch(() => ({ body: page([card(3, 'last ranked')], { ...capped, page: 2 }) }));
    const user = renderSearch('/search?q=kernel', {
      kernel: page([card(1, 'one'), card(2, 'two')], { ...capped, hasMore: true }),
    });
    expect(screen.getByRole('heading', { name: `${SEARCH_CANDIDATES_MAX}+ results` })).toBeInTheDocument();
    expect(screen.getByText(`Showing 2 of ${SEARCH_CANDIDATES_MAX}+`)).toBeInTheDocument();
    expect(screen.queryByText(/Add words to narrow the search/)).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'LOAD MORE' }));
    expect(await screen.findByRole('link', { name: 'last ranked' })).toBeInTheDocument();
    expect(calls).toEqual([{ method: 'GET', url: '/api/search?q=kernel&page=2' }]);
    expect(screen.queryByRole('button', { name: 'LOAD MORE' })).not.toBeInTheDocument();
    expect(
      screen.getByText(
        `Showing the newest ${SEARCH_CANDIDATES_MAX} matches by relevance. Add words to narrow the search.`,
      ),
    ).toBeInTheDocument();
  });

  it('says 1 result exactly, without the plus, when not capped', () => {
    renderSearch('/search?q=one', { one: page([card(1, 'one')], { total: 1, totalCapped: false }) });
    expect(screen.getByRole('heading', { name: '1 result' })).toBeInTheDocument();
    expect(screen.queryByText(/Add words to narrow the search/)).not.toBeInTheDocument();
  });

  it.each([
    [400, POST_MESSAGES.searchQueryTooLong],
    [429, POST_MESSAGES.searchTooFast(42)],
  ])("shows the server's %i message", async (status, message) => {
    stubFetch(() => ({ status, body: errorBody(status, message) }));
    renderSearch(`/search?q=${'q'.repeat(SEARCH_QUERY_MAX + 1)}`);
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(screen.queryByText('Search failed. Try again in a moment.')).not.toBeInTheDocument();
  });

  it('says search failed on a server error, whatever its body', async () => {
    stubFetch(() => ({ status: 502, body: '<html>Bad gateway</html>' }));
    renderSearch('/search?q=x');
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Search failed\. Try again in a moment\.$/);
  });

  it(`takes at most ${SEARCH_QUERY_MAX} characters in the box`, async () => {
    const box = () => screen.getByRole('searchbox', { name: 'Search pastes' });
    const user = renderSearch('/search');
    expect(box()).toHaveAttribute('maxLength', String(SEARCH_QUERY_MAX));
    await user.click(box());
    await user.paste('w'.repeat(SEARCH_QUERY_MAX + 50));
    expect(box()).toHaveValue('w'.repeat(SEARCH_QUERY_MAX));
  });

  it('submits the trimmed text as an encoded q', async () => {
    stubFetch(() => ({ body: page([]) }));
    const user = renderSearch('/search');
    await user.type(screen.getByRole('searchbox', { name: 'Search pastes' }), '  sql & xss  ');
    await user.click(screen.getByRole('button', { name: 'SEARCH' }));
    expect(location()).toHaveTextContent('/search?q=sql%20%26%20xss');
    expect(await screen.findByText('No threads found matching "sql & xss"')).toBeInTheDocument();
  });

  it('submits with Enter too', async () => {
    stubFetch(() => ({ body: page([]) }));
    const user = renderSearch('/search');
    await user.type(screen.getByRole('searchbox', { name: 'Search pastes' }), 'nmap{Enter}');
    expect(location()).toHaveTextContent('/search?q=nmap');
  });

  it('does not submit whitespace only', async () => {
    const calls = stubFetch(() => ({ body: page([]) }));
    const user = renderSearch('/search');
    const box = screen.getByRole('searchbox', { name: 'Search pastes' });
    await user.type(box, '   ');
    expect(screen.getByRole('button', { name: 'SEARCH' })).toBeDisabled();
    await user.type(box, '{Enter}');
    expect(location()).toHaveTextContent(/^\/search$/);
    expect(calls).toHaveLength(0);
  });

  it('follows a new q in the URL while mounted', async () => {
    stubFetch(() => ({ body: page([]) }));
    const user = renderSearch('/search?q=old', { old: page([card(1, 'old one')]) });
    const box = screen.getByRole('searchbox', { name: 'Search pastes' });
    await user.clear(box);
    await user.type(box, 'new{Enter}');
    await waitFor(() => expect(screen.getByText(/Searching for/)).toHaveTextContent('"new"'));
    expect(box).toHaveValue('new');
  });
});
