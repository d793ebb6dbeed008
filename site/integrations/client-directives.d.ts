/** Types of the project's own hydration directives: `client:interact` (client-interact.mjs, issue #17). */
declare module 'astro' {
  interface AstroClientDirectives {
    'client:interact'?: boolean | string;
  }
}
export {};
