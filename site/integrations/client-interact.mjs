/**
 * Astro integration: the `client:interact` hydration directive (issue #17 data budget). An island marked
 * `client:interact` is server-rendered as usual, but its JavaScript (component, renderer and what they import, e.g.
 * react-hook-form on /login and /register) loads only when the person first uses it; see
 * client-interact-directive.ts for when exactly, and how a submit before that is kept.
 *
 *   <LoginForm client:interact />                        // hydrates on first focus, tap, key or submit
 *   <RegisterPage client:interact="mode=full" />         // … or at once when the page URL has ?mode=full
 */
import { fileURLToPath } from 'node:url';

/** @returns {import('astro').AstroIntegration} */
export default function clientInteract() {
  return {
    name: 'college:client-interact',
    hooks: {
      'astro:config:setup': ({ addClientDirective }) => {
        addClientDirective({ name: 'interact', entrypoint: fileURLToPath(new URL('./client-interact-directive.ts', import.meta.url)) });
      },
    },
  };
}
