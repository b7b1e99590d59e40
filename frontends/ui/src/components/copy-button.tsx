import { Check, Copy } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button, type ButtonProps } from './button.js';
import { toast } from './toast-store.js';

export interface CopyButtonProps extends Omit<ButtonProps, 'onClick' | 'children'> {
  /** The text to put on the clipboard; a function is read at click time. */
  text: string | (() => string);
  /** 'COPY' by default; the button reads 'COPIED' for a moment after a copy. */
  label?: string;
}

const COPIED_MS = 1500;

/** Copies a text to the clipboard and says so on the button; a refused clipboard gets an error toast. */
export function CopyButton({
  text,
  label = 'COPY',
  variant = 'ghost',
  size = 'sm',
  ...props
}: CopyButtonProps) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(typeof text === 'function' ? text() : text);
      setCopied(true);
    } catch {
      toast({ title: 'Error', description: 'Could not copy to the clipboard', variant: 'destructive' });
    }
  };

  return (
    <Button {...props} variant={variant} size={size} onClick={() => void copy()}>
      {copied ? <Check size={12} aria-hidden="true" /> : <Copy size={12} aria-hidden="true" />}
      <span aria-live="polite">{copied ? 'COPIED' : label}</span>
    </Button>
  );
}
