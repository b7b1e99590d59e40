import { render, screen, within } from '@testing-library/react';
import { Badge } from './badge.js';
import { Card } from './card.js';
import { Input, Label, Textarea } from './field.js';
import { Skeleton } from './skeleton.js';
import { Spinner } from './spinner.js';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from './table.js';

describe('Card', () => {
  it('is a section named by its title, with a terminal title bar and actions', () => {
    render(
      <Card title="Pinned Pastes" actions={<button type="button">ADD PASTE</button>} className="wide">
        body
      </Card>,
    );
    const card = screen.getByRole('region', { name: 'Pinned Pastes' });
    expect(card).toHaveClass('tp-card', 'wide');
    expect(card).toHaveTextContent('┌─[Pinned Pastes]');
    expect(within(card).getByRole('heading', { level: 2 })).toHaveTextContent('Pinned Pastes');
    expect(within(card).getByRole('button', { name: 'ADD PASTE' })).toBeInTheDocument();
  });

  it("titles the screen's own card with the page's h1", () => {
    render(
      <Card title="RECENT PASTES" titleLevel={1}>
        body
      </Card>,
    );
    const card = screen.getByRole('region', { name: 'RECENT PASTES' });
    expect(within(card).getByRole('heading', { level: 1 })).toHaveTextContent('RECENT PASTES');
    expect(within(card).queryByRole('heading', { level: 2 })).toBeNull();
  });

  it('has no title bar without title and actions', () => {
    const { container } = render(<Card>plain</Card>);
    expect(container.querySelector('.tp-card__bar')).toBeNull();
  });
});

describe('Table', () => {
  it('renders a table with column headers', () => {
    render(
      <Table>
        <TableHeader>
          <TableRow>
            <TableHead>Title</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          <TableRow className="clickable">
            <TableCell>hello</TableCell>
          </TableRow>
        </TableBody>
      </Table>,
    );
    expect(screen.getByRole('columnheader', { name: 'Title' })).toHaveAttribute('scope', 'col');
    expect(screen.getByRole('cell', { name: 'hello' })).toHaveClass('tp-table__cell');
    expect(screen.getAllByRole('row')[1]).toHaveClass('tp-table__row', 'clickable');
  });

  /** Renders a one-cell table whose frame is `content` pixels wide inside `frame` (jsdom lays nothing out). */
  function renderSized(content: number, frame: number) {
    const scrollWidth = jest.spyOn(HTMLElement.prototype, 'scrollWidth', 'get').mockReturnValue(content);
    const clientWidth = jest.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(frame);
    try {
      return render(
        <Table aria-label="Ladder">
          <TableBody>
            <TableRow>
              <TableCell>Newbie</TableCell>
            </TableRow>
          </TableBody>
        </Table>,
      );
    } finally {
      scrollWidth.mockRestore();
      clientWidth.mockRestore();
    }
  }

  it('a frame that scrolls sideways takes the focus and is named, so the keyboard can scroll it', () => {
    const { container } = renderSized(600, 300);
    const frame = screen.getByRole('region', { name: 'Ladder (scrolls sideways)' });
    expect(frame).toBe(container.querySelector('.tp-table-frame'));
    expect(frame).toHaveAttribute('tabindex', '0');
  });

  it('a frame that fits is no tab stop', () => {
    const { container } = renderSized(300, 300);
    expect(screen.queryByRole('region')).toBeNull();
    expect(container.querySelector('.tp-table-frame')).not.toHaveAttribute('tabindex');
  });
});

describe('small parts', () => {
  it('Badge takes a variant and a rank class', () => {
    render(
      <Badge variant="accent" className="rank-elite-hacker">
        ELITE HACKER
      </Badge>,
    );
    expect(screen.getByText('ELITE HACKER')).toHaveClass('tp-badge', 'tp-badge--accent', 'rank-elite-hacker');
  });

  it('Input, Textarea and Label wire up', () => {
    render(
      <>
        <Label htmlFor="title">Title</Label>
        <Input id="title" maxLength={200} />
        <Label htmlFor="content">Content</Label>
        <Textarea id="content" className="tall" />
      </>,
    );
    expect(screen.getByLabelText('Title')).toHaveAttribute('type', 'text');
    expect(screen.getByLabelText('Title')).toHaveClass('tp-input');
    expect(screen.getByLabelText('Content')).toHaveClass('tp-textarea', 'tall');
  });

  it('Skeleton takes a size and is hidden from assistive technology', () => {
    const { container } = render(<Skeleton width={120} height="1rem" />);
    const skeleton = container.firstElementChild as HTMLElement;
    expect(skeleton).toHaveAttribute('aria-hidden', 'true');
    expect(skeleton.style.width).toBe('120px');
    expect(skeleton.style.height).toBe('1rem');
  });

  it('Spinner is a status with its label, or a hidden default one', () => {
    const { rerender } = render(<Spinner label="LOADING PASTES" />);
    expect(screen.getByRole('status')).toHaveTextContent('LOADING PASTES');
    rerender(<Spinner />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading...');
  });
});
