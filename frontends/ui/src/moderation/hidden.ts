/**
 * Whether an item the API sent (a paste, a reply, a chat line) is hidden pending review: its `hidden`
 * flag, read from any object, so a screen can ask before every schema carries it.
 */
export function isHiddenItem(item: object | null | undefined): boolean {
  return item !== null && item !== undefined && 'hidden' in item && item.hidden === true;
}
