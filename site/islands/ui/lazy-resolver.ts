/**
 * A react-hook-form resolver for a zod contract that loads zod, @hookform/resolvers and the schema when the form
 * is first used, not with the page (issue #17 data budget: zod's core is about 15 KB of a page's JavaScript). The
 * schema stays the one in api/contracts/ (single source of truth); only its loading moves.
 *
 *   const login = lazyZodResolver<Input, Output>(() => import('#contracts/auth.ts').then((m) => m.LoginSchema));
 *   useForm({ resolver: login.resolver });
 *   <form onFocusCapture={login.preload}> …   // starts the download while the person types
 */
import type { FieldValues, Resolver } from 'react-hook-form';
import type { ZodMiniType } from 'zod/mini';

export interface LazyZodResolver<I extends FieldValues, O> {
  /** The resolver: waits for the schema on its first call (a rejected load rejects the validation). */
  resolver: Resolver<I, unknown, O>;
  /** Starts the download now (idempotent); e.g. on the form's first focus. */
  preload: () => void;
}

/** Wraps `load` (a dynamic import of a contract's schema) as a lazily loaded zodResolver; see the module comment. */
export function lazyZodResolver<I extends FieldValues, O>(load: () => Promise<ZodMiniType>): LazyZodResolver<I, O> {
  let ready: Promise<Resolver<I, unknown, O>> | null = null;
  const get = () => (ready ??= Promise.all([import('@hookform/resolvers/zod'), load()])
    .then(([{ zodResolver }, schema]) => zodResolver(schema as never) as unknown as Resolver<I, unknown, O>)
    .catch((err) => { ready = null; throw err; }));
  return {
    resolver: async (values, context, options) => (await get())(values, context, options),
    preload: () => { void get().catch(() => undefined); },
  };
}
