import { SEARCH_MESSAGES, SEARCH_OPERATORS } from '@termpaste/contracts';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { SearchFilters, SearchHelp } from './search-controls';

/** The filters beside a box holding `initial`: the box shows the text the filters write. */
function Editor({ initial }: { initial: string }) {
  const [text, setText] = useState(initial);
  return (
    <>
      <input aria-label="box" value={text} onChange={(event) => setText(event.target.value)} />
      <SearchFilters text={text} onChange={setText} />
    </>
  );
}

const box = () => screen.getByRole('textbox', { name: 'box' });

describe('SearchHelp', () => {
  it('lists every operator with an example, and closes with Escape', async () => {
    const user = userEvent.setup();
    render(<SearchHelp />);
    const button = screen.getByRole('button', { name: 'Search operators' });
    expect(button).toHaveAttribute('aria-expanded', 'false');
    await user.click(button);
    const help = screen.getByRole('dialog', { name: 'Search operators' });
    for (const operator of SEARCH_OPERATORS) {
      expect(within(help).getByText(operator.example)).toBeInTheDocument();
      expect(within(help).getByText(operator.meaning)).toBeInTheDocument();
    }
    expect(button).toHaveAttribute('aria-expanded', 'true');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('closes on a click outside it', async () => {
    const user = userEvent.setup();
    render(
      <>
        <SearchHelp />
        <p>elsewhere</p>
      </>,
    );
    await user.click(screen.getByRole('button', { name: 'Search operators' }));
    await user.click(screen.getByRole('dialog'));
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    await user.click(screen.getByText('elsewhere'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});

describe('SearchFilters', () => {
  it('shows what the text says', () => {
    render(
      <Editor initial='docker "a b" user:neo tag:rust tag:cli lang:python in:title is:featured after:2026-01-01 before:2026-02-01 sort:top' />,
    );
    expect(screen.getByLabelText('user:')).toHaveValue('neo');
    expect(screen.getByLabelText('tag:')).toHaveValue('rust cli');
    expect(screen.getByLabelText('lang:')).toHaveValue('python');
    expect(screen.getByLabelText('after:')).toHaveValue('2026-01-01');
    expect(screen.getByLabelText('before:')).toHaveValue('2026-02-01');
    expect(screen.getByLabelText('sort:')).toHaveValue('top');
    expect(screen.getByRole('checkbox', { name: 'is:featured' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'in:title' })).toBeChecked();
  });

  it('writes each control into the text, keeping the words', async () => {
    const user = userEvent.setup();
    render(<Editor initial='docker -"not syncing"' />);
    await user.click(screen.getByRole('checkbox', { name: 'in:title' }));
    expect(box()).toHaveValue('docker -"not syncing" in:title');
    await user.click(screen.getByRole('checkbox', { name: 'is:featured' }));
    await user.selectOptions(screen.getByLabelText('sort:'), 'new');
    expect(box()).toHaveValue('docker -"not syncing" in:title is:featured sort:new');
    await user.type(screen.getByLabelText('user:'), 'neo{Enter}');
    await user.type(screen.getByLabelText('tag:'), 'Rust cli');
    await user.tab(); // leaving the field writes it
    await user.type(screen.getByLabelText('lang:'), 'python{Enter}');
    expect(box()).toHaveValue(
      'docker -"not syncing" user:neo tag:rust tag:cli lang:python in:title is:featured sort:new',
    );
    await user.clear(screen.getByLabelText('user:'));
    await user.keyboard('{Enter}');
    await user.click(screen.getByRole('checkbox', { name: 'in:title' }));
    await user.selectOptions(screen.getByLabelText('sort:'), '');
    expect(box()).toHaveValue('docker -"not syncing" tag:rust tag:cli lang:python is:featured');
  });

  it('follows the text as it is typed in the box', async () => {
    const user = userEvent.setup();
    render(<Editor initial="" />);
    await user.type(box(), 'kernel tag:linux sort:top');
    expect(screen.getByLabelText('tag:')).toHaveValue('linux');
    expect(screen.getByLabelText('sort:')).toHaveValue('top');
  });

  it('dates: typed into the date fields; crossed ones are refused', async () => {
    const user = userEvent.setup();
    render(<Editor initial="x before:2026-01-01" />);
    await user.type(screen.getByLabelText('after:'), '2026-03-01');
    expect(screen.getByRole('alert')).toHaveTextContent(SEARCH_MESSAGES.datesCrossed);
    expect(box()).toHaveValue('x before:2026-01-01');
  });

  it('refuses a value the parser refuses, and says why', async () => {
    const user = userEvent.setup();
    render(<Editor initial="docker" />);
    await user.type(screen.getByLabelText('tag:'), 'x{Enter}');
    expect(screen.getByRole('alert')).toHaveTextContent(SEARCH_MESSAGES.badTag('x'));
    expect(box()).toHaveValue('docker');
  });

  it('waits while the box does not parse, and says why', () => {
    render(<Editor initial="docker sort:xyz" />);
    expect(screen.getByRole('group', { name: 'Search filters' })).toBeDisabled();
    expect(screen.getByRole('alert')).toHaveTextContent(SEARCH_MESSAGES.badSort('xyz'));
  });
});
