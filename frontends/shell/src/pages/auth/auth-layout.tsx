import { Card, Input } from '@termpaste/ui';
import { useState, type ComponentProps, type ReactNode } from 'react';
import { Link } from 'react-router-dom';

/** The frame of the sign-in pages: a centred terminal window under the product mark. */
export function AuthLayout({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle: string;
  children: ReactNode;
}) {
  return (
    <main className="shell-auth">
      <Link to="/" className="shell-auth__brand">
        <span aria-hidden="true">&gt;_ </span>TERMPASTE
      </Link>
      <Card title={title} className="shell-auth__card">
        <p className="shell-muted shell-auth__subtitle">{subtitle}</p>
        {children}
      </Card>
    </main>
  );
}

/** The fields of a form, all disabled while it is submitting. */
export function FormFields({ disabled, children }: { disabled: boolean; children: ReactNode }) {
  return (
    <fieldset className="shell-form__fields" disabled={disabled}>
      {children}
    </fieldset>
  );
}

/** A labelled, required text input of an auth form. */
export function TextField({
  id,
  label,
  ...input
}: { id: string; label: string } & ComponentProps<typeof Input>) {
  return (
    <div className="shell-field">
      <label htmlFor={id} className="shell-field__label">
        {label}
      </label>
      <Input id={id} required {...input} />
    </div>
  );
}

/** The controlled values of a form, and the props that bind one input to one of them. */
export function useFormFields<T extends Record<string, string>>(initial: T) {
  const [values, setValues] = useState(initial);
  const bind = (name: keyof T & string) => ({
    name,
    value: values[name],
    onChange: (event: { target: { value: string } }) =>
      setValues((v) => ({ ...v, [name]: event.target.value })),
  });
  return { values, bind };
}
