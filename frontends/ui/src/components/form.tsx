import { useId, useState, type ComponentProps, type ReactNode } from 'react';
import { cx } from '../lib/cx.js';
import { Input, Label } from './field.js';

/** The fields of a form, all disabled at once while it is submitting (a native disabled fieldset). */
export function FormFields({
  disabled,
  className,
  children,
}: {
  disabled: boolean;
  className?: string;
  children: ReactNode;
}) {
  return (
    <fieldset className={cx('tp-form-fields', className)} disabled={disabled}>
      {children}
    </fieldset>
  );
}

/** A labelled, required text input. */
export function TextField({ id, label, ...input }: { label: string } & ComponentProps<typeof Input>) {
  const generated = useId();
  const inputId = id ?? generated;
  return (
    <div className="tp-field">
      <Label htmlFor={inputId}>{label}</Label>
      <Input id={inputId} required {...input} />
    </div>
  );
}

/** The controlled values of a form, the props that bind one input to one of them, and a reset. */
export function useFormFields<T extends Record<string, string>>(initial: T) {
  const [values, setValues] = useState(initial);
  const bind = (name: keyof T & string) => ({
    name,
    value: values[name],
    onChange: (event: { target: { value: string } }) =>
      setValues((v) => ({ ...v, [name]: event.target.value })),
  });
  return { values, bind, reset: () => setValues(initial) };
}
