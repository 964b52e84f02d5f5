// The carriers explorer's sign-in: an API key kept for this browser tab only (sessionStorage), the form
// that asks for it, and the headers that send it. Views signed in call these; nothing else keeps the key.
import { rerender } from '../core/app.ts';
import { type Child, field, h } from '../core/dom.ts';

const KEY_ITEM = 'shardline.carriers.api_key';

/** What a view remembers of a key: cleared when the key changes. */
const forgetters: (() => void)[] = [];
export const onKeyChange = (forget: () => void) => void forgetters.push(forget);

/** The key for this tab only: sessionStorage ends with the tab, and nothing else keeps it. */
export const keyStore = {
  get: (): string | null => {
    try {
      return sessionStorage.getItem(KEY_ITEM);
    } catch {
      return null;
    }
  },
  set(key: string) {
    sessionStorage.setItem(KEY_ITEM, key);
    for (const f of forgetters) f();
  },
  clear() {
    sessionStorage.removeItem(KEY_ITEM);
    for (const f of forgetters) f();
  },
};

export const auth = (key: string) => ({ Authorization: `Bearer ${key}` });

export function signInForm(message?: Child): HTMLElement {
  const input = h('input', {
    type: 'password',
    name: 'api_key',
    required: true,
    autocomplete: 'off',
    spellcheck: 'false',
  });
  const form = h(
    'form',
    { class: 'filters signin', 'aria-label': 'Sign in' },
    field('API key', input, 'kept in this browser tab only, until you sign out or close it'),
    h('button', { type: 'submit' }, 'Sign in'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const key = input.value.trim();
    if (!key) return;
    keyStore.set(key);
    rerender();
  });
  return h(
    'section',
    { 'aria-labelledby': 'signin' },
    h('h2', { id: 'signin' }, 'Sign in with an API key'),
    message ?? null,
    h(
      'p',
      null,
      'Carrier profiles are for signed-in users. A free key has a monthly allowance of profile lookups; a premium key adds the plain-language summary and the export. The operator issues keys with ',
      h('code', null, 'npm run keys -- create --plan free'),
      '.',
    ),
    form,
  );
}

export function signOutButton(): HTMLElement {
  return h(
    'button',
    {
      type: 'button',
      class: 'secondary',
      onclick: () => {
        keyStore.clear();
        rerender();
      },
    },
    'Sign out',
  );
}
