import { SETTLED_MS, keepInView } from './keep-in-view';

/** The ResizeObservers made: the test reports a height change to them. */
let observers: Array<{ callback: () => void; targets: Element[]; disconnected: boolean }> = [];

class FakeResizeObserver {
  private readonly entry;
  constructor(callback: () => void) {
    this.entry = { callback, targets: [] as Element[], disconnected: false };
    observers.push(this.entry);
  }
  observe(target: Element) {
    this.entry.targets.push(target);
  }
  disconnect() {
    this.entry.disconnected = true;
  }
}

const heightChanged = () => {
  for (const observer of observers) if (!observer.disconnected) observer.callback();
};

function setUp() {
  const list = document.createElement('ol');
  const element = document.createElement('li');
  list.append(element);
  document.body.append(list);
  const scrolled = jest.fn();
  element.scrollIntoView = scrolled;
  return { element, list, scrolled };
}

describe('keepInView', () => {
  beforeEach(() => {
    observers = [];
    Object.assign(window, { ResizeObserver: FakeResizeObserver });
    jest.useFakeTimers();
  });
  afterEach(() => {
    delete (window as unknown as Record<string, unknown>).ResizeObserver;
    document.body.innerHTML = '';
    jest.useRealTimers();
  });

  it('brings the element to the top, and back there each time the page or its list changes height', () => {
    const { element, list, scrolled } = setUp();
    keepInView(element);
    expect(scrolled).toHaveBeenCalledTimes(1);
    expect(scrolled).toHaveBeenCalledWith({ block: 'start' });
    expect(observers[0]!.targets).toEqual([document.body, list]);
    heightChanged();
    heightChanged();
    expect(scrolled).toHaveBeenCalledTimes(3);
  });

  it('lets go once the member moves the page themselves', () => {
    for (const move of ['wheel', 'touchstart', 'keydown', 'pointerdown']) {
      const { element, scrolled } = setUp();
      keepInView(element);
      window.dispatchEvent(new Event(move));
      heightChanged();
      expect(scrolled).toHaveBeenCalledTimes(1);
      expect(observers.at(-1)!.disconnected).toBe(true);
    }
  });

  it('lets go once the page has kept its height a while, or when stopped, or when the element is gone', () => {
    const first = setUp();
    keepInView(first.element);
    jest.advanceTimersByTime(SETTLED_MS - 1);
    heightChanged();
    jest.advanceTimersByTime(SETTLED_MS - 1);
    expect(observers[0]!.disconnected).toBe(false);
    jest.advanceTimersByTime(1);
    expect(observers[0]!.disconnected).toBe(true);

    const second = setUp();
    keepInView(second.element)();
    expect(observers[1]!.disconnected).toBe(true);

    const third = setUp();
    keepInView(third.element);
    third.element.remove();
    heightChanged();
    expect(third.scrolled).toHaveBeenCalledTimes(1);
    expect(observers[2]!.disconnected).toBe(true);
  });

  it('without ResizeObserver: brought to the top once', () => {
    delete (window as unknown as Record<string, unknown>).ResizeObserver;
    const { element, scrolled } = setUp();
    keepInView(element)();
    expect(scrolled).toHaveBeenCalledTimes(1);
  });
});
