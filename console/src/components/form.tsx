import type { ComponentChildren } from 'preact';

/** A titled panel of a page (members, API keys, deployment keys…); the title labels the region. */
export function Panel(props: { id: string; title: string; children: ComponentChildren }) {
  return (
    <section class="panel" aria-labelledby={`${props.id}-title`}>
      <h2 id={`${props.id}-title`}>{props.title}</h2>
      {props.children}
    </section>
  );
}

/**
 * A form alone on a page, as a centred card (signing in, asking for a reset link, choosing a new password);
 * its heading labels it.
 */
export function CardForm(props: {
  id: string;
  title: string;
  testId?: string;
  onSubmit: (event: Event) => void;
  children: ComponentChildren;
}) {
  return (
    <main class="centered">
      <form
        class="card signin"
        onSubmit={props.onSubmit}
        aria-labelledby={`${props.id}-title`}
        data-testid={props.testId}
      >
        <h1 id={`${props.id}-title`}>{props.title}</h1>
        {props.children}
      </form>
    </main>
  );
}

/**
 * A labelled input bound to one piece of state. The browser's own checks (`required`, lengths, type) run
 * before the form submits, so the message stands next to the field that is wrong.
 */
export function TextField(props: {
  label: string;
  name: string;
  value: string;
  onValue: (value: string) => void;
  type?: 'text' | 'email' | 'password' | 'url';
  required?: boolean;
  minLength?: number;
  maxLength?: number;
  autoComplete?: string;
  /** Values offered as the user types (the field still takes any other). */
  suggestions?: readonly string[];
}) {
  const listId = props.suggestions && `${props.name}-suggestions`;
  return (
    <label>
      {props.label}
      <input
        type={props.type ?? 'text'}
        name={props.name}
        list={listId}
        autoComplete={props.autoComplete}
        required={props.required ?? true}
        minLength={props.minLength}
        maxLength={props.maxLength}
        value={props.value}
        onInput={(e) => props.onValue(e.currentTarget.value)}
      />
      {props.suggestions && (
        <datalist id={listId}>
          {props.suggestions.map((s) => (
            <option key={s} value={s} />
          ))}
        </datalist>
      )}
    </label>
  );
}

/** The e-mail address an account signs in with. */
export function EmailField(props: { value: string; onValue: (value: string) => void }) {
  return (
    <TextField
      label="E-mail"
      type="email"
      name="email"
      autoComplete="username"
      value={props.value}
      onValue={props.onValue}
    />
  );
}

/** A new password, twice: the page refuses to send two that differ. */
export function NewPasswordFields(props: {
  next: string;
  again: string;
  onNext: (value: string) => void;
  onAgain: (value: string) => void;
}) {
  return (
    <>
      <TextField
        label="New password"
        type="password"
        name="new-password"
        autoComplete="new-password"
        minLength={8}
        value={props.next}
        onValue={props.onNext}
      />
      <TextField
        label="New password again"
        type="password"
        name="new-password-again"
        autoComplete="new-password"
        minLength={8}
        value={props.again}
        onValue={props.onAgain}
      />
    </>
  );
}

/** One choice of a select: a value shown as itself, or a value with its own label. */
export type Choice = string | { value: string; label: string };

/** The `<option>`s of a list of choices. */
export function Choices(props: { items: readonly Choice[] }) {
  return (
    <>
      {props.items.map((item) => {
        const { value, label } = typeof item === 'string' ? { value: item, label: item } : item;
        return (
          <option key={value} value={value}>
            {label}
          </option>
        );
      })}
    </>
  );
}

/**
 * A labelled select bound to one piece of state. `first` is a choice put before the others (such as
 * "All actions"); a hidden label keeps the select named for screen readers where the page is tight.
 */
export function SelectField<T extends string>(props: {
  label: string;
  hideLabel?: boolean;
  /** A fuller name for screen readers than the visible label. */
  ariaLabel?: string;
  name?: string;
  value: T;
  onValue: (value: T) => void;
  choices: readonly Choice[];
  first?: Choice;
  disabled?: boolean;
  class?: string;
}) {
  return (
    <label class={props.class}>
      {props.hideLabel ? <span class="visually-hidden">{props.label}</span> : props.label}
      <select
        name={props.name}
        aria-label={props.ariaLabel}
        value={props.value}
        disabled={props.disabled}
        onChange={(e) => props.onValue(e.currentTarget.value as T)}
      >
        <Choices items={props.first === undefined ? props.choices : [props.first, ...props.choices]} />
      </select>
    </label>
  );
}

/** A form's submit button that says what it is doing while the request runs. */
export function SubmitButton(props: {
  busy: boolean;
  busyLabel: string;
  disabled?: boolean;
  children: ComponentChildren;
}) {
  return (
    <button type="submit" disabled={props.busy || props.disabled}>
      {props.busy ? props.busyLabel : props.children}
    </button>
  );
}
