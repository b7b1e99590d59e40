import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { UiProvider, createQueryClient } from '@termpaste/ui';
import { expectToast, stubClipboard } from '@termpaste/ui/testing';
import { samplePaste } from '../testing';
import { PasteEmbed } from './paste-embed';

const oembedLinks = () =>
  document.head.querySelectorAll('link[rel="alternate"][type="application/json+oembed"]');

function renderEmbed(overrides: Parameters<typeof samplePaste>[0] = {}) {
  const thread = samplePaste({ id: 12, title: 'My "best" <paste>', content: 'a\nb\nc\n', ...overrides });
  render(
    <UiProvider queryClient={createQueryClient()}>
      <PasteEmbed thread={thread} />
    </UiProvider>,
  );
  return thread;
}

describe('PasteEmbed', () => {
  it('EMBED copies the iframe snippet and says so; the oEmbed link is in the head', async () => {
    // After userEvent.setup(), which puts a clipboard of its own.
    const user = userEvent.setup();
    const writeText = stubClipboard(jest.fn(() => Promise.resolve()));
    renderEmbed({ visibility: 'public' });
    await user.click(screen.getByRole('button', { name: 'EMBED' }));
    expect(writeText).toHaveBeenCalledWith(
      `<iframe src="${window.location.origin}/embed/12" width="640" height="120" ` +
        'title="My &quot;best&quot; &lt;paste&gt;" style="max-width:100%;border:0" loading="lazy"></iframe>',
    );
    await expectToast('Embed code copied: paste it into your page');
    expect(oembedLinks()).toHaveLength(1);
    expect(oembedLinks()[0]).toHaveAttribute(
      'href',
      `${window.location.origin}/api/oembed?url=${encodeURIComponent(`${window.location.origin}/thread/12`)}&format=json`,
    );
  });

  it.each([
    ['a private paste', { visibility: 'private' as const }],
    ['a paste that burns after reading', { burnAfterReading: true }],
    ['a hidden paste', { hidden: true }],
  ])('offers nothing for %s', (_what, overrides) => {
    renderEmbed(overrides);
    expect(screen.queryByRole('button', { name: 'EMBED' })).toBeNull();
    expect(oembedLinks()).toHaveLength(0);
  });
});
