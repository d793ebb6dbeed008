/**
 * onFirstUse (first-use.ts) holds a submit made before a form's code runs and repeats it once the code runs. On
 * Safari < 16 (iOS 15 phones) `HTMLFormElement.requestSubmit` does not exist, so the repeat must not rely on it. The
 * form is stood in for by an EventTarget without requestSubmit, which is what such a browser's form offers here.
 */
import { describe, expect, it } from 'vitest';
import { onFirstUse } from './first-use.ts';

describe('onFirstUse on a browser without requestSubmit', () => {
  it('a submit made while the code loads is held (not sent natively) and delivered once the code runs', async () => {
    const form = new EventTarget() as unknown as HTMLFormElement;
    let delivered = 0;
    let loaded!: () => void;
    const start = onFirstUse(form, () => new Promise<void>((resolve) => { loaded = resolve; }));
    form.addEventListener('submit', () => { delivered += 1; });

    const early = new Event('submit', { bubbles: true, cancelable: true });
    form.dispatchEvent(early);
    expect(early.defaultPrevented).toBe(true);

    loaded();
    await start();
    expect(delivered).toBe(2);
  });
});
