/**
 * Test support, imported by specs only (through `@termpaste/ui/testing`).
 * Makes `navigator.clipboard.writeText` the given function, typically a `jest.fn`, and returns it so the
 * test can read its calls. Call it after `userEvent.setup()`, which installs a clipboard of its own.
 */
export function stubClipboard<Write extends (text: string) => Promise<void>>(writeText: Write): Write {
  Object.defineProperty(window.navigator, 'clipboard', { configurable: true, get: () => ({ writeText }) });
  return writeText;
}
