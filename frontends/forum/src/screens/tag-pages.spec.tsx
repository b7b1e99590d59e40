import { API, FEEDS, TAG_MESSAGES, WATCHING_TEXTS } from '@termpaste/contracts';
import { screen, within } from '@testing-library/react';
import { errorBody, renderScreen, sampleCard, stubApi, stubFetch } from '../testing';
import { LanguageScreen } from './language';
import { TagScreen } from './tag';
import { TagsScreen } from './tags';

const tagged = (id: number, title: string) => sampleCard({ id, title, tags: ['bash', 'ci'] });

describe('/tag/{name}', () => {
  it("lists the tag's pastes as home does, tags linked, with its count and LOAD MORE", async () => {
    const calls = stubApi((url) =>
      url === API.tag('bash')
        ? {
            tag: { name: 'bash', pasteCount: 51 },
            threads: [tagged(2, 'deploy'), tagged(1, 'build')],
            nextCursor: 'next',
          }
        : url === API.tagWatch('bash')
          ? { watching: false }
          : undefined,
    );
    renderScreen(<TagScreen />, { path: '/tag/bash', route: '/tag/:name' });
    expect(await screen.findByRole('link', { name: 'deploy' })).toHaveAttribute('href', '/thread/2');
    const table = screen.getByRole('table', { name: 'Pastes tagged bash' });
    expect(within(table).getAllByRole('link', { name: '#ci' })[0]).toHaveAttribute('href', '/tag/ci');
    expect(screen.getByRole('heading', { level: 1, name: '#bash' })).toBeInTheDocument();
    expect(screen.getByText('51 pastes')).toBeInTheDocument();
    expect(screen.getByText('Showing 2 of 51')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'LOAD MORE' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'ALL TAGS' })).toHaveAttribute('href', '/tags');
    expect(await screen.findByRole('button', { name: WATCHING_TEXTS.watchTag })).toHaveAttribute(
      'aria-pressed',
      'false',
    );
    expect(calls.map((call) => call.url)).toEqual([API.tag('bash'), API.tagWatch('bash')]);
    expect(document.head.querySelector(`link[rel="alternate"][href="${FEEDS.tag('bash')}"]`)).not.toBeNull();
  });

  it('says a tag is not found (404)', async () => {
    stubFetch(() => ({ status: 404, body: errorBody(404, TAG_MESSAGES.tagNotFound) }));
    renderScreen(<TagScreen />, { path: '/tag/nothing', route: '/tag/:name' });
    expect(await screen.findByText(`${TAG_MESSAGES.tagNotFound} [404]`)).toBeInTheDocument();
  });
});

describe('/tags', () => {
  it('lists every tag by use, each linked, with its count', async () => {
    stubApi((url) =>
      url === API.tags
        ? {
            tags: [
              { name: 'python', pasteCount: 9 },
              { name: 'bash', pasteCount: 2 },
            ],
          }
        : undefined,
    );
    renderScreen(<TagsScreen />, { path: '/tags' });
    const list = await screen.findByRole('list', { name: 'Tags by use' });
    const links = within(list).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['#python', '/tag/python'],
      ['#bash', '/tag/bash'],
    ]);
    expect(within(list).getByText('× 9')).toBeInTheDocument();
  });

  it('says when there are none', async () => {
    stubApi((url) => (url === API.tags ? { tags: [] } : undefined));
    renderScreen(<TagsScreen />, { path: '/tags' });
    expect(await screen.findByText('No tags yet: add some to a paste.')).toBeInTheDocument();
  });
});

describe('/lang/{name}', () => {
  it("lists a language's pastes under its title", async () => {
    stubApi((url) =>
      url === API.language('py')
        ? { language: 'python', threads: [tagged(3, 'snake')], nextCursor: null }
        : undefined,
    );
    renderScreen(<LanguageScreen />, { path: '/lang/py', route: '/lang/:name' });
    expect(await screen.findByRole('link', { name: 'snake' })).toHaveAttribute('href', '/thread/3');
    expect(screen.getByRole('table', { name: 'Pastes in Python' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'LANGUAGE: Python' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'LOAD MORE' })).not.toBeInTheDocument();
  });

  it('says no language is called so (400)', async () => {
    stubFetch(() => ({ status: 400, body: errorBody(400, 'Unknown language') }));
    renderScreen(<LanguageScreen />, { path: '/lang/klingon', route: '/lang/:name' });
    expect(await screen.findByText('No language is called "klingon".')).toBeInTheDocument();
  });
});
