import { FEEDS, PAGES, SEARCH_QUERY_MAX } from '@termpaste/contracts';
import { Button, Card, Input, ListFooter, Spinner, errorMessage } from '@termpaste/ui';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Search } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { searchQuery } from '../api/pastes';
import { FeedLink } from '../components/feed-link';
import { PasteCardList } from '../components/paste-card';
import { SearchFilters, SearchHelp } from '../components/search-controls';

function Results({ q }: { q: string }) {
  const results = useInfiniteQuery(searchQuery(q));
  if (results.isError) {
    // The server's words when it refused the query (4xx: too long, searching too fast), else a generic line.
    const failed = 'Search failed. Try again in a moment.';
    const refused = /^4\d\d: /.test(results.error.message);
    return (
      <p className="forum-error" role="alert">
        {refused ? errorMessage(results.error, failed) : failed}
      </p>
    );
  }
  if (!results.data) return <Spinner label="Searching..." />;
  const threads = results.data.pages.flatMap((page) => page.threads);
  const total = results.data.pages[0]?.total ?? 0;
  // More matches than search ranks: only the newest `total` are shown, and the count says so.
  const capped = results.data.pages[0]?.totalCapped ?? false;
  const count = capped ? `${total}+` : String(total);
  return (
    <>
      <h2 className="forum-section-title">
        {count} {total === 1 && !capped ? 'result' : 'results'}
      </h2>
      {threads.length === 0 ? (
        <div className="forum-empty">
          <p>No threads found matching &quot;{q}&quot;</p>
          <p className="forum-muted">
            Try different keywords, a phrase in quotes, -word to leave a word out, or fewer filters.
          </p>
        </div>
      ) : (
        <PasteCardList threads={threads} label="Search results" />
      )}
      {results.hasNextPage && (
        <ListFooter className="forum-footer" list={results}>
          Showing {threads.length} of {count}
        </ListFooter>
      )}
      {capped && !results.hasNextPage && threads.length > 0 && (
        <p className="forum-footer forum-muted">
          Showing the newest {total} matches by relevance. Add words to narrow the search.
        </p>
      )}
    </>
  );
}

/**
 * /search?q=: full-text search over pastes, ranked by relevance then recency, with operators (the `?`
 * lists them) and filter controls that edit the query text.
 */
export function SearchScreen() {
  const [params] = useSearchParams();
  const q = (params.get('q') ?? '').trim();
  const navigate = useNavigate();
  const [text, setText] = useState(q);
  const [shownFor, setShownFor] = useState(q);
  // Keep the box in step when the top-bar search changes the URL while this screen stays mounted.
  if (shownFor !== q) {
    setShownFor(q);
    setText(q);
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const query = text.trim();
    if (query) navigate(PAGES.search(query));
  };

  return (
    <Card titleLevel={1} title="SEARCH" className="forum-narrow">
      {q && <FeedLink href={FEEDS.search(q)} title={`search: ${q}`} />}
      <form role="search" aria-label="Search pastes" onSubmit={submit} className="forum-search-form">
        <Input
          type="search"
          aria-label="Search pastes"
          placeholder="Search pastes..."
          maxLength={SEARCH_QUERY_MAX}
          value={text}
          onChange={(event) => setText(event.target.value)}
        />
        <Button type="submit" variant="primary" disabled={!text.trim()}>
          <Search size={14} aria-hidden="true" />
          SEARCH
        </Button>
        <SearchHelp />
      </form>
      <SearchFilters text={text} onChange={setText} />
      {q ? (
        <>
          <p className="forum-searching">
            Searching for: <strong>&quot;{q}&quot;</strong>
          </p>
          <Results q={q} />
        </>
      ) : (
        <p className="forum-muted">Enter a search query to find threads</p>
      )}
    </Card>
  );
}
