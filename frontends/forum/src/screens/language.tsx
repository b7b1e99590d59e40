import { Card, ListFooter } from '@termpaste/ui';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useParams } from 'react-router-dom';
import { languagePageQuery } from '../api/tags';
import { languageTitle } from '../components/code-view';
import { PasteTable } from '../components/paste-table';

/** /lang/{name}: the listed pastes in a language, newest first, 50 at a time (as home). */
export function LanguageScreen() {
  const name = useParams().name ?? '';
  const list = useInfiniteQuery(languagePageQuery(name));
  const pages = list.data?.pages;
  const language = pages?.[0]?.language ?? name;
  const threads = pages?.flatMap((page) => page.threads) ?? null;
  const title = languageTitle(language);
  return (
    <Card titleLevel={1} title={`LANGUAGE: ${title}`} className="forum-wide">
      {list.isError && !list.data ? (
        <p className="forum-error">
          {list.error.message.startsWith('400: ')
            ? `No language is called "${name}".`
            : 'Could not load the pastes. Try again in a moment.'}
        </p>
      ) : threads && threads.length === 0 ? (
        <p className="forum-muted">No pastes in {title} yet.</p>
      ) : (
        <>
          <PasteTable threads={threads} label={`Pastes in ${title}`} />
          {threads && (
            <ListFooter className="forum-footer" list={list}>
              Showing {threads.length} {threads.length === 1 ? 'paste' : 'pastes'}
            </ListFooter>
          )}
        </>
      )}
    </Card>
  );
}
