/** $theme: 'light' | 'dark', default light, persisted under localStorage key 'theme' (spec §1). */
import { persistentAtom } from '@nanostores/persistent';

export type Theme = 'light' | 'dark';
export const $theme = persistentAtom<Theme>('theme', 'light');

export function applyTheme(theme: Theme): void {
  document.documentElement.classList.toggle('dark', theme === 'dark');
}

export function toggleTheme(): void {
  $theme.set($theme.get() === 'dark' ? 'light' : 'dark');
}
