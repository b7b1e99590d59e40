import { TOASTS } from '@termpaste/contracts';
import { useSyncExternalStore, type ReactNode } from 'react';

/**
 * The one toast store of the app (this package is a Module Federation singleton, so the shell and every
 * remote share it). Only TOASTS.limit (1) toast is kept: a new toast replaces the current one.
 */

export type ToastVariant = 'default' | 'destructive';

export interface ToastOptions {
  title: ReactNode;
  description?: ReactNode;
  variant?: ToastVariant;
  /** Milliseconds before it closes; the Toaster's default (5000) when omitted. */
  duration?: number;
}

export interface ToastItem extends ToastOptions {
  id: string;
  open: boolean;
}

export interface ToastHandle {
  id: string;
  dismiss: () => void;
  update: (options: Partial<ToastOptions>) => void;
}

/** Time a dismissed toast stays mounted so its exit animation can play. */
const REMOVE_DELAY_MS = 1000;

let toasts: readonly ToastItem[] = [];
let nextId = 0;
const listeners = new Set<() => void>();
const removalTimers = new Map<string, ReturnType<typeof setTimeout>>();

function setToasts(next: readonly ToastItem[]): void {
  toasts = next;
  listeners.forEach((listener) => listener());
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function getSnapshot(): readonly ToastItem[] {
  return toasts;
}

function scheduleRemoval(id: string): void {
  if (removalTimers.has(id)) return;
  removalTimers.set(
    id,
    setTimeout(() => {
      removalTimers.delete(id);
      setToasts(toasts.filter((item) => item.id !== id));
    }, REMOVE_DELAY_MS),
  );
}

/** Closes one toast, or every toast without an id. */
export function dismissToast(id?: string): void {
  toasts.filter((item) => id === undefined || item.id === id).forEach((item) => scheduleRemoval(item.id));
  setToasts(toasts.map((item) => (id === undefined || item.id === id ? { ...item, open: false } : item)));
}

function updateToast(id: string, options: Partial<ToastOptions>): void {
  setToasts(toasts.map((item) => (item.id === id ? { ...item, ...options } : item)));
}

/** Shows a toast, replacing the one on screen. Callable from anywhere, not only from components. */
export function toast(options: ToastOptions): ToastHandle {
  nextId = (nextId + 1) % Number.MAX_SAFE_INTEGER;
  const id = String(nextId);
  const dropped = toasts.slice(TOASTS.limit - 1);
  dropped.forEach((item) => {
    clearTimeout(removalTimers.get(item.id));
    removalTimers.delete(item.id);
  });
  setToasts([{ ...options, id, open: true }, ...toasts].slice(0, TOASTS.limit));
  return { id, dismiss: () => dismissToast(id), update: (next) => updateToast(id, next) };
}

export function useToast(): {
  toasts: readonly ToastItem[];
  toast: typeof toast;
  dismiss: typeof dismissToast;
} {
  const current = useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
  return { toasts: current, toast, dismiss: dismissToast };
}

/** Empties the store; for tests, which share the module between cases. */
export function resetToastsForTests(): void {
  removalTimers.forEach((timer) => clearTimeout(timer));
  removalTimers.clear();
  setToasts([]);
}
